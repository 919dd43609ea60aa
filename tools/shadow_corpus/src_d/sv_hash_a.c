/* First of the fourth pair of programs sharing names: wide() has a 40-case
 * switch here and 41 cases in the other program; route() calls through a
 * pointer here and directly there (same branches, a value site more);
 * hook() is weak here; sometimes() is never called here but is in the
 * other; helper() is static in both; echo() is identical in both. */
#include <stdio.h>

#define C5(b) case b: r += b; break; case b + 1: r -= 1; break; case b + 2: r *= 2; break; \
  case b + 3: r ^= b; break; case b + 4: r = r % 97; break;

int wide(int v) {
  int r = v;
  switch (v % 40) {
    C5(0) C5(5) C5(10) C5(15) C5(20) C5(25) C5(30) C5(35)
  }
  return r;
}

static int twice(int x) { return 2 * x; }
int (*volatile via)(int) = twice;
int route(int x) {
  if (x > 4)
    return via(x);
  return x;
}

__attribute__((weak)) int hook(int x) { return x + 1; }
int sometimes(int x) { return x > 2 ? x : -x; }
static int helper(int x) { return x % 3; }
int echo(int x) { return x < 5 ? x : 5; }
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

int main(void) {
  int acc = 0;
  for (int i = 0; i < 60; i++)
    acc += wide(i * 3) + route(i % 9) + hook(i) + helper(i) + echo(i);
  acc += fact(6);
  printf("%d\n", acc);
  return 0;
}
