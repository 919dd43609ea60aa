/* Third coverage workload: code attributed to another file through #line
 * (a "header" with its own functions), goto, a switch over an enum with a
 * default, while loops with early return, a function-like macro used in a
 * condition, an unused function in the "header", short-circuit operators
 * outside conditions, and a label reached only by goto.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

#line 1 "sv_helpers.h"
static int clamp(int v, int lo, int hi) {
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}
static int helper_unused(int v) { return v ? clamp(v, 0, 9) : -1; }
#line 20 "sv_coverage.c"

enum colour { RED, GREEN, BLUE, GREY };
#define IS_EVEN(x) (((x) & 1) == 0)

static const char *name_of(enum colour c) {
  switch (c) {
  case RED: return "red";
  case GREEN: return "green";
  default: return "other";
  }
}

int find_first(const int *v, int n, int want) {
  int i = 0;
  while (i < n) {
    if (v[i] == want)
      return i;
    i++;
  }
  return -1;
}

int retry(int n) {
  int tries = 0;
again:
  tries++;
  if (tries < n && !IS_EVEN(tries + n))
    goto again;
  if (tries > 100)
    goto give_up;
  return tries;
give_up:
  return -1;
}

int logic(int a, int b) {
  int both = a && b;
  int either = a || b;
  return both * 2 + either;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  int v[] = {4, 8, 15, 16, 23, 42};
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += find_first(v, 6, i * 4);
    acc += clamp(i * 7 - 10, 0, 20);
    acc += (int)name_of((enum colour)(i % 4))[0];
    acc += logic(i & 1, i & 2);
  }
  acc += retry(n);
  if (n < 0)
    acc += helper_unused(n);
  printf("%d\n", acc);
  return 0;
}
