/* Second MC/DC workload: several decisions per function, decisions in
 * loop conditions and ternaries, a nested decision, one of eight
 * conditions (beyond clang 19's limit of six) and a function no run calls.
 * argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

int triple(int a, int b, int c) {
  int r = 0;
  if (a > 0 && b > 0)
    r += 1;
  if (a > 0 || c > 0)
    r += 2;
  r += (b && c) ? 4 : 0;
  if ((a || b) && (c || r > 5))
    r += 8;
  return r;
}

int scan(const int *v, int n, int limit) {
  int i = 0, s = 0;
  while (i < n && v[i] != 0 && s < limit) {
    s += v[i];
    i++;
  }
  return s;
}

int wide(int m) {
  int b0 = m & 1, b1 = m & 2, b2 = m & 4, b3 = m & 8;
  int b4 = m & 16, b5 = m & 32, b6 = m & 64, b7 = m & 128;
  if ((b0 || b1) && (b2 || b3) && (b4 || b5) && (b6 || b7))
    return 1;
  if (b0 && b1 && b2 && b3 && b4)
    return 2;
  return 0;
}

int nested(int x, int y) {
  if (x > 3 && (y < 2 || y > 9)) {
    if (x % 2 == 0 || y % 3 == 0)
      return 5;
    return 6;
  }
  return x > 0 && y > 0 ? 7 : 8;
}

int unreached(int p, int q, int r) {
  if ((p && q) || (q && r) || (p && r))
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  int acc = 0;
  int v[8] = {3, 1, 4, 1, 5, 0, 2, 6};
  for (int i = 0; i < n; i++) {
    acc += triple(i % 3 - 1, i % 2, i % 5 == 0);
    acc += scan(v, i % 9, 7 + i);
    acc += wide(i * 37 % 256);
    acc += nested(i % 7, i % 11);
  }
  if (n > 1000)
    acc += unreached(n, acc, 1);
  printf("%d\n", acc);
  return 0;
}
