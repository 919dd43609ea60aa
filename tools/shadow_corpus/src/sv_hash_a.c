/* One of two programs with the same function names and different bodies. */
#include <stdio.h>
int shared_fn(int x) {
  if (x > 3)
    return x * 2;
  return x;
}
int only_a(int x) { return x + 1; }
int main(void) {
  int acc = 0;
  for (int i = 0; i < 9; i++)
    acc += shared_fn(i) + only_a(i);
  printf("%d\n", acc);
  return 0;
}
