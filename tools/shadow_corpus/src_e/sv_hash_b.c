/* Second of the fifth pair: spread() has five branches, mix() uses nested
 * ifs instead of a loop, table_call() makes one indirect call, only_b()
 * exists only here, twin() matches, and loner() is global here. */
#include <stdio.h>

int spread(int x) {
  int r = 0;
  if (x & 1) r += 1;
  if (x & 2) r += 2;
  if (x & 4) r += 4;
  if (x & 8) r += 8;
  if (x & 16) r += 16;
  return r;
}

int mix(int x) {
  int r = 0;
  if (x % 4 > 1) {
    if (x % 4 > 2)
      r += 3;
  }
  return r;
}

static int inc(int x) { return x + 1; }
int (*volatile fa)(int) = inc;
int table_call(int x) { return fa(x) * 2; }

int only_b(int x) { return x * 11; }
int twin(int x) { return x > 3 ? x - 3 : 3 - x; }
int loner(int x) { return x % 7; }

int main(void) {
  int acc = 0;
  for (int i = 0; i < 70; i++)
    acc += spread(i) + mix(i) + table_call(i) + twin(i) + loner(i);
  acc += only_b(acc & 7);
  printf("%d\n", acc);
  return 0;
}
