/* Eighth set: MC/DC decisions of 4 and 5 conditions, nested in a ternary. */
#include <stdio.h>
#include <stdlib.h>
int decide(int a, int b, int c, int d) {
  int r = 0;
  if ((a > 2 && b < 5) || (c == 1 && !d)) r += 1;
  if (a && b && c && d && (a + b > 3)) r += 2;
  if ((a || b) && (c || d)) r += 4;
  r += (a > b) ? ((c && d) ? 8 : 16) : 0;
  return r;
}
int gate(int x) { return (x & 1) && ((x & 2) || (x & 4)) && !(x & 8); }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8;
  int t = 0;
  for (int i = 0; i < n; i++) t += decide(i % 5, i % 3, i % 2, (i / 2) % 2) + gate(i);
  printf("%d\n", t);
  return 0;
}
