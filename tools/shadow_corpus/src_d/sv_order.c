/* Fourth temporal workload: 160 generated functions (half static), of which
 * each run calls a number that grows with the length of argv[1] (more than
 * the default trace length of 100 for five digits) in an order shuffled by
 * a hash of argv[1]; some are called again later, one recursive function
 * and a varargs one are reached from different positions, and a block of
 * functions is only reached with a second argument.  argv: DIGITS [X]. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FS(i) __attribute__((noinline)) static int f##i(int x) { return x * 3 + i; }
#define FG(i) __attribute__((noinline)) int f##i(int x) { return (x ^ i) - 1; }
#define FP(a) FS(a##0) FG(a##1) FS(a##2) FG(a##3) FS(a##4) FG(a##5) FS(a##6) FG(a##7) FS(a##8) FG(a##9)
#define FL(a) f##a##0, f##a##1, f##a##2, f##a##3, f##a##4, f##a##5, f##a##6, f##a##7, f##a##8, f##a##9
FP(10) FP(11) FP(12) FP(13) FP(14) FP(15) FP(16) FP(17)
FP(18) FP(19) FP(20) FP(21) FP(22) FP(23) FP(24) FP(25)

typedef int (*fn)(int);
static fn all[160] = {FL(10), FL(11), FL(12), FL(13), FL(14), FL(15), FL(16), FL(17),
                      FL(18), FL(19), FL(20), FL(21), FL(22), FL(23), FL(24), FL(25)};

__attribute__((noinline)) int climb(int d) { return d <= 0 ? 0 : 1 + climb(d - 1); }

__attribute__((noinline)) int tally(int n, ...) {
  va_list ap;
  int acc = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    acc += va_arg(ap, int);
  va_end(ap);
  return acc;
}

__attribute__((noinline)) int cold_a(int x) { return x - 100; }
__attribute__((noinline)) int cold_b(int x) { return x + 100; }

int main(int argc, char **argv) {
  const char *digits = argc > 1 ? argv[1] : "0";
  unsigned h = 2166136261u;
  for (const char *p = digits; *p; p++)
    h = (h ^ (unsigned char)*p) * 16777619u;
  int len = (int)strlen(digits);
  int count = len * 28 + (int)(h % 20);
  if (count > 160)
    count = 160;
  int order[160];
  for (int i = 0; i < 160; i++)
    order[i] = i;
  for (int i = 159; i > 0; i--) {
    h = h * 1103515245u + 12345u;
    int j = (int)((h >> 8) % (unsigned)(i + 1));
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  int acc = 0;
  for (int i = 0; i < count; i++) {
    acc = all[order[i]](acc) % 1000003;
    if (i == count / 2)
      acc += climb(len + 3);
    if (i == count / 3)
      acc += tally(3, acc, i, len);
  }
  for (int i = 0; i < count; i += 7)
    acc = all[order[i]](acc) % 1000003;
  if (argc > 2)
    acc = cold_a(acc) + cold_b(acc);
  printf("%d\n", acc);
  return 0;
}
