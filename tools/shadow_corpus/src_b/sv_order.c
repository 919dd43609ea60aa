/* Second temporal workload: a start-up constructor, an atexit handler, and
 * for each digit of argv[1] a phase that first calls helpers shared with
 * other phases, so traces are longer than the digit string and share
 * functions.  A phase repeated in the string keeps its first timestamp. */
#include <stdio.h>
#include <stdlib.h>

static int state;

__attribute__((noinline)) void init_tables(void) { state = 11; }
__attribute__((constructor)) static void early_setup(void) { init_tables(); }
__attribute__((noinline)) static void at_exit_report(void) { state ^= 1; }

__attribute__((noinline)) int util_hash(int x) { return x * 31 + 7; }
__attribute__((noinline)) int util_trim(int x) { return x & 0xfff; }
__attribute__((noinline)) int util_log(int x) { return x > 100 ? x / 10 : x; }

__attribute__((noinline)) int phase_open(int x) { return util_hash(x) + 1; }
__attribute__((noinline)) int phase_read(int x) { return util_trim(util_hash(x)); }
__attribute__((noinline)) int phase_sort(int x) { return util_log(x) * 3; }
__attribute__((noinline)) int phase_write(int x) { return util_trim(x) ^ util_log(x); }
__attribute__((noinline)) int phase_close(int x) { return x - 1; }
__attribute__((noinline)) int phase_unused(int x) { return util_hash(x) * 2; }

typedef int (*phase_fn)(int);

int main(int argc, char **argv) {
  static const phase_fn phases[] = {phase_open, phase_read, phase_sort, phase_write,
                                    phase_close};
  const char *order = argc > 1 ? argv[1] : "";
  atexit(at_exit_report);
  int acc = state;
  for (const char *p = order; *p; p++) {
    unsigned k = (unsigned)(*p - '0');
    if (k < 5)
      acc = phases[k](acc);
  }
  if (argc > 3)
    acc += phase_unused(acc);
  printf("%d\n", acc);
  return 0;
}
