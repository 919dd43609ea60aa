/* Test program for raw-profile correlation (see make_golden.sh). */
#include <stdio.h>
#include <stdlib.h>

static int __attribute__((noinline)) square(int x) { return x * x; }

int __attribute__((noinline)) never_called(int x) { return x ? x + 1 : 0; }

int __attribute__((noinline)) accumulate(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i % 3)
      s += square(i);
    else
      s -= i;
  }
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  printf("%d\n", accumulate(n) + (n > 100 ? never_called(n) : 0));
  return 0;
}
