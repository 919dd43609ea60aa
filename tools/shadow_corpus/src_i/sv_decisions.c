/* Ninth set: MC/DC decisions of 2 to 6 conditions, in loops, in nested ifs,
 * in while conditions, in ternaries and returns, one taking a decision as an
 * argument, and one function whose decisions never run. */
#include <stdio.h>
#include <stdlib.h>
static int flags_of(int i) { return (i * 2654435761u) >> 27; }
int two(int a, int b) { return a && b; }
int three(int a, int b, int c) { if ((a || b) && c) return 1; return 0; }
int triple(int x, int y, int z) {
  int r = 0;
  if (x > 0 && y > 0 && z > 0) r += 1;
  if (x == y || y == z || x == z) r += 2;
  return r;
}
int four(int a, int b, int c, int d) {
  int r = 0;
  for (int k = 0; k < 3; k++) {
    if ((a + k > 2 && b) || (c && !d)) r++;
    else if (a < k || (b && c && d)) r += 2;
  }
  return r;
}
int five(int f) {
  int a = f & 1, b = f & 2, c = f & 4, d = f & 8, e = f & 16;
  int r = 0;
  if (a || (b && c)) {
    if ((d || e) && (a || c) && !b) r += 3;
    else r += (a && b && c && d && e) ? 10 : 1;
  }
  return r;
}
int six(int f, int g) {
  int n = 0;
  while ((f & 1 || f & 2) && (g > 0 && g < 50) && (f & 4 || !(f & 8)) && n < 4) { n++; g -= 13; }
  return n;
}
int sixflat(const int *v) {
  return v[0] > 1 && v[1] < 3 && v[2] != 0 && v[3] == v[0] && (v[4] || v[5]);
}
int passing(int a, int b, int c) { return three(a && b, b || c, c) + two(a || c, b); }
int unused_gate(int a, int b, int c, int d) { return (a && b) || (c && d) || (a && d); }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8;
  long t = 0;
  for (int i = 0; i < n; i++) {
    int f = flags_of(i + 1);
    int v[6] = {i % 4, i % 5, i % 3, i % 4 == i % 7 ? i % 4 : 9, f & 1, (f >> 1) & 1};
    t += two(i & 1, i & 2) + three(i & 1, i & 4, i % 3 == 0);
    t += triple(i % 3 - 1, i % 2, i % 5 - 2) * 3;
    t += four(i % 4, i & 1, (i >> 1) & 1, (i >> 2) & 1);
    t += five(f) + six(f, i * 7 % 60) + sixflat(v) + passing(i & 1, i & 2, i & 8);
  }
  if (n > 100000) t += unused_gate(1, 0, 1, 0);
  printf("%ld\n", t);
  return 0;
}
