/* Second of two programs sharing function names: combine() is a single
 * branch here, reduce() has a nested loop, stable() is unchanged. */
#include <stdio.h>

int combine(int x, int y) {
  if (x > y)
    return x;
  return y;
}

int stable(int x) { return x > 4 ? x - 4 : 4 - x; }

int reduce(int n) {
  int r = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i % 4; j++)
      r += combine(i, j) + (j ? 1 : 2);
  return r;
}

int only_in_b(int x) { return x / 2; }

int main(void) {
  int acc = reduce(18) + only_in_b(40);
  for (int i = 0; i < 7; i++)
    acc += stable(i * 2);
  printf("%d\n", acc);
  return 0;
}
