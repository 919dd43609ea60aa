/* First of the tenth pair of programs sharing function names (role of
 * hash_a.c).  Against sv_hash_b.c: mega() has 1,600 macro-generated ifs
 * here and 1,550 there (two records of more than 1,500 counters whose
 * counter counts and hashes differ); vsum() is variadic in both, with a
 * loop over va_arg here and a switch there; jumper() leaves a recursion by
 * longjmp here and is a plain loop there; cmp_items() is a qsort comparator
 * (called from libc) with two branches here and a tie-break there; a
 * function whose name is more than 500 characters long has a loop here and
 * an if there; step() and merge_me() (names also in the corpus's text
 * inputs) differ; twin() is identical; only_a() exists only here.
 * No arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define SEG4(p) XCAT(XCAT(XCAT(XCAT(p, _segment_of_a_long_name), _segment_of_a_long_name), _segment_of_a_long_name), _segment_of_a_long_name)
#define LONG_NAME SEG4(SEG4(SEG4(SEG4(SEG4(SEG4(long_named_function))))))

int step(int x) { if (x & 1) return 3 * x + 1; return x / 2; }
int merge_me(int v) { return v > 3 ? v - 3 : v; }
int twin(int a, int b) { return a > b ? a : b; }
static int only_a(int x) { return x * x; }

#define T1 { j++; if ((x ^ j) % 5 == 0) hits++; }
#define T10 T1 T1 T1 T1 T1 T1 T1 T1 T1 T1
#define T100 T10 T10 T10 T10 T10 T10 T10 T10 T10 T10
int mega(int x) {
  int j = 0, hits = 0;
  T100 T100 T100 T100 T100 T100 T100 T100
  T100 T100 T100 T100 T100 T100 T100 T100
  return hits;
}

int vsum(int n, ...) {
  va_list ap;
  int s = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    int v = va_arg(ap, int);
    if (v > 0) s += v;
  }
  va_end(ap);
  return s;
}

static jmp_buf env;
static int dive(int d) { if (d == 0) longjmp(env, 7); return dive(d - 1) + 1; }
int jumper(int d) {
  int code = setjmp(env);
  if (code) return code;
  return dive(d);
}

int cmp_items(const void *pa, const void *pb) {
  int a = *(const int *)pa, b = *(const int *)pb;
  if (a < b) return -1;
  return a > b;
}

int LONG_NAME(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  return s;
}

int main(void) {
  int v[9] = {5, 3, 9, 1, 7, 3, 8, 2, 6};
  qsort(v, 9, sizeof v[0], cmp_items);
  int acc = v[0] + v[8];
  for (int i = 0; i < 12; i++) acc += step(i) + merge_me(i) + twin(i, 6) + mega(i) + only_a(i);
  acc += vsum(4, 1, -2, 3, 4) + vsum(0) + jumper(5) + LONG_NAME(10);
  printf("%d\n", acc);
  return 0;
}
