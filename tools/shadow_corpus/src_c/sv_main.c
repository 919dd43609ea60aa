/* Program half of the third shared-library workload: its own static
 * mix() and fold(), a step function handed to the library, and a loop
 * that calls the library's asm-labelled function directly. */
#include <stdio.h>

typedef long (*step_fn)(long);
long lib_run(step_fn f, int n);
long lib_odd(long x) __asm__("lib.odd");

static long mix(long x) { return x + 17; }
static long fold(long x) { return x < 0 ? -x : x; }
long step(long x) { return fold(mix(x)) * 3; }

int main(void) {
  long acc = lib_run(step, 41);
  for (int i = 0; i < 9; i++)
    acc += lib_odd(i) + fold(i - 4);
  printf("%ld\n", acc);
  return 0;
}
