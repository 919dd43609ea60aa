/* Program half of the second shared-library workload: hands the library
 * three callbacks, and has its own static helper() and its own tally(). */
#include <stdio.h>

typedef int (*visit_fn)(int);
int lib_walk(const visit_fn *fns, int nfns, int n);

static int helper(int x) { return x * 2; }
int tally(int x) { return x & 1 ? 1 : 2; }
int cb_square(int x) { return x * x; }
int cb_shift(int x) { return helper(x) - 3; }
static int cb_keep(int x) { return x; }

int main(void) {
  static const visit_fn fns[] = {cb_square, cb_shift, cb_keep};
  int acc = lib_walk(fns, 3, 29);
  for (int i = 0; i < 5; i++)
    acc += tally(i) + helper(i);
  printf("%d\n", acc);
  return 0;
}
