/* Second of the thirteenth pair of programs sharing function names (role
 * of hash_b.c): release 2 of the weather-station log summariser (see
 * sv_hash_a.c): classify() nests its tests and clamp_reading() returns
 * early (each with the counter count of release 1's version but another
 * control flow), a loop in step(), a ternary in merge_me() (the same
 * control flow as release 1's if), the same dew_point(), ewma() instead
 * of moving_avg(), and to_fahrenheit() renamed celsius_to_f().  No
 * arguments. */
#include <stdio.h>

static int readings[24];
static int nreadings;

__attribute__((constructor)) static void load_readings(void) {
  int t = 1;
  for (int h = 0; h < 24; h++) {
    t += (h < 13 ? 3 : -2) + (h % 4 == 0 ? -2 : 0);
    readings[nreadings++] = t;
  }
}

int step(int x) {
  int n = 0;
  while (x > 1 && n < 50) {
    x = x % 2 ? 3 * x + 1 : x / 2;
    n++;
  }
  return n;
}

int merge_me(int a, int b) { return a < b ? b - a : a - b; }

/* 0 cold, 1 mild, 2 warm, 3 hot */
int classify(int c) {
  if (c >= 15) {
    if (c >= 25) return 3;
    return 2;
  }
  if (c >= 5) return 1;
  return 0;
}

int clamp_reading(int c) {
  if (c < -40) return -40;
  else if (c > 60) return 60;
  return c;
}

int dew_point(int c, int humidity) { return c - (100 - humidity) / 5; }

int celsius_to_f(int c) { return c * 9 / 5 + 32; }

int ewma(const int *v, int n) {
  int avg = v[0] * 8;
  for (int i = 1; i < n; i++) avg += v[i] - avg / 8;
  return avg / 8;
}

int main(void) {
  int hist[4] = {0}, fsum = 0, dsum = 0;
  for (int i = 0; i < nreadings; i++) {
    int c = clamp_reading(readings[i]);
    hist[classify(c)]++;
    fsum += celsius_to_f(c);
    dsum += dew_point(c, 35 + i * 2);
  }
  int acc = 0;
  for (int i = 1; i < 16; i++) acc += step(i) + merge_me(i, 8);
  printf("%d %d %d %d %d %d %d %d\n", hist[0], hist[1], hist[2], hist[3], fsum, dsum,
         ewma(readings, nreadings), acc);
  return 0;
}
