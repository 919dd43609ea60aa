/* Third context-sensitive PGO workload: a four-deep chain of inline
 * helpers (outer -> middle -> inner -> leaf) entered from callers with
 * disjoint value ranges, a helper inlined into itself through a loop,
 * a function called through a pointer, and a cold caller.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

int leaf(int v) {
  if (v % 3 == 0)
    return v / 3;
  if (v % 5 == 0)
    return v * 2;
  return v + 1;
}

static inline int inner(int v) {
  int s = 0;
  for (int i = 0; i < (v & 3); i++)
    s += leaf(v + i);
  return s ? s : leaf(v);
}

static inline int middle(int v, int k) { return k > 0 ? inner(v) + inner(v >> k) : inner(-v); }

static inline int outer(int v) { return v < 100 ? middle(v, 1) : middle(v, v % 7); }

__attribute__((noinline)) long low_range(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += outer(i % 50);
  return acc;
}

__attribute__((noinline)) long high_range(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += outer(1000 + i * 13);
  return acc;
}

__attribute__((noinline)) long negative_range(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += middle(i, 0);
  return acc;
}

typedef long (*range_fn)(int);

__attribute__((noinline)) long cold_caller(int n) { return outer(n) + leaf(n); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  static const range_fn fns[] = {low_range, high_range, negative_range};
  long acc = 0;
  for (int k = 0; k < 3; k++)
    acc += fns[k](n / (k + 1));
  if (n > 100000)
    acc += cold_caller(n);
  printf("%ld\n", acc);
  return 0;
}
