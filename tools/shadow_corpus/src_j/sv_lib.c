/* Shared-library half of the tenth shared-library workload (role of
 * vis_lib.c): lib_mix() is a GNU indirect function (ifunc) whose resolver
 * is instrumented and runs inside the dynamic loader when the executable
 * first binds the symbol, picking one of two static implementations; weak
 * undefined references to hooks, one of which the executable defines (the
 * library calls into it) and one nobody defines (never called); lib_walk()
 * recurses and calls back into the executable, which leaves it by longjmp
 * from several depths (library frames abandoned mid-call); lib_ladder() has
 * 1,600 macro-generated branches (3,201 counters at -O2); lib_init()
 * registers an atexit handler, and a destructor runs at exit too (both run
 * before the library's own profile runtime writes its part, so both are
 * counted); and a function nobody calls. */
#include <stdlib.h>

typedef int (*visit_fn)(int level, int value);
static volatile int lib_sink;

/* The ifunc and its resolver. */
static int mix_plain(int x) { int r = 0; for (int k = 0; k < (x & 15); k++) r += k ^ x; return r; }
static int mix_fast(int x) { return (x & 15) * x; }
static int prefer_fast = 1;
static int (*resolve_mix(void))(int) {
  if (prefer_fast > 0)
    return mix_fast;
  return mix_plain;
}
int lib_mix(int x) __attribute__((ifunc("resolve_mix")));

/* Hooks the executable may or may not define. */
extern int main_hook(int x) __attribute__((weak));
extern int missing_hook(int x) __attribute__((weak));
int lib_apply_hooks(int x) {
  int r = x;
  if (main_hook) r = main_hook(r);
  if (missing_hook) r = missing_hook(r);
  return r;
}

/* Recursion calling back into the executable (which may longjmp out). */
int lib_walk(int depth, visit_fn visit) {
  if (depth <= 0) return 0;
  int v = visit(depth, depth * 3 + lib_sink);
  return v + lib_walk(depth - 1, visit);
}

/* 1,600 branches. */
__attribute__((noinline)) static void lib_note(int k) { lib_sink += k; }
#define L1 { k++; if ((x + k) % 9 == 0) lib_note(k); else if (((x >> (k & 7)) & 3) == 2) lib_note(-1); }
#define L10 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1
#define L100 L10 L10 L10 L10 L10 L10 L10 L10 L10 L10
int lib_ladder(int x) {
  int k = 0;
  L100 L100 L100 L100 L100 L100 L100 L100
  L100 L100 L100 L100 L100 L100 L100 L100
  return lib_sink;
}

/* Exit-time code: an atexit handler and a destructor. */
__attribute__((noinline)) static void goodbye_helper(int v) { lib_sink = v; }
static void lib_goodbye(void) { goodbye_helper(lib_sink + 1); }
__attribute__((noinline)) static void fini_helper(void) { lib_sink = 0; }
__attribute__((destructor)) static void lib_fini(void) { fini_helper(); }
int lib_init(void) { return atexit(lib_goodbye) == 0; }

int lib_unused(int x) { return lib_mix(x) + lib_walk(x, 0); }
