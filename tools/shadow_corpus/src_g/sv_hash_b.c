/* Second of the seventh pair: stamp() has two memory operations more (same
 * control flow, more value sites), route() reaches other libc functions
 * through the same shape of site, shape() has a loop, same() and empty()
 * match the first program's, helper() and mix() are static again. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*int_fn)(int);
static char buf[512], src[512];

static int helper(int x) { return x % 5 ? x : x / 5; }
static int mix(int x) { return x * 13 % 97; }

int stamp(int n) {
  memcpy(buf, src, (size_t)n);
  memset(buf + 1, n, (size_t)n / 2);
  memmove(buf + 2, buf, (size_t)n / 3);
  return n > 3 ? 1 : 0;
}

static int_fn const targets[] = {isalnum, isblank, iscntrl, isgraph, islower, isprint,
                                 ispunct, isupper, toascii, isascii, mix, helper, abs,
                                 toupper, tolower, isdigit, isalpha, isspace, isxdigit,
                                 ffs, abs, isalnum, toupper};
int route(int i) { return targets[i % 23](i + 40); }

int shape(int x) {
  int r = 0;
  for (int i = 0; i < x % 4; i++)
    r += i;
  return r;
}

int same(int x) { return x > 4 ? x - 4 : 4 - x; }
void empty(void) {}
int only_b(int x) { return x / 2; }

int main(void) {
  int acc = 0;
  for (int i = 0; i < 46; i++)
    acc += stamp(i % 33) + route(i * 3) + shape(i) + same(i) + helper(i) + mix(i);
  empty();
  acc += only_b(40);
  printf("%d\n", acc);
  return 0;
}
