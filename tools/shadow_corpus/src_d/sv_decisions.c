/* Fourth MC/DC workload: nested decisions (a decision inside an argument of
 * a condition, inside a ternary's condition, inside a while condition),
 * decisions with constant conditions (true, false, sizeof, enum constants),
 * a condition repeated in one decision, decisions in return statements and
 * initialisers, many decisions in one function, a decision that only one
 * outcome ever reaches, and a function no run calls.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

enum { ON = 1, OFF = 0 };
#define FLAG_SET(v, b) (((v) >> (b)) & 1)

static int pick(int x) { return x > 2; }
static int truthy(int x) { return x != 0; }

int nested_arg(int a, int b, int c, int d) {
  if (a && pick((b || c) ? 3 : 0) && d)
    return 1;
  return 0;
}

int nested_call(int a, int b, int c, int d) {
  if (a && truthy(b || c) && (d || truthy(a && c)))
    return 1;
  return 0;
}

int nested_ternary(int a, int b, int c) {
  return ((a && b) ? (b || c) : (a || c)) && c;
}

int with_constants(int a, int b) {
  int r = 0;
  if (ON && a)
    r += 1;
  if (a || OFF)
    r += 2;
  if (sizeof(int) == 4 && b && a)
    r += 4;
  if (1 || a)
    r += 8;
  if (0 && b)
    r += 16;
  if (b && (ON || a) && !OFF)
    r += 32;
  return r;
}

int repeated(int a, int b) {
  if (a && b && a)
    return 1;
  if ((a || b) && (a || !b))
    return 2;
  return 3;
}

int loops(int n, int m) {
  int i = 0, acc = 0;
  while (i < n && (acc < 50 || (m && i % 2)))
    acc += i++;
  do
    acc--;
  while (acc > 0 && m && i--);
  return acc;
}

int many(int v) {
  int r = 0;
  int t = FLAG_SET(v, 0) && FLAG_SET(v, 1);
  r += t;
  r += (FLAG_SET(v, 2) || FLAG_SET(v, 3)) ? 1 : 2;
  if (FLAG_SET(v, 4) && !FLAG_SET(v, 0))
    r += 4;
  if ((v > 3 && v < 12) || v == 15)
    r += 8;
  if (v >= 0 || v < -100)
    r += 16;
  for (int k = 0; k < 3 && k < v; k++)
    r += k;
  return r;
}

int one_sided(int a, int b, int c) {
  if ((a >= 0 || b >= 0) && (c >= 0 || a < -5))
    return 1;
  return 0;
}

int never(int a, int b, int c) {
  if ((a && b) || (c && !a))
    return 1;
  return a && (b || c);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += nested_arg(i & 1, i & 2, i & 4, i & 8);
    acc += nested_call(i & 2, i & 1, i % 5 == 0, i & 4);
    acc += nested_ternary(i & 1, i & 2, i % 3 == 0);
    acc += with_constants(i & 1, i & 2);
    acc += repeated(i & 1, i & 4);
    acc += loops(i, i & 1);
    acc += many(i);
    acc += one_sided(i, i + 1, i * 2);
  }
  if (n > 999)
    acc += never(n, acc, n & 1);
  printf("%d\n", acc);
  return 0;
}
