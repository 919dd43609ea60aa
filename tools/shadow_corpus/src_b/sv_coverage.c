/* Second coverage workload: a vowel counter over strings, a macro that
 * defines whole static functions, nested loops with break/continue,
 * do-while, a switch with fall-through and no default, chained ternaries,
 * recursion, a static function no run calls and one only large inputs
 * reach.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFINE_PICK(name, a, b)                                                \
  static int name(int x) { return x % 2 ? (a) : (b); }
DEFINE_PICK(pick_small, 1, 2)
DEFINE_PICK(pick_large, 100, x > 5 ? 200 : 300)
DEFINE_PICK(pick_never, -1, -2)

#define SQUARE_OR_ZERO(v) ((v) > 0 ? (v) * (v) : 0)

int count_vowels(const char *s) {
  int n = 0;
  for (; *s; s++) {
    switch (*s | 0x20) {
    case 'a':
    case 'e':
    case 'i':
      n++;
      /* fall through */
    case 'o':
      n++;
      break;
    case 'u':
      n += 3;
      break;
    case 'y':
      if (s[1] == 0)
        n++;
    }
  }
  return n;
}

static int grid(int rows, int cols) {
  int hits = 0;
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      if (c == r)
        continue;
      if (c > 6)
        break;
      hits += SQUARE_OR_ZERO(c - r);
    }
  }
  int k = rows;
  do {
    hits += k & 1 ? 1 : k & 2 ? 2 : k & 4 ? 4 : 8;
    k--;
  } while (k > 0);
  return hits;
}

static int collatz_depth(long v) {
  if (v == 1)
    return 0;
  return 1 + collatz_depth(v % 2 ? 3 * v + 1 : v / 2);
}

static int rarely(int x) {
  if (x > 1000)
    return x / 3;
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  static const char *words[] = {"profile", "coverage", "Yummy", "sky", "AEIOU", ""};
  int acc = 0;
  for (int i = 0; i < n * 2; i++)
    acc += count_vowels(words[i % 6]);
  acc += grid(n + 1, n * 3);
  acc += n > 2 ? pick_large(n) : pick_small(n);
  acc += collatz_depth(n * 9 + 1);
  if (n > 50 && rarely(n))
    acc += pick_never(n);
  printf("%d\n", acc);
  return 0;
}
