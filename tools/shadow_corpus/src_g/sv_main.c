/* Program half of the seventh shared-library workload: one call site
 * reaching the library's twenty-four functions, eighteen libc functions and
 * three of its own (only those three are known to the program's part of the
 * profile), callbacks registered with the library, static helper() and
 * mix() like the library's, memory-operation sizes handed to the library, a
 * start-up constructor that raises the per-site limit of its runtime to 64,
 * cold functions for value nodes, and an empty function.  No arguments. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*int_fn)(int);
int_fn lib_function(int k);
void lib_register(int_fn f);
int lib_visit(int rounds);
long lib_copy(const int *sizes, int n);
void lib_empty(void);

__attribute__((constructor(101))) static void raise_vp_limit(void) {
  setenv("LLVM_VP_MAX_NUM_VALS_PER_SITE", "64", 1);
}

static int helper(int x) { return x * 2 + 1; }
static int mix(int x) { return x ^ 0x5a; }
int cb_one(int x) { return x & 1; }

static int_fn const libc_fns[18] = {isalnum, isalpha, isblank, iscntrl, isdigit, isgraph,
                                    islower, isprint, ispunct, isspace, isupper, isxdigit,
                                    tolower, toupper, toascii, isascii, abs, ffs};

__attribute__((noinline)) int call_any(int k, int x) {
  int_fn f = k < 24 ? lib_function(k) : k < 42 ? libc_fns[k - 24] : k == 42 ? helper
             : k == 43 ? mix : cb_one;
  return f(x);
}

#define COLD(i)                                                                  \
  long main_cold##i(char *d, const char *s, size_t n, int_fn f) {                \
    memcpy(d, s, n + i);                                                         \
    memset(d, i, n * 2 + i);                                                     \
    memmove(d + 1, d, n + i);                                                    \
    memcpy(d + 2, s, n * 3 + i);                                                 \
    return f((int)n) + f(i);                                                     \
  }
COLD(0) COLD(1) COLD(2) COLD(3) COLD(4) COLD(5) COLD(6) COLD(7) COLD(8) COLD(9)
COLD(10) COLD(11) COLD(12) COLD(13) COLD(14) COLD(15) COLD(16) COLD(17) COLD(18) COLD(19)

void main_empty(void) {}

int main(void) {
  lib_register(cb_one);
  lib_register(helper);
  lib_register(mix);
  long acc = 0;
  for (int i = 0; i < 450; i++)
    acc += call_any((i * 11 + i / 45) % 45, i);
  acc += lib_visit(300);
  int sizes[40];
  for (int i = 0; i < 40; i++)
    sizes[i] = i < 20 ? i % 9 : 1 << (i % 14);
  acc += lib_copy(sizes, 40);
  lib_empty();
  main_empty();
  printf("%ld\n", acc);
  return 0;
}
