/* Second of the third pair of programs sharing names: walk() is straight
 * line, twin() matches the first program's in shape, same() is the same. */
#include <stdio.h>

int walk(int n) { return n * 3 - 1; }
int same(int x) { return x < 3 ? 1 : x - 2; }
int twin(int x) { return x > 99 ? x * 7 : x + 1; }
int solo_b(int x) { return x - 9; }

int main(void) {
  int acc = walk(8) + solo_b(100);
  for (int i = 0; i < 33; i++)
    acc += same(i * 3) + twin(i * 11);
  printf("%d\n", acc);
  return 0;
}
