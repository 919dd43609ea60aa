/* First of the thirteenth pair of programs sharing function names (role of
 * hash_a.c): release 1 of a weather-station log summariser and its test
 * driver.  Against sv_hash_b.c (release 2): classify() and clamp_reading()
 * have other control flow but the same number of counters (an if/else
 * chain and two ifs here, nested ifs and early returns there); step()
 * differs in shape and counter count; merge_me() keeps its control flow
 * (the same hash) with another body (both names are also in the corpus's
 * text inputs); dew_point() is the same in both; moving_avg() exists only
 * here (release 2 replaced it by ewma()); to_fahrenheit() here is called
 * celsius_to_f() there (the same body under a new name).  A constructor
 * (a static function, so its name carries the file name) loads the
 * readings before main.  No arguments. */
#include <stdio.h>

static int readings[24];
static int nreadings;

__attribute__((constructor)) static void load_readings(void) {
  int t = 3;
  for (int h = 0; h < 24; h++) {
    t += (h < 14 ? 2 : -2) + (h % 5 == 0 ? -3 : 0);
    readings[nreadings++] = t;
  }
}

int step(int x) { return x % 3 == 0 ? x / 3 : x + 2; }

int merge_me(int a, int b) {
  if (a > b) return a;
  return b;
}

/* 0 cold, 1 mild, 2 warm, 3 hot */
int classify(int c) {
  if (c < 5) return 0;
  else if (c < 15) return 1;
  else if (c < 25) return 2;
  return 3;
}

int clamp_reading(int c) {
  if (c < -40) c = -40;
  if (c > 60) c = 60;
  return c;
}

int dew_point(int c, int humidity) { return c - (100 - humidity) / 5; }

int to_fahrenheit(int c) { return c * 9 / 5 + 32; }

int moving_avg(const int *v, int n, int w) {
  int best = -1000;
  for (int i = 0; i + w <= n; i++) {
    int s = 0;
    for (int k = 0; k < w; k++) s += v[i + k];
    if (s / w > best) best = s / w;
  }
  return best;
}

int main(void) {
  int hist[4] = {0}, fsum = 0, dsum = 0;
  for (int i = 0; i < nreadings; i++) {
    int c = clamp_reading(readings[i]);
    hist[classify(c)]++;
    fsum += to_fahrenheit(c);
    dsum += dew_point(c, 40 + i * 2);
  }
  int acc = 0;
  for (int i = 1; i < 12; i++) acc += step(i) + merge_me(i, 6);
  printf("%d %d %d %d %d %d %d %d\n", hist[0], hist[1], hist[2], hist[3], fsum, dsum,
         moving_avg(readings, nreadings, 4), acc);
  return 0;
}
