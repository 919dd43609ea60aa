/* Tenth context-sensitive PGO workload (role of cspgo.c): ladder(), one
 * function of 1,600 macro-generated branches (1,601 counters in both
 * stages; too big to inline, so the CS stage keeps it whole), reached from
 * two callers with disjoint value ranges; a flatten caller that pulls a
 * three-level chain of static helpers into itself; static functions with a
 * single call site (inlined whole because they are called once); a helper
 * whose fast path is chosen by __builtin_constant_p, inlined with a
 * constant in one caller and a variable in another; __builtin_expect hints
 * that contradict the data; hot and cold attributes; a tail-recursive
 * helper (its own record in stage 1, a loop inside its caller in the CS
 * stage); small_values() with a switch, external (so it keeps a record of
 * its own), inlined into several callers and also called through a
 * pointer; and a caller only the COUNT < 200 run reaches.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

int small_values(int v) {
  switch (v & 7) {
  case 0: return v;
  case 1: return v * 3;
  case 2: case 3: return v - 2;
  case 5: return v ^ 0x55;
  default: return v > 100 ? v / 4 : v + 9;
  }
}

/* 1,600 branches whose arms call a function (so none becomes a select). */
__attribute__((noinline)) void tick(int k) { sink += (unsigned)k; }
#define B1 { k++; if ((x + k * 7) % 11 < 3) tick(k); else if (((x >> (k & 15)) & 3) == 1) acc++; }
#define B10 B1 B1 B1 B1 B1 B1 B1 B1 B1 B1
#define B100 B10 B10 B10 B10 B10 B10 B10 B10 B10 B10
__attribute__((noinline)) int ladder(int x) {
  int k = 0, acc = 0;
  B100 B100 B100 B100 B100 B100 B100 B100
  B100 B100 B100 B100 B100 B100 B100 B100
  return acc + (int)(sink & 0xff);
}
__attribute__((noinline)) int ladder_low(int n) {
  int s = 0;
  for (int i = 0; i < n; i += 4) s += ladder(i % 60);
  return s;
}
__attribute__((noinline)) int ladder_high(int n) {
  int s = 0;
  for (int i = 0; i < n; i += 8) s += ladder(4000 + i % 900);
  return s;
}

/* A flatten caller: the chain outer -> middle -> inner is inlined into it. */
static int inner(int v) { return v % 3 ? small_values(v) : v / 3; }
static int middle(int v) { int r = 0; for (int k = 0; k < (v & 3); k++) r += inner(v + k); return r; }
static int outer(int v) { return v > 50 ? middle(v) : inner(v); }
__attribute__((flatten, noinline)) int flat(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += outer(i % 120);
  return s;
}

/* Called once each: inlined whole into run_once(). */
static int once_a(int n) { int s = 0; for (int i = 0; i < n; i++) if (i % 5 == 2) s += small_values(i); return s; }
static int once_b(int n) { int s = 1; while (n > 1) { s += n & 1; n >>= 1; } return s; }
__attribute__((noinline)) int run_once(int n) { return once_a(n) + once_b(n * 7); }

/* __builtin_constant_p decides the path. */
static inline int scaled(int v, int f) {
  if (__builtin_constant_p(f) && f == 8) return v << 3;
  int r = 0;
  for (int k = 0; k < f; k++) r += v;
  return r;
}
__attribute__((noinline)) int scale_const(int n) { int s = 0; for (int i = 0; i < n; i++) s += scaled(i, 8); return s; }
__attribute__((noinline)) int scale_var(int n, int f) { int s = 0; for (int i = 0; i < n; i++) s += scaled(i, f); return s; }

/* Hints that say the opposite of what happens. */
static inline int hinted(int v) {
  if (__builtin_expect(v % 4 == 0, 0)) return v / 4;
  if (__builtin_expect(v < 0, 1)) return -v;
  return v + 1;
}
__attribute__((hot, noinline)) int hot_path(int n) { int s = 0; for (int i = 0; i < n; i++) s += hinted(i * 4) + small_values(i * 8); return s; }
__attribute__((cold, noinline)) int cold_path(int n) { int s = 0; for (int i = 0; i < n; i++) s += hinted(i) + small_values(i); return s; }

/* Tail recursion (a loop once the optimizer is done with it). */
static int gcd_tail(int a, int b) { return b == 0 ? a : gcd_tail(b, a % b); }
__attribute__((noinline)) int gcds(int n) { int s = 0; for (int i = 1; i < n; i++) s += gcd_tail(i * 21, 84 + i % 9); return s; }

__attribute__((noinline)) int small_runs_only(int n) { int s = 0; for (int i = 0; i < n; i++) s += small_values(i * 5 + 1); return s; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long t = 0;
  t += ladder_low(n) + ladder_high(n / 2);
  t += flat(n) + run_once(n);
  t += scale_const(n) + scale_var(n, 8) + scale_var(n / 2, n % 5 + 1);
  t += hot_path(n) + cold_path(n / 10);
  t += gcds(n / 4);
  if (n < 200) t += small_runs_only(n);
  int (*volatile through)(int) = small_values;
  for (int i = 0; i < n / 50; i++) t += through(i);
  sink = (unsigned)t;
  printf("%ld\n", t);
  return 0;
}
