/* Seventh context-sensitive PGO workload: small_values() (a switch) is
 * inlined into callers reached through function pointers, so the
 * profile-use stage promotes the hot pointer targets to direct calls and
 * inlines them (new contexts in the CS stage); a site calls libc through
 * pointers (unknown targets, never promoted) in both stages; an inline
 * helper copies with memcpy/memset of sizes that differ per caller (the
 * use stage splits the hot sizes out); an inline helper with a loop whose
 * trip count depends on the caller; a function that stage 1 runs hot and
 * the CS stage never; a main that returns early for COUNT 150; and a
 * function no run calls.  argv: COUNT. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dst[4096], src[4096];

int small_values(int v) {
  switch (v & 7) {
  case 0: return 1;
  case 1: case 2: return v;
  case 3: return v > 40 ? -v : v / 2;
  default: return v > 64 ? 3 : 2;
  }
}

static inline int copy_some(int n, int extra) {
  memcpy(dst, src, (size_t)(n % 64 + extra));
  memset(dst + 100, n, (size_t)(extra * 3));
  return dst[n % 64];
}

static inline int steps(int v, int limit) {
  int r = 0;
  for (int i = 0; i < limit; i++)
    r += (v + i) % 3 == 0 ? small_values(v + i) : 1;
  return r;
}

int hot_a(int x) { return small_values(x) + steps(x, 3); }
int hot_b(int x) { return small_values(x * 3) - copy_some(x, 2); }
static int cold_c(int x) { return steps(x, 20) + copy_some(x, 40); }
typedef int (*int_fn)(int);
static int_fn const targets[] = {hot_a, hot_a, hot_a, hot_b, hot_a, hot_b, hot_a, cold_c};
static int_fn const libc_fns[] = {isdigit, isalpha, toupper, abs, isspace, ispunct};

__attribute__((noinline)) long through_pointers(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += targets[i % 8 == 7 && i % 3 ? 0 : i % 8](i);
  return acc;
}

__attribute__((noinline)) long through_libc(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += libc_fns[(i * 5) % 6]('0' + i % 70) != 0;
  return acc;
}

__attribute__((noinline)) long direct(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += steps(i, i % 5) + copy_some(i, i % 3 ? 8 : 200);
  return acc;
}

__attribute__((noinline)) long first_stage_only(int n) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += small_values(i * 7) + copy_some(i, 16);
  return acc;
}

int never(int x) { return small_values(x) + steps(x, x); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  for (int i = 0; i < 4096; i++)
    src[i] = (char)(i * 7);
  long acc = through_pointers(n);
  if (n == 150) {
    printf("%ld\n", acc);
    return 0;
  }
  acc += through_libc(n) + direct(n / 2);
  if (n >= 1000)
    acc += first_stage_only(n / 4);
  printf("%ld\n", acc);
  return 0;
}
