/* Third temporal workload: phases dispatched by the digits of argv[1]
 * through a switch (not a table), a phase that recurses, helpers that are
 * first reached from different phases in different runs, a static
 * function, and a cold phase only a fourth argument reaches. */
#include <stdio.h>
#include <stdlib.h>

static int seen;

__attribute__((noinline)) static int shared_a(int x) { return x + 3; }
__attribute__((noinline)) int shared_b(int x) { return x * 5 % 101; }
__attribute__((noinline)) int shared_c(int x) { return x ^ 9; }

__attribute__((noinline)) int step_zero(int x) { return shared_a(x); }
__attribute__((noinline)) int step_one(int x) { return shared_b(shared_c(x)); }
__attribute__((noinline)) int step_two(int x) { return x > 2 ? step_two(x / 2) + 1 : shared_a(x); }
__attribute__((noinline)) int step_three(int x) { return shared_c(x) + shared_b(x); }
__attribute__((noinline)) int step_four(int x) { return x - 4; }
__attribute__((noinline)) int step_cold(int x) { return shared_a(shared_b(x)); }

int main(int argc, char **argv) {
  const char *order = argc > 1 ? argv[1] : "";
  int acc = 1;
  for (const char *p = order; *p; p++) {
    switch (*p) {
    case '0': acc = step_zero(acc); break;
    case '1': acc = step_one(acc); break;
    case '2': acc = step_two(acc + 40); break;
    case '3': acc = step_three(acc); break;
    case '4': acc = step_four(acc); break;
    default: seen++; break;
    }
  }
  if (argc > 3)
    acc += step_cold(acc);
  printf("%d %d\n", acc, seen);
  return 0;
}
