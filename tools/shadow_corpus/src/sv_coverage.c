/* Coverage workload: branches, loops, switch, macros, short circuits,
 * ternaries and code no run reaches. */
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x) ((x) > 2 ? 1 : 0)
#define TWICE(s) do { s; s; } while (0)

static int classify(int v) {
  switch (v % 6) {
  case 0: return 10;
  case 1:
  case 2: return 20;
  case 5: return v > 30 ? 50 : 5;
  default: break;
  }
  return -1;
}

int gate(int a, int b, int c, int d) {
  if ((a > 0 && b > 0) || (c > 0 && !d))
    return 1;
  if (a == b || (c < 0 && d > 1 && a < 5))
    return 2;
  return 0;
}

int walk(int n) {
  int acc = 0, i = 0;
  while (i < n) {
    if (i % 3 == 0)
      goto skip;
    acc += CHECK(i);
  skip:
    i++;
  }
  for (int j = n; j > 0; j -= 2)
    acc += j & 1 ? 1 : 2;
  return acc;
}

int unused(int x) {
  if (x)
    return x * 2;
  return -x;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  int acc = 0;
  for (int i = 0; i < n * 4; i++)
    acc += classify(i) + gate(i % 3 - 1, i % 2, n - i, i & 1);
  TWICE(acc += walk(n + 2));
  if (n > 100)
    acc += unused(n);
  printf("%d\n", acc);
  return 0;
}
