/* Seventh coverage workload: GNU case ranges, a switch with only a
 * default, for(;;) and while(1) left by break and return, empty loop
 * bodies, do { } while (0) macros, constant if (0) / if (1) branches, code
 * after return (a gap), a label no goto uses, nested ternaries spread over
 * lines by a macro, a _Noreturn function that exits (so the code after its
 * call never runs), libc called through pointers, a function only stored
 * in a table, empty functions, functions no run calls, and a main that
 * returns early for COUNT 1.  argv: COUNT. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWAP(a, b) do { int t_ = (a); (a) = (b); (b) = t_; } while (0)
#define CLAMP(x, lo, hi) \
  ((x) < (lo) ? (lo)      \
   : (x) > (hi) ? (hi)    \
                : (x))

int count_vowels(const char *s) {
  int n = 0;
  for (; *s; s++) {
    switch (tolower((unsigned char)*s)) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
      n++;
      break;
    case 'b' ... 'd':
      n += 0;
      break;
    case '0' ... '9':
      n += 2;
      /* fall through */
    default:
      if (isspace((unsigned char)*s))
        n--;
    }
  }
  return n;
}

static int only_default(int x) {
  switch (x) {
  default:
    return x * 2;
  }
}

static int forever(int x) {
  int steps = 0;
  for (;;) {
    if (x <= 1)
      break;
    x = x % 2 ? 3 * x + 1 : x / 2;
    steps++;
  }
  while (1) {
    if (steps > 5)
      return steps;
    steps += 3;
  }
  return -1; /* never */
}

static int empty_loops(int n) {
  int i;
  for (i = 0; i < n * 3; i++)
    ;
  while (i-- > n)
    ;
  return i;
}

static int constants(int x) {
  if (0)
    x = 100;
  if (1)
    x += 1;
  else
    x -= 1;
unused_label:
  if (x > 1000)
    goto unused_label;
  return x;
}

static int sorted3(int a, int b, int c) {
  if (a > b) SWAP(a, b);
  if (b > c) SWAP(b, c);
  if (a > b) SWAP(a, b);
  return a * 100 + b * 10 + c;
}

_Noreturn static void die(int code) { exit(code); }
static int maybe_die(int x) {
  if (x > 1000000)
    die(3);
  return x + 1;
}

typedef int (*int_fn)(int);
static int table_only(int x) { return x - 1; }
static int_fn const fns[] = {toupper, isdigit, abs, table_only};

void empty(void) {}
static void empty_static(void) {}
int never_called(int x) {
  if (x > 0)
    return CLAMP(x, 1, 9);
  return forever(x);
}
static int never_static(int x) { return x ? never_static(x - 1) : 0; }
int (*keep)(int) = never_static;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  static const char *words[] = {"Profile data", "0x1234 AE", "bcd", "", "Quiet  sky"};
  int acc = 0;
  empty();
  empty_static();
  for (int i = 0; i < n * 3; i++)
    acc += count_vowels(words[i % 5]);
  acc += only_default(n) + CLAMP(acc, 2, 50);
  if (n == 1) {
    printf("%d\n", acc);
    return 0;
    acc++; /* never */
  }
  acc += forever(n * 7) + empty_loops(n) + constants(n) + sorted3(n, 2, 1);
  for (int i = 0; i < 4; i++)
    acc += fns[i](n + 60);
  acc += maybe_die(acc);
  printf("%d\n", acc);
  return 0;
}
