/* Shared-library half of the third shared-library workload: a library
 * with a constructor, a function reached through a pointer the executable
 * passes back, static functions with the names the executable uses for
 * its own statics, and an asm-labelled function. */
typedef long (*step_fn)(long);

static long mix(long x) { return (x * 2654435761L) >> 7; }
static long fold(long x) { return x % 1009; }

static long started;
__attribute__((constructor)) static void lib_start(void) { started = 42; }

long lib_odd(long x) __asm__("lib.odd");
long lib_odd(long x) { return x & 1 ? mix(x) : fold(x); }

long lib_run(step_fn f, int n) {
  long acc = started;
  for (int i = 0; i < n; i++)
    acc = fold(f(acc + i) + lib_odd(i));
  return acc;
}

long lib_unused(long x) { return mix(fold(x)); }
