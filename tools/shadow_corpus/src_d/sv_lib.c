/* Shared-library half of the fourth shared-library workload: a weak
 * lib_policy() that the executable overrides (so the library's copy never
 * runs), a hidden helper, a function with a nested loop and a 32-case
 * switch (many counters), a varargs entry point, recursion that bounces
 * into the executable and back, a table of library functions the
 * executable calls through, and a function nobody calls. */
#include <stdarg.h>

__attribute__((weak)) int lib_policy(int x) { return x * 100; }
__attribute__((visibility("hidden"))) int lib_hidden(int x) { return x ^ 0x2a; }

#define Q4(b) case b: acc += i; break; case b + 1: acc -= j; break; \
  case b + 2: acc ^= i * j; break; case b + 3: acc += lib_policy(i); break;
int lib_grid(int n) {
  int acc = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      switch ((i * 7 + j) & 31) {
        Q4(0) Q4(4) Q4(8) Q4(12) Q4(16) Q4(20) Q4(24) Q4(28)
      }
      if (acc > 100000)
        acc = lib_hidden(acc) % 1000;
    }
  return acc;
}

int lib_sum(int n, ...) {
  va_list ap;
  int acc = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    acc += va_arg(ap, int);
  va_end(ap);
  return acc;
}

int main_bounce(int d);
int lib_bounce(int d) { return d <= 0 ? 0 : 1 + main_bounce(d - 1); }

static int lib_inc(int x) { return x + 1; }
static int lib_dec(int x) { return x - 1; }
int lib_sq(int x) { return x * x % 1009; }
typedef int (*lib_fn)(int);
static lib_fn lib_table[] = {lib_inc, lib_dec, lib_sq};
lib_fn lib_get(int k) { return lib_table[k % 3]; }

int lib_never(int x) { return x ? lib_never(x - 1) : 0; }
