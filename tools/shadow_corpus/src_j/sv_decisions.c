/* Tenth MC/DC workload (role of mcdc_demo.c): decisions over a linked list
 * (pointer conditions, p && p->key != k && ...), conditions that assign or
 * have side effects ((c = *s++) != 0, i++ < n), a six-condition do-while
 * condition, conditions of type double, char, _Bool, long long and pointer,
 * decisions as array subscripts, as call arguments and in a switch selector
 * (triple), decisions nested in the arms of a ternary that is itself a
 * condition (clang 19 and 22 leave that one decision out, with a warning),
 * decisions in the arms of a ternary used as a value, decisions built from
 * nested macros whose arguments are decisions, a decision in a for-loop
 * initialiser, a recursive-descent parser whose decisions depend on the
 * input text, a decision evaluated COUNT * 65,536 times (over a million
 * for COUNT 16), a function run exactly once, and a function no run calls.
 * At most six conditions per decision.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node { int key, flags; struct node *next; };

int find(const struct node *p, int k) {
  int steps = 0;
  while (p && p->key != k && !(p->flags & 4)) {
    p = p->next;
    steps++;
  }
  return p && p->key == k ? steps : -1;
}

int count_words(const char *s) {
  int c, n = 0, in = 0;
  while ((c = *s++) != 0 && c != ';') {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
      if (!in) n++;
      in = 1;
    } else {
      in = 0;
    }
  }
  return n;
}

int settle(int x, int y) {
  int rounds = 0;
  do {
    x = (x * 5 + 3) % 64;
    y = (y + x) % 32;
    rounds++;
  } while (rounds < 20 && (x & 1) && (y != 7 || x > 40) && !(x == y) && y);
  return rounds;
}

int typed(double d, char c, _Bool b, long long q, const int *p) {
  int r = 0;
  if (d > 0.5 && c && b && q && p) r += 1;
  if (!p || (*p > 2 && d < 0.25) || q < 0) r += 2;
  return r;
}

static int add3(int a, int b, int c) { return a + 2 * b + 4 * c; }
int triple(int x, int y, int z) {
  static const int w[2] = {3, 11};
  int r = w[x > y && y > z];
  r += add3(x && y, y || z, !(x && z));
  switch ((x > 0 && y > 0) + 2 * (z < 0 || x == z)) {
  case 0: r += 1; break;
  case 1: r += 10; break;
  case 2: r += 100; break;
  default: r += 1000; break;
  }
  return (r > 50 || z == 2) ? r : -r;
}

int nested(int a, int b, int c, int d, int e) {
  int r = 0;
  if ((a ? (b && c) : (d || e)) && (a || e)) r += 1;
  r += ((b || c) ? (d && e && a) : !(a || d)) ? 2 : 0;
  return r;
}

#define BOTH(p, q) ((p) && (q))
#define EITHER(p, q) ((p) || (q))
#define IN(v, lo, hi) BOTH((v) >= (lo), (v) <= (hi))
int macros(int a, int b, int c, int d, int e) {
  int r = 0;
  if (BOTH(EITHER(a, b), EITHER(c, BOTH(d, e)))) r += 1;
  if (IN(a + b, 1, 3) || IN(c + d + e, 2, 2)) r += 2;
  return r;
}

int scan(const int *v, int n, int lim) {
  int i = 0, hits = 0;
  for (int k = (n > 4 && lim > 0); i++ < n && v[i - 1] >= 0 && k < 100;) {
    if (v[i - 1] > lim || (i % 3 == 0 && v[i - 1] == lim)) {
      hits++;
      continue;
    }
    if (hits > 2 && !(v[i - 1] & 1)) break;
  }
  return hits * 100 + i;
}

/* A small recursive-descent parser: expr := term (('+'|'-') term)*,
 * term := digit | '(' expr ')'. */
static const char *pos;
static int expr(void);
static int term(void) {
  if (*pos >= '0' && *pos <= '9') return *pos++ - '0';
  if (*pos == '(' && pos[1] != ')') {
    pos++;
    int v = expr();
    if (*pos == ')') pos++;
    return v;
  }
  return 0;
}
static int expr(void) {
  int v = term();
  while (*pos && (*pos == '+' || *pos == '-') && pos[1] != '\0') {
    char op = *pos++;
    int t = term();
    v = op == '+' ? v + t : v - t;
  }
  return v;
}
int parse(const char *s) { pos = s; return expr(); }

long hot(long n) {
  long hits = 0;
  for (long i = 0; i < n; i++)
    if (((i & 3) == 1 || (i & 12) == 4) && (i % 7 != 0 || !(i & 64))) hits++;
  return hits;
}

int once(int n) { return (n > 10 && n < 20) || n == 5 ? 1 : 0; }
int never(int a, int b, int c, int d, int e, int f) {
  if ((a || b) && (c || d) && (e || f)) return 1;
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  struct node pool[12];
  for (int i = 0; i < 12; i++) {
    pool[i].key = (i * 7) % 13;
    pool[i].flags = i == 9 ? 4 : i & 3;
    pool[i].next = i < 11 ? &pool[i + 1] : NULL;
  }
  long acc = once(n);
  for (int k = 0; k < n; k++) acc += find(&pool[k % 12], k % 14);
  acc += find(NULL, 3);
  static const char *texts[] = {"alpha beta_gamma 42 x", "A1;b2 c3", "", "__ _ ;"};
  for (int k = 0; k < 4 && k < n; k++) acc += count_words(texts[k]);
  for (int k = 0; k < n * 3; k++) acc += settle(k, n - k);
  int v = n;
  for (int k = 0; k < n; k++)
    acc += typed(k / 8.0, (char)(k % 3), k & 1, (long long)k - 3, k % 5 ? &v : NULL);
  for (int x = -1; x <= n / 4; x++)
    for (int y = -1; y <= 2; y++)
      for (int z = -1; z <= 2; z++) acc += triple(x, y, z);
  for (int f = 0; f < 2 * n && f < 32; f++) {
    acc += nested(f & 1, f & 2, f & 4, f & 8, f & 16);
    acc += macros(f & 1, (f >> 1) & 1, (f >> 2) & 1, (f >> 3) & 1, (f >> 4) & 1);
  }
  int data[] = {1, 5, 9, 2, 8, 6, 4, -1, 7, 3, 9, 9};
  acc += scan(data, n < 12 ? n : 12, 4) + scan(data, 12, n);
  static const char *exprs[] = {"1+2", "(3-1)+4", "9-(2+(3))", "()+1", "7+", "((5))-2+8"};
  for (int k = 0; k < 6 && k < n / 2; k++) acc += parse(exprs[k]);
  acc += hot((long)n * 65536);
  if (n > 1000) acc += never(n & 1, n & 2, n & 4, n & 8, n & 16, n & 32);
  printf("%ld\n", acc);
  return 0;
}
