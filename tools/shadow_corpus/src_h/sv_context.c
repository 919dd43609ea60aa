/* Eighth set: inline helpers used by three callers in different ways
 * (context-sensitive PGO). */
#include <stdio.h>
#include <stdlib.h>
static inline int classify(int v) {
  if (v < 0) return -1;
  if (v == 0) return 0;
  if (v < 10) return 1;
  if (v < 100) return 2;
  return 3;
}
static inline int small_values(int v) { return v % 3 == 0 ? v / 3 : v * 2; }
__attribute__((noinline)) int mostly_negative(int n) { int s = 0; for (int i = 0; i < n; i++) s += classify(-i - 1) + small_values(i); return s; }
__attribute__((noinline)) int mostly_large(int n) { int s = 0; for (int i = 0; i < n; i++) s += classify(i * 50) + (i & 1); return s; }
__attribute__((noinline)) int mixed(int n) { int s = 0; for (int i = 0; i < n; i++) s += classify(i % 150 - 20) * small_values(i % 7); return s; }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  printf("%d\n", mostly_negative(n) + mostly_large(n / 2) + mixed(n * 2));
  return 0;
}
