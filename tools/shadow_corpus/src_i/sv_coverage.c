/* Ninth set: coverage of a tokenizer state machine (switch in a loop with
 * fallthrough and a default), gotos for error handling and retry, function-like
 * and statement macros, a static function and an exported function never
 * called, a do/while, an early return and a recursive helper. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define IS_VOWEL(c) ((c) == 'a' || (c) == 'e' || (c) == 'i' || (c) == 'o' || (c) == 'u')
#define BUMP(var, by) do { (var) += (by); if ((var) > 1000) (var) -= 1000; } while (0)
#define CLAMP(x, lo, hi) ((x) < (lo) ? (lo) : (x) > (hi) ? (hi) : (x))
static const char *texts[] = {"quiet evening", "rhythm", "aeiou and more", "x+y=42 ; go", "", "loop: again?"};
int count_vowels(const char *s) {
  int n = 0;
  for (; *s; s++)
    if (IS_VOWEL(*s)) n++;
  return n;
}
enum kind { K_SPACE, K_ALPHA, K_DIGIT, K_PUNCT, K_OTHER };
static enum kind classify(char c) {
  if (c == ' ') return K_SPACE;
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return K_ALPHA;
  if (c >= '0' && c <= '9') return K_DIGIT;
  if (strchr("+-=;:?", c)) return K_PUNCT;
  return K_OTHER;
}
int tokenize(const char *s, int *words, int *numbers) {
  int state = 0, tokens = 0, retries = 0;
retry:
  for (const char *p = s; *p; p++) {
    switch (classify(*p)) {
    case K_SPACE:
      state = 0;
      break;
    case K_ALPHA:
      if (state != 1) { (*words)++; tokens++; }
      state = 1;
      break;
    case K_DIGIT:
      if (state != 2) { (*numbers)++; tokens++; }
      state = 2;
      break;
    case K_PUNCT:
      tokens++;
      /* fallthrough */
    case K_OTHER:
      state = 3;
      if (*p == '?') goto fail;
      break;
    default:
      return -1;
    }
  }
  return tokens;
fail:
  if (retries++ < 1) goto retry;
  return -tokens;
}
static int depth_sum(int d) { return d <= 0 ? 0 : d + depth_sum(d - 2); }
static int never_static(int x) { return x * x - 1; }
int never_exported(int x) { return never_static(x) + 3; }
int grade(int score) {
  int g;
  switch (CLAMP(score, 0, 100) / 10) {
  case 10: case 9: g = 'A'; break;
  case 8: g = 'B'; break;
  case 7: g = 'C'; break;
  case 6: g = 'D'; break;
  default: g = 'F';
  }
  return g;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  int words = 0, numbers = 0, acc = 0;
  if (n < 0) return never_exported(n);
  int i = 0;
  do {
    const char *t = texts[i % 6];
    BUMP(acc, count_vowels(t));
    BUMP(acc, tokenize(t, &words, &numbers));
    BUMP(acc, grade(i * 23 % 130 - 10));
    i++;
  } while (i < n * 2);
  acc += depth_sum(n * 3);
  printf("%d %d %d\n", acc, words, numbers);
  return 0;
}
