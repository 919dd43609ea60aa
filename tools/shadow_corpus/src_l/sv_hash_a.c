/* First of the eleventh pair of programs sharing function names (role of
 * hash_a.c): version 1 of a small text-utility "library" with its test
 * driver.  Against sv_hash_b.c (version 2): checksum() is Adler-32 here
 * and FNV-1a there (other loops, other counter count); split_words() takes
 * only spaces here and any blank there (one more condition); trim() is the
 * same in both; wrap_text() breaks at the width here and at the last blank
 * before it there; step() and merge_me() (names also in the corpus's text
 * inputs) differ; escape_html() exists only here, unescape_html() only
 * there; version() returns another number from the same code.  No
 * arguments. */
#include <stdio.h>
#include <string.h>

int version(void) { return 1; }

int step(int x) { return x % 2 ? x * 3 + 1 : x / 2; }
int merge_me(int a, int b) { return a > b ? a - b : b - a; }

unsigned checksum(const char *s) {
  unsigned a = 1, b = 0;
  for (; *s; s++) {
    a = (a + (unsigned char)*s) % 65521u;
    b = (b + a) % 65521u;
  }
  return (b << 16) | a;
}

int split_words(const char *s, int *starts, int max) {
  int n = 0, in = 0;
  for (int i = 0; s[i]; i++) {
    if (s[i] == ' ') in = 0;
    else if (!in) {
      in = 1;
      if (n < max) starts[n] = i;
      n++;
    }
  }
  return n;
}

int trim(char *s) {
  int len = (int)strlen(s), start = 0;
  while (start < len && (s[start] == ' ' || s[start] == '\t')) start++;
  while (len > start && (s[len - 1] == ' ' || s[len - 1] == '\t')) len--;
  memmove(s, s + start, (size_t)(len - start));
  s[len - start] = 0;
  return len - start;
}

int wrap_text(const char *s, int width) {
  int lines = 1, col = 0;
  for (; *s; s++) {
    if (++col > width) { lines++; col = 1; }
  }
  return lines;
}

int escape_html(const char *s, char *out, int cap) {
  int o = 0;
  for (; *s && o < cap - 6; s++) {
    switch (*s) {
    case '<': memcpy(out + o, "&lt;", 4); o += 4; break;
    case '>': memcpy(out + o, "&gt;", 4); o += 4; break;
    case '&': memcpy(out + o, "&amp;", 5); o += 5; break;
    default: out[o++] = *s;
    }
  }
  out[o] = 0;
  return o;
}

int main(void) {
  static const char *const samples[] = {"  hello world  ", "a<b && c>d", "one two  three\tfour",
                                        "", "the quick brown fox jumps over the lazy dog"};
  char buf[128], esc[256];
  int starts[16];
  unsigned acc = (unsigned)version();
  for (int i = 0; i < 5; i++) {
    strcpy(buf, samples[i]);
    acc += (unsigned)trim(buf);
    acc ^= checksum(buf);
    acc += (unsigned)split_words(buf, starts, 16);
    acc += (unsigned)wrap_text(buf, 10);
    acc += (unsigned)escape_html(buf, esc, sizeof esc);
  }
  for (int i = 1; i < 20; i++) acc += (unsigned)(step(i) + merge_me(i, 10));
  printf("%u\n", acc);
  return 0;
}
