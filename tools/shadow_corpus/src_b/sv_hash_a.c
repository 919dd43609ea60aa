/* First of two programs sharing function names: combine() differs in
 * control flow (and counter count) from the other program's, stable() is
 * the same in both, and each has functions of its own. */
#include <stdio.h>

int combine(int x, int y) {
  switch (x % 4) {
  case 0: return x + y;
  case 1: return x - y;
  case 2: return x * y;
  default: return y;
  }
}

int stable(int x) { return x > 4 ? x - 4 : 4 - x; }

int reduce(int n) {
  int r = 0;
  for (int i = 0; i < n; i++)
    r += i % 3 ? combine(i, r) : stable(i);
  return r;
}

int only_in_a(int x) { return x * 5; }

int main(void) {
  int acc = reduce(25) + only_in_a(3);
  for (int i = 0; i < 12; i++)
    acc += stable(i);
  printf("%d\n", acc);
  return 0;
}
