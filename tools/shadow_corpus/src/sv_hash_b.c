/* The other program: shared_fn has another control flow (another hash). */
#include <stdio.h>
int shared_fn(int x) {
  int r = 0;
  for (int i = 0; i < x; i++)
    if (i % 2)
      r += i;
  return r;
}
int only_b(int x) { return x - 1; }
int main(void) {
  int acc = 0;
  for (int i = 0; i < 7; i++)
    acc += shared_fn(i) + only_b(i);
  printf("%d\n", acc);
  return 0;
}
