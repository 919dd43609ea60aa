/* Fifth MC/DC workload: decisions with 7, 8 and 10 conditions (beyond the
 * six-condition limit of older releases), mixed && / || with deep
 * parentheses, a switch inside a statement expression inside a decision,
 * decisions inside the cases of a switch, a decision whose conditions are
 * macro-expanded bit tests, a 7-condition decision in a loop condition, and
 * a wide decision no run calls.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

#define B(v, i) (((v) >> (i)) & 1)

int seven(int v) {
  if (B(v, 0) && B(v, 1) && B(v, 2) && B(v, 3) && B(v, 4) && B(v, 5) && B(v, 6))
    return 1;
  return 0;
}

int eight(int v) {
  if ((B(v, 0) || B(v, 1)) && (B(v, 2) || B(v, 3)) && (B(v, 4) || B(v, 5)) && (B(v, 6) || B(v, 7)))
    return 2;
  return 0;
}

int ten(int a, int b) {
  return (a > 1 && b > 1) || (a > 2 && b < 9) || (a == 5 || b == 5) ||
         ((a & 1) && (b & 1) && a != b) || (a + b == 13);
}

int switch_in_cond(int a, int v) {
  if (a && ({ int t; switch (v & 3) { case 0: t = 0; break; case 1: t = 1; break;
                  default: t = v > 6; } t; }) && v < 14)
    return 4;
  return 0;
}

int cases(int k, int a, int b, int c) {
  int r = 0;
  switch (k % 4) {
  case 0:
    if (a && (b || c)) r += 1;
    break;
  case 1:
    if ((a || b) && !c) r += 2;
    /* fall through */
  case 2:
    r += (a && b && c) ? 3 : 4;
    break;
  default:
    if (a || b || c || k > 10) r += 5;
  }
  return r;
}

int loop7(int v) {
  int i = 0;
  while (i < 8 && v > 0 && (v & 1 || v & 2) && i != 5 && v != 77 && (i < 7 || v > 3))
    v >>= 1, i++;
  return i;
}

int unreached_wide(int a, int b, int c, int d, int e, int f, int g, int h) {
  return (a && b) || (c && d) || (e && f) || (g && h) || (a && h);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  int acc = 0;
  for (int i = 0; i < n * 16; i++) {
    acc += seven(i * 37 % 256) + eight(i * 11 % 256);
    acc += ten(i % 7, i % 11);
    acc += switch_in_cond(i & 1, i % 16);
    acc += cases(i, i & 1, i & 2, i & 4);
    acc += loop7(i * 13);
  }
  if (n > 999)
    acc += unreached_wide(n, acc, 1, 0, 1, 1, 0, 1);
  printf("%d\n", acc);
  return 0;
}
