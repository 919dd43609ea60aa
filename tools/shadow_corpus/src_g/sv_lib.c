/* Shared-library half of the seventh shared-library workload: twenty-four
 * exported functions of one type that the executable calls through
 * pointers (targets the executable's part of the profile cannot name), a
 * site that calls libc's ctype functions and the executable's callbacks
 * through pointers (both unknown to the library's part), static functions
 * named like the executable's statics and like the pair of clashing
 * programs' (helper, mix), memory operations with sizes the executable
 * chooses, cold functions that give the library's runtime value nodes, an
 * empty function and a function nobody calls. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef int (*int_fn)(int);

static int helper(int x) { return x % 7 == 0 ? x / 7 : x + 3; }
static int mix(int x) { return (x * 40503) >> 4 & 0xffff; }

#define LF(i) int lib_f##i(int x) { return helper(x) * (i + 1) - mix(x + i); }
LF(0) LF(1) LF(2) LF(3) LF(4) LF(5) LF(6) LF(7) LF(8) LF(9) LF(10) LF(11)
LF(12) LF(13) LF(14) LF(15) LF(16) LF(17) LF(18) LF(19) LF(20) LF(21) LF(22) LF(23)
static const int_fn lib_fns[24] = {lib_f0,  lib_f1,  lib_f2,  lib_f3,  lib_f4,  lib_f5,
                                   lib_f6,  lib_f7,  lib_f8,  lib_f9,  lib_f10, lib_f11,
                                   lib_f12, lib_f13, lib_f14, lib_f15, lib_f16, lib_f17,
                                   lib_f18, lib_f19, lib_f20, lib_f21, lib_f22, lib_f23};
int_fn lib_function(int k) { return lib_fns[k % 24]; }

static int_fn callbacks[8];
static int ncallbacks;
void lib_register(int_fn f) {
  if (ncallbacks < 8)
    callbacks[ncallbacks++] = f;
}

static int_fn const ctype_fns[] = {isalnum, isalpha, isdigit, islower, isupper,
                                   isspace, ispunct, isxdigit, toupper, tolower,
                                   abs,     isprint, helper,  mix};

/* one site: libc's functions, its own statics and the executable's callbacks */
int lib_visit(int rounds) {
  int acc = 0;
  for (int i = 0; i < rounds; i++) {
    int k = (i * 5 + i / 7) % (14 + ncallbacks);
    int_fn f = k < 14 ? ctype_fns[k] : callbacks[k - 14];
    acc += f('0' + i % 75) != 0;
  }
  return acc;
}

static char lib_buf[9000], lib_src[9000];
long lib_copy(const int *sizes, int n) {
  long t = 0;
  for (int i = 0; i < n; i++) {
    size_t s = (size_t)sizes[i] % 8192;
    memcpy(lib_buf, lib_src, s);
    memset(lib_buf + 1, i, s / 3);
    t += lib_buf[s / 2];
  }
  return t;
}

#define COLD(i)                                                                  \
  long lib_cold##i(char *d, size_t n, int_fn f) {                                \
    memcpy(d, lib_src, n + i);                                                   \
    memset(d, i, n * 2 + i);                                                     \
    memmove(d + 1, d, n + i);                                                    \
    return f((int)n) + f(i);                                                     \
  }
COLD(0) COLD(1) COLD(2) COLD(3) COLD(4) COLD(5) COLD(6) COLD(7) COLD(8) COLD(9)
COLD(10) COLD(11) COLD(12) COLD(13) COLD(14)

void lib_empty(void) {}
int lib_never(int x) { return x > 0 ? lib_never(x - 1) + helper(x) : 0; }
