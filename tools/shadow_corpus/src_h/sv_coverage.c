/* Eighth set: coverage of a switch with fallthrough, goto, a macro condition,
 * short-circuit operators in a loop and a function never called. */
#include <stdio.h>
#include <stdlib.h>
#define CHECK(x) ((x) > 3 && (x) < 90)
static int parse_digit(char c) { if (c >= '0' && c <= '9') return c - '0'; else if (c == 'x') return 10; return -1; }
int score(int v) {
  int s = 0;
  switch (v % 6) {
  case 0: s += 1; break;
  case 1: case 2: s += v > 10 ? 2 : 3; break;
  case 3: if (CHECK(v)) { s += 5; } else { goto out; } break;
  default: s -= 1;
  }
  for (int i = 0; i < v % 4; i++) s += i || v;
  while (s > 100) s /= 2;
out:
  return s;
}
int never_called(int a) { return a * 3; }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  int t = 0;
  for (int i = 0; i < n; i++) t += score(i * 7) + parse_digit((char)('0' + i % 12));
  if (n > 1000) t += never_called(t);
  printf("%d\n", t);
  return 0;
}
