/* Program half of the fourth shared-library workload: overrides the
 * library's weak lib_policy(), bounces recursion through the library,
 * calls library functions through pointers the library hands out (targets
 * in another module), and calls the varargs entry point. */
#include <stdio.h>

typedef int (*lib_fn)(int);
int lib_grid(int n);
int lib_sum(int n, ...);
int lib_bounce(int d);
lib_fn lib_get(int k);

int lib_policy(int x) { return x & 7; }
int main_bounce(int d) { return d <= 0 ? 0 : 2 + lib_bounce(d - 1); }

static int run_table(int n) {
  int acc = 0;
  for (int i = 0; i < n; i++)
    acc += lib_get(i * 5 % 7)(i);
  return acc;
}

int main(void) {
  int acc = lib_grid(23) + lib_bounce(9) + run_table(40);
  acc += lib_sum(4, 1, 2, 3, acc & 15) + lib_sum(0);
  printf("%d\n", acc);
  return 0;
}
