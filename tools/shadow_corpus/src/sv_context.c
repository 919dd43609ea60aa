/* Context-sensitive PGO workload: small helpers inlined into callers that
 * drive them with opposite biases. */
#include <stdio.h>
#include <stdlib.h>

static inline int clamp_step(int x, int lo, int hi) {
  if (x < lo)
    return lo;
  if (x > hi)
    return hi;
  return x;
}

static inline int score(int v, int bias) {
  int s = 0;
  for (int i = 0; i < 4; i++) {
    if ((v + i) % bias == 0)
      s += 3;
    else
      s -= 1;
  }
  return s;
}

__attribute__((noinline)) int mostly_low(int n) {
  int acc = 0;
  for (int i = 0; i < n; i++)
    acc += clamp_step(i % 50 - 45, 0, 10) + score(i, 2);
  return acc;
}

__attribute__((noinline)) int mostly_high(int n) {
  int acc = 0;
  for (int i = 0; i < n; i++)
    acc += clamp_step(i % 50 + 8, 0, 10) + score(i, 7);
  return acc;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  printf("%d\n", mostly_low(n) + mostly_high(n / 2));
  return 0;
}
