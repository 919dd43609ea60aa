/* Seventh MC/DC workload: one function with forty decisions (a large
 * bitmap), decisions of 7, 12 and 16 conditions (beyond clang 19's limit of
 * six, which then leaves them out; clang 22 keeps them), decisions whose
 * conditions call functions that hold decisions of their own, decisions in
 * GNU statement expressions, after comma operators and under several
 * negations, decisions in switch cases and in a recursive function, a
 * decision with a constant condition in the middle, a main that returns
 * early for COUNT 5, and decisions no run reaches.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

static int bit(unsigned v, int k) { return (v >> k) & 1; }

int triple(int a, int b, int c) {
  if ((a > 0 && b > 0) || c > 0)
    return 1;
  if (!(!(a || b)) && !c)
    return 2;
  return (a && b && c) ? 3 : 4;
}

static int is_small(int x) { return x >= 0 && x < 10; }
static int is_even(int x) { return x % 2 == 0 || x == 7; }
int calls_in_conditions(int x, int y) {
  if ((is_small(x) && is_even(y)) || (is_small(y) && !is_even(x)))
    return 1;
  return 0;
}

int seven(unsigned v) {
  return bit(v, 0) && (bit(v, 1) || bit(v, 2)) && bit(v, 3) && (bit(v, 4) || bit(v, 5) || bit(v, 6));
}

int twelve(unsigned v) {
  if ((bit(v, 0) || bit(v, 1)) && (bit(v, 2) || bit(v, 3)) && (bit(v, 4) || bit(v, 5)) &&
      (bit(v, 6) || bit(v, 7)) && (bit(v, 8) || bit(v, 9)) && (bit(v, 10) || bit(v, 11)))
    return 1;
  return 0;
}

int sixteen(unsigned v) {
  int r = 0;
  while ((bit(v, 0) && bit(v, 1)) || (bit(v, 2) && bit(v, 3)) || (bit(v, 4) && bit(v, 5)) ||
         (bit(v, 6) && bit(v, 7)) || (bit(v, 8) && bit(v, 9)) || (bit(v, 10) && bit(v, 11)) ||
         (bit(v, 12) && bit(v, 13)) || (bit(v, 14) && bit(v, 15))) {
    v >>= 2;
    r++;
  }
  return r;
}

#define D(k) r += (bit(v, k) && bit(v, k + 1)) || bit(v, k + 2) ? 1 : 0;
#define D5(k) D(k) D(k + 1) D(k + 2) D(k + 3) D(k + 4)
int forty(unsigned v) {
  int r = 0;
  D5(0) D5(1) D5(2) D5(3) D5(4) D5(5) D5(6) D5(7)
  return r;
}

int statement_expr(int x) {
  int r = ({ int t = x * 3; t > 10 && t < 40; }) ? 1 : 0;
  if ((r = x % 4, r == 1) || (x > 20 && r != 3))
    r += 10;
  return r;
}

int constant_middle(int a, int b) {
  if (a && (sizeof(long) >= 4) && b)
    return 1;
  if (a || 0 || b)
    return 2;
  return 3;
}

int in_switch(int k, int a, int b) {
  switch (k % 4) {
  case 0: return a && b;
  case 1: return a || !b;
  case 2:
    if ((a || b) && k > 5)
      return 7;
    return 0;
  default: return (a && !b) || (!a && b);
  }
}

int recursive(int n, int a) {
  if (n <= 0 || (a > 50 && n % 2))
    return a;
  return recursive(n - 1, a + (n % 3 == 0 || n % 5 == 0 ? 7 : 1));
}

int never_run(int a, int b, int c, int d) {
  if ((a && b) || (c && d) || (a && d))
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += triple(i % 3 - 1, i % 2, i % 5 == 0);
    acc += calls_in_conditions(i, n - i);
    acc += seven((unsigned)(i * 37));
  }
  if (n == 5) {
    printf("%d\n", acc);
    return 0;
  }
  for (int i = 0; i < n * 4; i++) {
    unsigned v = (unsigned)(i * 2654435761u) >> 7;
    acc += twelve(v) + sixteen(v) + forty(v);
    acc += statement_expr(i) + constant_middle(i & 1, i & 2) + in_switch(i, i & 4, i & 8);
  }
  acc += recursive(n, 3);
  if (n > 1000)
    acc += never_run(n, acc, 1, 0);
  printf("%d\n", acc);
  return 0;
}
