/* MC/DC workload: decisions of two to six conditions. */
#include <stdio.h>
#include <stdlib.h>

int two(int a, int b) { return a && b; }
int three(int a, int b, int c) { return (a || b) && c; }
int four(int a, int b, int c, int d) {
  if ((a && b) || (c && d))
    return 1;
  return 0;
}
int six(int a, int b, int c, int d, int e, int f) {
  if (a && (b || c) && (d || (e && f)))
    return 1;
  return 0;
}
int never(int a, int b) {
  if (a || b)
    return 3;
  return 4;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += two(i & 1, i & 2);
    acc += three(i & 1, i & 4, i % 3 == 0);
    acc += four(i & 1, i & 2, i & 4, i & 8);
    acc += six(i & 1, i & 2, i & 4, i & 8, i & 16, i > 3);
  }
  if (n > 99)
    acc += never(n, acc);
  printf("%d\n", acc);
  return 0;
}
