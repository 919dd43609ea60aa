/* First of the fifth pair of programs sharing names: spread() has three
 * if-branches here and five there (different counter counts), mix() has the
 * same counter count but a different CFG shape (loop here, nested ifs
 * there), table_call() makes two indirect calls here and one there,
 * only_a() exists only here, twin() is identical in both, and loner() is
 * static here and global there. */
#include <stdio.h>

int spread(int x) {
  int r = 0;
  if (x & 1) r += 1;
  if (x & 2) r += 2;
  if (x & 4) r += 4;
  return r;
}

int mix(int x) {
  int r = 0;
  for (int i = 0; i < x % 4; i++)
    r += i;
  return r;
}

static int inc(int x) { return x + 1; }
static int dec(int x) { return x - 1; }
int (*volatile fa)(int) = inc;
int (*volatile fb)(int) = dec;
int table_call(int x) { return fa(x) + fb(x); }

int only_a(int x) { return x * 9; }
int twin(int x) { return x > 3 ? x - 3 : 3 - x; }
static int loner(int x) { return x % 7; }

int main(void) {
  int acc = 0;
  for (int i = 0; i < 50; i++)
    acc += spread(i) + mix(i) + table_call(i) + twin(i) + loner(i);
  acc += only_a(acc & 7);
  printf("%d\n", acc);
  return 0;
}
