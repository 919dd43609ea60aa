/* Fifth context-sensitive PGO workload: a five-level chain of inline
 * helpers (lvl1 -> lvl5) inlined into four callers that enter it at
 * different levels and with different argument ranges (so each context
 * takes different branches), a helper inlined into a function that is
 * itself inlined twice, a noinline leaf called from every context, and a
 * caller that only runs when COUNT exceeds 500.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long leaf(long x) { return x % 7 ? x * 3 : x / 7; }

static inline long lvl5(long x) {
  if (x & 1) return x + 5;
  if (x & 2) return leaf(x);
  return x - 1;
}
static inline long lvl4(long x) { return x > 100 ? lvl5(x / 3) : lvl5(x + 4) * 2; }
static inline long lvl3(long x) {
  long r = 0;
  for (int i = 0; i < (int)(x & 3); i++)
    r += lvl4(x + i);
  return r ? r : lvl4(x);
}
static inline long lvl2(long x) { return x % 5 == 0 ? lvl3(x) : lvl3(x + 1) - 1; }
static inline long lvl1(long x) { return x < 0 ? -lvl2(-x) : lvl2(x); }

__attribute__((noinline)) long from_top(int n) {
  long r = 0;
  for (int i = 0; i < n; i++)
    r = (r + lvl1(i)) % 100003;
  return r;
}
__attribute__((noinline)) long from_mid(int n) {
  long r = 0;
  for (int i = 0; i < n; i++)
    r = (r + lvl3(i * 4)) % 100003;
  return r;
}
__attribute__((noinline)) long from_low(int n) {
  long r = 0;
  for (int i = 0; i < n; i++)
    r = (r + lvl5(i * 2 + 1)) % 100003;
  return r;
}
__attribute__((noinline)) long from_negative(int n) {
  long r = 0;
  for (int i = 1; i <= n; i++)
    r = (r + lvl1(-i * 3)) % 100003;
  return r;
}

static inline long wrap_inner(long x) { return x > 50 ? x - 50 : leaf(x); }
static inline long wrap(long x) { return wrap_inner(x) + wrap_inner(x * 2); }
__attribute__((noinline)) long wrapped_a(int n) {
  long r = 0;
  for (int i = 0; i < n; i++) r += wrap(i);
  return r;
}
__attribute__((noinline)) long wrapped_b(int n) {
  long r = 0;
  for (int i = 0; i < n; i++) r += wrap(i + 40);
  return r;
}

__attribute__((noinline)) long only_big(int n) { return lvl2(n) + wrap(n); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long acc = from_top(n) + from_mid(n / 2) + from_low(n / 3) + from_negative(n / 4);
  acc += wrapped_a(n / 5) + wrapped_b(n / 7);
  if (n > 500)
    acc += only_big(n);
  printf("%ld\n", acc);
  return 0;
}
