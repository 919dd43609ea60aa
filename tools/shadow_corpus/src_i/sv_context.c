/* Ninth set: context-sensitive PGO.  Small static helpers (a range check, a
 * bucket picker with a loop, a clamp, and small_values) are inlined into four
 * callers that feed them disjoint value ranges, so each inlined copy takes
 * other branches; one helper is also reached through a pointer, and a
 * two-level inline chain makes the context deeper. */
#include <stdio.h>
#include <stdlib.h>
static inline int in_range(int v, int lo, int hi) { if (v < lo) return -1; if (v > hi) return 1; return 0; }
static inline int bucket(int v) {
  int b = 0;
  while (v > 9 && b < 6) { v /= 10; b++; }
  if (b == 0) return v & 1;
  return b * 2;
}
static inline int clampi(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }
static inline int small_values(int v) {
  if (v < 4) return v * v;
  if (v < 16) return v + 100;
  return bucket(v) + in_range(v, 16, 64);
}
static inline int chain(int v) { return small_values(clampi(v)) + bucket(v); }
__attribute__((noinline)) long only_small(int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += small_values(i % 4) + in_range(i % 4, 0, 3);
  return s;
}
__attribute__((noinline)) long only_big(int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += bucket(100000 + i * 37) + in_range(i + 500, 0, 10) + clampi(i + 300);
  return s;
}
__attribute__((noinline)) long negatives(int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += clampi(-i) + chain(-i - 1) + in_range(-i, 0, 5);
  return s;
}
__attribute__((noinline)) long spread(int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += chain(i * 13 % 400) + small_values(i % 90);
  return s;
}
typedef long (*worker)(int);
static worker workers[] = {only_small, only_big, negatives, spread};
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long t = 0;
  for (int k = 0; k < 8; k++) t += workers[(k * 3 + n) % 4](n / 4 + k);
  t += spread(n) + only_small(n / 3);
  printf("%ld\n", t);
  return 0;
}
