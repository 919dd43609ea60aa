/* Fifth temporal workload: 300 small generated functions (a third static),
 * each run calls a prefix of them whose length depends on the digits of
 * argv[1], in an order given by rotating and striding the table by a hash
 * of argv[1] (so orders of different runs overlap only partly), some are
 * called twice at distant positions, and a second argument adds a block of
 * otherwise cold functions at the start.  argv: DIGITS [X]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FS(i) __attribute__((noinline)) static int g##i(int x) { return x + i; }
#define FG(i) __attribute__((noinline)) int g##i(int x) { return (x * 3) ^ i; }
#define FH(i) __attribute__((noinline)) int g##i(int x) { return x - i / 2; }
#define FP(a) FS(a##0) FG(a##1) FH(a##2) FS(a##3) FG(a##4) FH(a##5) FS(a##6) FG(a##7) FH(a##8) FS(a##9)
#define FL(a) g##a##0, g##a##1, g##a##2, g##a##3, g##a##4, g##a##5, g##a##6, g##a##7, g##a##8, g##a##9
FP(100) FP(101) FP(102) FP(103) FP(104) FP(105) FP(106) FP(107) FP(108) FP(109)
FP(110) FP(111) FP(112) FP(113) FP(114) FP(115) FP(116) FP(117) FP(118) FP(119)
FP(120) FP(121) FP(122) FP(123) FP(124) FP(125) FP(126) FP(127) FP(128) FP(129)

typedef int (*fn)(int);
static fn all[300] = {FL(100), FL(101), FL(102), FL(103), FL(104), FL(105), FL(106), FL(107),
                      FL(108), FL(109), FL(110), FL(111), FL(112), FL(113), FL(114), FL(115),
                      FL(116), FL(117), FL(118), FL(119), FL(120), FL(121), FL(122), FL(123),
                      FL(124), FL(125), FL(126), FL(127), FL(128), FL(129)};

__attribute__((noinline)) int cold_block(int x) {
  for (int i = 290; i < 300; i++)
    x = all[i](x) % 1000003;
  return x;
}

int main(int argc, char **argv) {
  const char *digits = argc > 1 ? argv[1] : "0";
  unsigned h = 5381;
  int sum = 0;
  for (const char *p = digits; *p; p++) {
    h = h * 33 + (unsigned char)*p;
    sum += *p - '0';
  }
  int len = (int)strlen(digits);
  int count = 40 + len * 45 + sum * 3;
  if (count > 290)
    count = 290;
  int start = (int)(h % 290), stride = 1 + (int)((h >> 5) % 7) * 2;
  while (290 % stride == 0 || stride % 29 == 0)
    stride += 2;
  int acc = 0;
  if (argc > 2)
    acc = cold_block(acc);
  for (int i = 0; i < count; i++) {
    int k = (start + i * stride) % 290;
    acc = all[k](acc) % 1000003;
    if (i % 37 == 36)
      acc = all[(start + (i / 2) * stride) % 290](acc) % 1000003;
  }
  printf("%d\n", acc);
  return 0;
}
