/* Sixth context-sensitive PGO workload: an always_inline helper with a
 * 300-case switch (more than 256 counters in every context) inlined into
 * three callers that reach disjoint case ranges, a _Generic macro that
 * picks one of three inline helpers by argument type, an inline helper
 * using a variable-length array, a loop the optimizer folds into closed
 * form inside an inline helper (counts near 2^50 in one context, small in
 * another), mutual recursion through inline helpers, an interpreter with
 * computed goto (never inlined), and a caller that only runs when COUNT
 * exceeds 500.  argv: COUNT. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define C1(n) case n: r = x * (n % 11) - n; break;
#define C10(a) C1(a##0) C1(a##1) C1(a##2) C1(a##3) C1(a##4) C1(a##5) C1(a##6) C1(a##7) C1(a##8) C1(a##9)
static inline __attribute__((always_inline)) long wide(int v, long x) {
  long r = x;
  switch (v) {
    C10(10) C10(11) C10(12) C10(13) C10(14) C10(15) C10(16) C10(17) C10(18) C10(19)
    C10(20) C10(21) C10(22) C10(23) C10(24) C10(25) C10(26) C10(27) C10(28) C10(29)
    C10(30) C10(31) C10(32) C10(33) C10(34) C10(35) C10(36) C10(37) C10(38) C10(39)
  default:
    r = x + 1;
  }
  return r;
}

__attribute__((noinline)) long low_cases(int n) {
  long r = 0;
  for (int i = 0; i < n; i++)
    r = (r + wide(100 + i % 100, i)) % 1000003;
  return r;
}
__attribute__((noinline)) long high_cases(int n) {
  long r = 0;
  for (int i = 0; i < n; i++)
    r = (r + wide(300 + (i * 7) % 100, i)) % 1000003;
  return r;
}
__attribute__((noinline)) long out_of_range(int n) {
  long r = 0;
  for (int i = 0; i < n; i++)
    r = (r + wide(i % 2 ? 50 : 450, i)) % 1000003;
  return r;
}

static inline long g_int(int x) { return x % 3 ? x * 2 : x / 3; }
static inline long g_long(long x) { return x > 1000 ? x - 1000 : x + 7; }
static inline long g_double(double x) { return x > 0.5 ? (long)(x * 10) : -1; }
#define pick(x) _Generic((x), int: g_int, long: g_long, double: g_double)(x)

__attribute__((noinline)) long generic_mix(int n) {
  long r = 0;
  for (int i = 0; i < n; i++) {
    r += pick(i);
    r += pick((long)i * 13);
    r += pick(i / (double)(n + 1));
  }
  return r;
}

static inline long vla_sum(int k) {
  long buf[k + 1];
  for (int i = 0; i <= k; i++)
    buf[i] = i % 4 ? i : -i;
  long s = 0;
  for (int i = k; i >= 0; i -= 2)
    s += buf[i];
  return s;
}
__attribute__((noinline)) long vla_user(int n) {
  long r = 0;
  for (int i = 0; i < n; i++)
    r += vla_sum(i % 17);
  return r;
}

static inline uint64_t folded(uint64_t m) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < m; i++)
    s += 3;
  return s;
}
__attribute__((noinline)) uint64_t folded_big(int n) { return folded((uint64_t)n << 40); }
__attribute__((noinline)) uint64_t folded_small(int n) { return folded((uint64_t)n); }

static long odd_side(int n, long x);
static inline long even_side(int n, long x) { return n <= 0 ? x : odd_side(n - 1, x + 2); }
static __attribute__((noinline)) long odd_side(int n, long x) {
  return n <= 0 ? x : even_side(n - 1, x * 3 % 10007);
}

__attribute__((noinline)) long interp(const unsigned char *code, long x) {
  static void *ops[] = {&&add, &&dbl, &&dec, &&stop};
  const unsigned char *pc = code;
  goto *ops[*pc++ & 3];
add:
  x += 5;
  goto *ops[*pc++ & 3];
dbl:
  x *= 2;
  goto *ops[*pc++ & 3];
dec:
  x -= 1;
  goto *ops[*pc++ & 3];
stop:
  return x;
}

__attribute__((noinline)) long only_big(int n) { return high_cases(n / 100) + vla_sum(n % 50); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  unsigned char code[64];
  for (int i = 0; i < 63; i++)
    code[i] = (unsigned char)((i * 7 + n) % 3);
  code[63] = 3;
  long acc = low_cases(n) + high_cases(n / 3) + out_of_range(n / 5);
  acc += generic_mix(n / 2) + vla_user(n);
  acc += (long)(folded_big(n) % 1000) + (long)folded_small(n);
  acc += odd_side(n % 60 + 10, 1) + even_side(n % 30, 2);
  for (int i = 0; i < n / 10; i++)
    acc += interp(code + i % 32, i);
  if (n > 500)
    acc += only_big(n);
  printf("%ld\n", acc);
  return 0;
}
