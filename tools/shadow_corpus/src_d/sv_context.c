/* Fourth context-sensitive PGO workload: an inline helper with a 48-case
 * switch (many counters) inlined into three callers that reach disjoint
 * case ranges, a varargs function (never inlined) called from two contexts,
 * an inline helper that calls setjmp-guarded code with longjmp on a rare
 * path, recursion through an inline helper, and a caller that only runs
 * when COUNT exceeds 500 (so it has counts in the first stage and none in
 * the context-sensitive stage).  argv: COUNT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define C4(b) case b: r += b; break; case b + 1: r -= b; break; \
  case b + 2: r ^= b; break; case b + 3: r = r * 3 + b; break;

static inline long wide(int v, long r) {
  switch (v % 48) {
    C4(0) C4(4) C4(8) C4(12) C4(16) C4(20) C4(24) C4(28) C4(32) C4(36) C4(40) C4(44)
  default: r = -r;
  }
  return r;
}

__attribute__((noinline)) long low_cases(int n) {
  long r = 0;
  for (int i = 0; i < n; i++)
    r = wide(i % 12, r) % 100003;
  return r;
}

__attribute__((noinline)) long high_cases(int n) {
  long r = 1;
  for (int i = 0; i < n; i++)
    r = wide(36 + i % 12, r) % 100003;
  return r;
}

__attribute__((noinline)) long mid_cases(int n) {
  long r = 2;
  for (int i = 0; i < n; i++)
    r = wide(16 + (i * 5) % 16, r) % 100003;
  return r;
}

long vsum(int count, ...) {
  va_list ap;
  long acc = 0;
  va_start(ap, count);
  for (int i = 0; i < count; i++) {
    int v = va_arg(ap, int);
    acc += v > 10 ? v - 10 : v;
  }
  va_end(ap);
  return acc;
}

static jmp_buf escape;
static inline long guarded_step(int v) {
  if (v % 97 == 96)
    longjmp(escape, v);
  return v & 3 ? v * 2 : v / 2;
}

__attribute__((noinline)) long with_escape(int n) {
  volatile long acc = 0;
  volatile int i = 0;
  int code = setjmp(escape);
  if (code)
    acc += code, i++;
  for (; i < n; i++)
    acc += guarded_step(i);
  return acc;
}

static inline int depth_helper(int d) { return d <= 0 ? 1 : d % 2 ? d : d / 2; }
__attribute__((noinline)) int descend(int d) {
  if (d <= 0)
    return 0;
  return depth_helper(d) + descend(d - 1 - (d % 3 == 0));
}

__attribute__((noinline)) long only_big(int n) {
  return wide(n % 48, n) + vsum(2, n, n / 2);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long acc = low_cases(n) + high_cases(n / 2) + mid_cases(n / 3);
  acc += vsum(3, n, 4, 20) + vsum(5, 1, 2, 3, 40, n % 50);
  acc += with_escape(n);
  acc += descend(n % 60);
  if (n > 500)
    acc += only_big(n);
  printf("%ld\n", acc);
  return 0;
}
