/* First of the seventh pair of programs sharing names.  Static helper()
 * and mix() exist in both (and in the shared library's workload); stamp()
 * has the same control flow in both but one memory operation here and
 * three there (so only the value-site count changes its hash); route() calls libc and this file's functions through one pointer
 * in both (unknown targets that merge); shape() differs in control flow;
 * same() is identical; empty() is empty in both; only_a() is only here and
 * never_a() never runs. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*int_fn)(int);
static char buf[512], src[512];

static int helper(int x) { return x % 3 ? x : -x; }
static int mix(int x) { return x * 17 % 101; }

int stamp(int n) {
  memcpy(buf, src, (size_t)n);
  return n > 3 ? 1 : 0;
}

static int_fn const targets[] = {toupper, tolower, isdigit, isalpha, abs, helper, mix,
                                 isspace, isxdigit, ispunct, isupper, islower, isprint,
                                 isgraph, iscntrl, isalnum, isblank, toascii, isascii};
int route(int i) { return targets[i % 19](i + 40); }

int shape(int x) {
  if (x > 10)
    return x - 10;
  return x;
}

int same(int x) { return x > 4 ? x - 4 : 4 - x; }
void empty(void) {}
int only_a(int x) { return x * 5; }
int never_a(int x) { return x ? never_a(x - 1) : 0; }

int main(void) {
  int acc = 0;
  for (int i = 0; i < 57; i++)
    acc += stamp(i % 40) + route(i) + shape(i) + same(i) + helper(i) + mix(i);
  empty();
  acc += only_a(3);
  printf("%d\n", acc);
  return 0;
}
