/* Seventh temporal workload: five phases (digits 0-4 of argv[1]) of six
 * functions each, sharing helpers; a constructor and an atexit handler
 * that run instrumented functions before and after main; comparators that
 * libc's qsort and bsearch call first (their timestamps come from inside
 * libc); calls to libc through pointers; empty functions; recursion; a
 * main that returns as soon as a one-digit argument's phase is done; and
 * functions that no run reaches.  argv: DIGITS. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int state;
#define F(name, body) __attribute__((noinline)) int name(int x) { body }
#define S(name, body) __attribute__((noinline)) static int name(int x) { body }

F(util_a, return x * 3 + 1;)
S(util_b, return x ^ 0x55;)
F(util_c, return x > 100 ? x / 3 : x + 7;)
__attribute__((noinline)) void util_empty(void) {}
__attribute__((noinline)) static void util_empty_static(void) {}

F(p0_a, return util_a(x) + 1;)
S(p0_b, return util_b(x) - 1;)
F(p0_c, return toupper(x & 0x7f);)
F(p0_d, util_empty(); return x;)
S(p0_e, return x % 7;)
F(p0_f, return x ? p0_f(x / 2) + 1 : 0;)

S(cmp_up, return x;)
static int by_value(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return cmp_up((x > y) - (x < y));
}
static int by_value_rev(const void *a, const void *b) { return by_value(b, a); }
F(p1_a, return util_c(x);)
S(p1_b, int v[12]; for (int i = 0; i < 12; i++) v[i] = (x * (i + 3)) % 17;
  qsort(v, 12, sizeof v[0], by_value); return v[0] + v[11];)
__attribute__((noinline)) int p1_c(int x) {
  int v[5] = {x, 3, 1, 4, 1};
  qsort(v, 5, sizeof v[0], by_value_rev);
  return v[0];
}
F(p1_d, util_empty_static(); return util_a(x);)
S(p1_e, return x - 5;)
F(p1_f, return x * x % 1000;)

F(p2_a, return util_b(util_a(x));)
S(p2_b, return x + 2;)
F(p2_c, return p2_b(x) * 2;)
F(p2_d, return x % 16 < 2 ? x % 16 : p2_d(x % 16 - 1) + p2_d(x % 16 - 2) % 100;)
S(p2_e, return x & 0xff;)
F(p2_f, return ~x;)

static int key_cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static const int sorted[] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23};
F(p3_a, const int *hit = bsearch(&x, sorted, 12, sizeof sorted[0], key_cmp); return hit ? *hit : -1;)
S(p3_b, return util_c(x) + util_a(x);)
F(p3_c, return x / 3;)
F(p3_d, return x | 1;)
S(p3_e, return x * 7;)
F(p3_f, util_empty(); util_empty_static(); return x;)

typedef int (*int_fn)(int);
static int_fn const libc_fns[] = {isdigit, isalpha, abs, tolower, isspace};
F(p4_a, return libc_fns[x % 5](x);)
S(p4_b, return x + 4;)
F(p4_c, return util_b(x) + p4_b(x);)
F(p4_d, return x << 1;)
S(p4_e, return x >> 1;)
F(p4_f, return x % 13;)

F(never_a, return x + 100;)
S(never_b, return never_a(x) * 2;)
int_fn keep_never = never_b;

F(ctor_work, return x + 11;)
__attribute__((constructor)) static void early(void) { state = ctor_work(state); }
F(exit_work, return x - 1;)
static void at_exit_handler(void) { state = exit_work(state) + p2_f(state); }
F(finish_a, return x * 2;)
F(finish_b, return x + 9;)

static int_fn const phases[5][6] = {
    {p0_a, p0_b, p0_c, p0_d, p0_e, p0_f}, {p1_a, p1_b, p1_c, p1_d, p1_e, p1_f},
    {p2_a, p2_b, p2_c, p2_d, p2_e, p2_f}, {p3_a, p3_b, p3_c, p3_d, p3_e, p3_f},
    {p4_a, p4_b, p4_c, p4_d, p4_e, p4_f}};

int main(int argc, char **argv) {
  const char *digits = argc > 1 ? argv[1] : "0";
  atexit(at_exit_handler);
  int acc = state;
  for (const char *p = digits; *p; p++) {
    int d = *p - '0';
    if (d < 0 || d > 4)
      continue;
    for (int j = 0; j < 6; j++)
      acc = phases[d][(j + (int)(p - digits)) % 6](acc + j) % 100003;
  }
  if (strlen(digits) == 1) {
    printf("%d\n", acc);
    return 0;
  }
  acc = finish_b(finish_a(acc));
  printf("%d\n", acc);
  return 0;
}
