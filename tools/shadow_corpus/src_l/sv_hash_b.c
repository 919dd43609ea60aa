/* Second of the eleventh pair of programs sharing function names (role of
 * hash_b.c): version 2 of the text-utility "library" (see sv_hash_a.c):
 * FNV-1a checksum(), split_words() on any blank, wrap_text() at the last
 * blank before the width, other step() and merge_me(), unescape_html()
 * only here, the same trim().  No arguments. */
#include <stdio.h>
#include <string.h>

int version(void) { return 2; }

int step(int x) {
  int r = x;
  while (r > 9) r = r / 10 + r % 10;
  return r;
}
int merge_me(int a, int b) {
  int s = 0;
  for (int i = a < b ? a : b; i <= (a < b ? b : a); i++) s += i & 1;
  return s;
}

unsigned checksum(const char *s) {
  unsigned h = 2166136261u;
  while (*s) {
    h ^= (unsigned char)*s++;
    h *= 16777619u;
  }
  return h;
}

int split_words(const char *s, int *starts, int max) {
  int n = 0, in = 0;
  for (int i = 0; s[i]; i++) {
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') in = 0;
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
  int lines = 1, col = 0, last_blank = -1;
  for (int i = 0; s[i]; i++) {
    col++;
    if (s[i] == ' ') last_blank = col;
    if (col > width) {
      lines++;
      col = last_blank > 0 ? col - last_blank : 1;
      last_blank = -1;
    }
  }
  return lines;
}

int unescape_html(const char *s, char *out, int cap) {
  int o = 0;
  while (*s && o < cap - 1) {
    if (strncmp(s, "&lt;", 4) == 0) { out[o++] = '<'; s += 4; }
    else if (strncmp(s, "&gt;", 4) == 0) { out[o++] = '>'; s += 4; }
    else if (strncmp(s, "&amp;", 5) == 0) { out[o++] = '&'; s += 5; }
    else out[o++] = *s++;
  }
  out[o] = 0;
  return o;
}

int main(void) {
  static const char *const samples[] = {"  hello world  ", "a&lt;b &amp;&amp; c&gt;d",
                                        "one two\nthree\tfour", "x",
                                        "the quick brown fox jumps over the lazy dog"};
  char buf[128], plain[128];
  int starts[16];
  unsigned acc = (unsigned)version();
  for (int i = 0; i < 5; i++) {
    strcpy(buf, samples[i]);
    acc += (unsigned)trim(buf);
    acc ^= checksum(buf);
    acc += (unsigned)split_words(buf, starts, 16);
    acc += (unsigned)wrap_text(buf, 12);
    acc += (unsigned)unescape_html(buf, plain, sizeof plain);
  }
  for (int i = 1; i < 15; i++) acc += (unsigned)(step(i * 7) + merge_me(i, 5));
  printf("%u\n", acc);
  return 0;
}
