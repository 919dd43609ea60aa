/* Second of the fourth pair: wide() has one case more, route() calls
 * directly, hook() is strong, sometimes() runs, fact() is iterative, and
 * echo() and the static helper() match the first program's. */
#include <stdio.h>

#define C5(b) case b: r += b; break; case b + 1: r -= 1; break; case b + 2: r *= 2; break; \
  case b + 3: r ^= b; break; case b + 4: r = r % 97; break;

int wide(int v) {
  int r = v;
  switch (v % 41) {
    C5(0) C5(5) C5(10) C5(15) C5(20) C5(25) C5(30) C5(35)
  case 40: r = 0; break;
  }
  return r;
}

static int twice(int x) { return 2 * x; }
int route(int x) {
  if (x > 4)
    return twice(x);
  return x;
}

int hook(int x) { return x - 1; }
int sometimes(int x) { return x > 2 ? x : -x; }
static int helper(int x) { return x % 3; }
int echo(int x) { return x < 5 ? x : 5; }
int fact(int n) {
  int r = 1;
  for (int i = 2; i <= n; i++)
    r *= i;
  return r;
}

int main(void) {
  int acc = 0;
  for (int i = 0; i < 45; i++)
    acc += wide(i * 5) + route(i % 7) + hook(i) + sometimes(i) + helper(i) + echo(i);
  acc += fact(7);
  printf("%d\n", acc);
  return 0;
}
