/* Third MC/DC workload: decisions of exactly six conditions (clang 19's
 * limit), a decision inside a macro, a decision whose conditions are
 * function calls, a for-loop condition with two conditions, a decision
 * with a constant-folded condition, and a function no run calls.
 * argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

static int positive(int x) { return x > 0; }
static int small(int x) { return x < 10; }

int six(int m) {
  if ((m & 1) && (m & 2) && ((m & 4) || (m & 8)) && ((m & 16) || (m & 32)))
    return 1;
  return 0;
}

int ranges(int x, int y) {
  if (IN_RANGE(x, 0, 9) || IN_RANGE(y, 100, 199))
    return 2;
  return 3;
}

int calls(int x) {
  if (positive(x) && small(x))
    return x;
  return positive(x) || small(-x) ? 1 : 0;
}

int looped(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n && s < 20; i++)
    s += v[i];
  return s;
}

int folded(int x) {
  if (x > 4 && sizeof(int) == 4)
    return 1;
  return 0;
}

int unused_decision(int a, int b, int c) {
  if (a && (b || c))
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  int v[6] = {5, 7, 1, 9, 2, 8};
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += six(i * 13 % 64);
    acc += ranges(i - 3, i * 20);
    acc += calls(i - 2);
    acc += looped(v, i % 7);
    acc += folded(i);
  }
  if (n > 100000)
    acc += unused_decision(n, acc, 1);
  printf("%d\n", acc);
  return 0;
}
