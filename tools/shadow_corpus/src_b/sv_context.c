/* Second context-sensitive PGO workload: a chain of inlined helpers
 * (bucket -> weigh -> small_values) reached from three callers with
 * different value ranges, a switch in the innermost helper, and a
 * recursive caller that is not inlined.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

int small_values(int v) {
  switch (v & 7) {
  case 0: return 1;
  case 1: case 2: return v;
  case 5: return -v;
  default: return v > 64 ? 3 : 2;
  }
}

static inline int weigh(int v, int scale) {
  int w = small_values(v);
  if (w < 0)
    return -w * scale;
  return w + scale;
}

static inline int bucket(int v) {
  if (v < 16)
    return weigh(v, 1);
  if (v < 256)
    return weigh(v >> 2, 4);
  return weigh(v >> 6, 16);
}

__attribute__((noinline)) long tiny_inputs(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += bucket(i % 12);
  return acc;
}

__attribute__((noinline)) long medium_inputs(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += bucket(16 + (i * 37) % 240);
  return acc;
}

__attribute__((noinline)) long huge_inputs(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += bucket(300 + i * 101);
  return acc;
}

__attribute__((noinline)) long walk_down(int depth, int v) {
  if (depth == 0)
    return bucket(v);
  return weigh(v + depth, depth & 3) + walk_down(depth - 1, v * 3 % 1000);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long acc = tiny_inputs(n) + medium_inputs(n / 2) + huge_inputs(n / 5);
  acc += walk_down(n % 50 + 10, n);
  printf("%ld\n", acc);
  return 0;
}
