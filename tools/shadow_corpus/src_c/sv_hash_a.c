/* First of the third pair of programs sharing names: walk() has a loop
 * here and straight-line code in the other program; same() is identical;
 * the two programs' twin() have the same control flow but different
 * constants (so the same hash). */
#include <stdio.h>

int walk(int n) {
  int r = 0;
  for (int i = 0; i < n; i++)
    if (i & 1)
      r += i;
  return r;
}

int same(int x) { return x < 3 ? 1 : x - 2; }
int twin(int x) { return x > 10 ? x * 2 : x + 5; }
int solo_a(int x) { return x * x; }

int main(void) {
  int acc = walk(30) + solo_a(4);
  for (int i = 0; i < 20; i++)
    acc += same(i) + twin(i);
  printf("%d\n", acc);
  return 0;
}
