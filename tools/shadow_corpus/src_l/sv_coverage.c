/* Eleventh-set coverage workload (role of cov_demo.c): a JSON-ish tokenizer
 * and recursive-descent parser.  Character classes are macros; the lexer
 * is a switch over the next byte with string escapes (\n, \t, \", \\ and
 * \uXXXX), numbers with sign, fraction and exponent, the literals true,
 * false and null, and // comments (an extension); the parser builds a
 * small node pool, reports the first error with its line and column
 * (unterminated string, bad escape, trailing comma, missing colon, depth
 * limit, trailing garbage) and bails out through a single error path; a
 * stats pass walks the tree and count_vowels() counts the vowels of every
 * string.  argv[1] is how many of the built-in documents to parse (some
 * valid, some not).  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define IS_SPACE(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r')
#define IS_HEX(c) (IS_DIGIT(c) || ((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F'))
#define IS_ALPHA(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z'))
#define MAX_DEPTH 8
#define MAX_NODES 256

enum tok { T_EOF, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_COLON, T_COMMA,
           T_STRING, T_NUMBER, T_TRUE, T_FALSE, T_NULL, T_ERROR };
enum kind { N_OBJECT, N_ARRAY, N_STRING, N_NUMBER, N_BOOL, N_NULL };

typedef struct {
  enum kind kind;
  int first_child, next_sibling;
  double number;
  char text[48];
} node_t;

typedef struct {
  const char *src;
  int at, line, col;
  enum tok tok;
  char text[48];
  double number;
  node_t nodes[MAX_NODES];
  int nnodes;
  char error[96];
} parser_t;

static void fail(parser_t *p, const char *what) {
  if (p->error[0]) return; /* keep the first error */
  snprintf(p->error, sizeof p->error, "%d:%d: %s", p->line, p->col, what);
  p->tok = T_ERROR;
}

static int peekc(parser_t *p) { return (unsigned char)p->src[p->at]; }
static int getc_(parser_t *p) {
  int c = peekc(p);
  if (c) {
    p->at++;
    if (c == '\n') { p->line++; p->col = 1; } else p->col++;
  }
  return c;
}

static void skip_space(parser_t *p) {
  for (;;) {
    int c = peekc(p);
    if (IS_SPACE(c)) getc_(p);
    else if (c == '/' && p->src[p->at + 1] == '/')
      while (peekc(p) && peekc(p) != '\n') getc_(p);
    else break;
  }
}

static void lex_string(parser_t *p) {
  int n = 0;
  getc_(p); /* opening quote */
  for (;;) {
    int c = getc_(p);
    if (c == 0 || c == '\n') { fail(p, "unterminated string"); return; }
    if (c == '"') break;
    if (c == '\\') {
      int e = getc_(p);
      switch (e) {
      case 'n': c = '\n'; break;
      case 't': c = '\t'; break;
      case '"': case '\\': case '/': c = e; break;
      case 'u': {
        int v = 0;
        for (int k = 0; k < 4; k++) {
          int h = getc_(p);
          if (!IS_HEX(h)) { fail(p, "bad \\u escape"); return; }
          v = v * 16 + (IS_DIGIT(h) ? h - '0' : (h | 0x20) - 'a' + 10);
        }
        c = v < 128 ? v : '?';
        break;
      }
      default: fail(p, "bad escape"); return;
      }
    }
    if (n < (int)sizeof p->text - 1) p->text[n++] = (char)c;
  }
  p->text[n] = 0;
  p->tok = T_STRING;
}

static void lex_number(parser_t *p) {
  int start = p->at;
  if (peekc(p) == '-') getc_(p);
  if (!IS_DIGIT(peekc(p))) { fail(p, "digit expected"); return; }
  while (IS_DIGIT(peekc(p))) getc_(p);
  if (peekc(p) == '.') {
    getc_(p);
    if (!IS_DIGIT(peekc(p))) { fail(p, "fraction expected"); return; }
    while (IS_DIGIT(peekc(p))) getc_(p);
  }
  if (peekc(p) == 'e' || peekc(p) == 'E') {
    getc_(p);
    if (peekc(p) == '+' || peekc(p) == '-') getc_(p);
    if (!IS_DIGIT(peekc(p))) { fail(p, "exponent expected"); return; }
    while (IS_DIGIT(peekc(p))) getc_(p);
  }
  p->number = strtod(p->src + start, NULL);
  p->tok = T_NUMBER;
}

static void lex_word(parser_t *p) {
  char w[8];
  int n = 0;
  while (IS_ALPHA(peekc(p))) {
    int c = getc_(p);
    if (n < 7) w[n++] = (char)c;
  }
  w[n] = 0;
  if (strcmp(w, "true") == 0) p->tok = T_TRUE;
  else if (strcmp(w, "false") == 0) p->tok = T_FALSE;
  else if (strcmp(w, "null") == 0) p->tok = T_NULL;
  else fail(p, "unknown literal");
}

static void next(parser_t *p) {
  if (p->tok == T_ERROR) return;
  skip_space(p);
  int c = peekc(p);
  switch (c) {
  case 0: p->tok = T_EOF; break;
  case '{': getc_(p); p->tok = T_LBRACE; break;
  case '}': getc_(p); p->tok = T_RBRACE; break;
  case '[': getc_(p); p->tok = T_LBRACK; break;
  case ']': getc_(p); p->tok = T_RBRACK; break;
  case ':': getc_(p); p->tok = T_COLON; break;
  case ',': getc_(p); p->tok = T_COMMA; break;
  case '"': lex_string(p); break;
  default:
    if (c == '-' || IS_DIGIT(c)) lex_number(p);
    else if (IS_ALPHA(c)) lex_word(p);
    else fail(p, "unexpected character");
  }
}

static int new_node(parser_t *p, enum kind k) {
  if (p->nnodes >= MAX_NODES) { fail(p, "too many nodes"); return -1; }
  node_t *n = &p->nodes[p->nnodes];
  memset(n, 0, sizeof *n);
  n->kind = k;
  n->first_child = n->next_sibling = -1;
  return p->nnodes++;
}

static int parse_value(parser_t *p, int depth);

static int append(parser_t *p, int parent, int last, int child) {
  if (child < 0) return last;
  if (last < 0) p->nodes[parent].first_child = child;
  else p->nodes[last].next_sibling = child;
  return child;
}

static int parse_array(parser_t *p, int depth) {
  int self = new_node(p, N_ARRAY), last = -1;
  if (self < 0) return -1;
  next(p);
  if (p->tok == T_RBRACK) { next(p); return self; }
  for (;;) {
    last = append(p, self, last, parse_value(p, depth + 1));
    if (p->tok == T_ERROR) return -1;
    if (p->tok == T_COMMA) {
      next(p);
      if (p->tok == T_RBRACK) { fail(p, "trailing comma"); return -1; }
      continue;
    }
    if (p->tok == T_RBRACK) { next(p); return self; }
    fail(p, "',' or ']' expected");
    return -1;
  }
}

static int parse_object(parser_t *p, int depth) {
  int self = new_node(p, N_OBJECT), last = -1;
  if (self < 0) return -1;
  next(p);
  if (p->tok == T_RBRACE) { next(p); return self; }
  for (;;) {
    if (p->tok != T_STRING) { fail(p, "key expected"); return -1; }
    int key = new_node(p, N_STRING);
    if (key < 0) return -1;
    strcpy(p->nodes[key].text, p->text);
    last = append(p, self, last, key);
    next(p);
    if (p->tok != T_COLON) { fail(p, "':' expected"); return -1; }
    next(p);
    last = append(p, self, last, parse_value(p, depth + 1));
    if (p->tok == T_ERROR) return -1;
    if (p->tok == T_COMMA) { next(p); continue; }
    if (p->tok == T_RBRACE) { next(p); return self; }
    fail(p, "',' or '}' expected");
    return -1;
  }
}

static int parse_value(parser_t *p, int depth) {
  if (depth > MAX_DEPTH) { fail(p, "nesting too deep"); return -1; }
  int n;
  switch (p->tok) {
  case T_LBRACE: return parse_object(p, depth);
  case T_LBRACK: return parse_array(p, depth);
  case T_STRING:
    n = new_node(p, N_STRING);
    if (n >= 0) strcpy(p->nodes[n].text, p->text);
    break;
  case T_NUMBER:
    n = new_node(p, N_NUMBER);
    if (n >= 0) p->nodes[n].number = p->number;
    break;
  case T_TRUE: case T_FALSE:
    n = new_node(p, N_BOOL);
    if (n >= 0) p->nodes[n].number = p->tok == T_TRUE;
    break;
  case T_NULL: n = new_node(p, N_NULL); break;
  case T_ERROR: return -1;
  default: fail(p, "value expected"); return -1;
  }
  next(p);
  return n;
}

int count_vowels(const char *s) {
  int n = 0;
  for (; *s; s++) {
    switch (*s | 0x20) {
    case 'a': case 'e': case 'i': case 'o': case 'u': n++; break;
    default: break;
    }
  }
  return n;
}

typedef struct { int strings, numbers, containers, vowels; double sum; } stats_t;
static void walk(const parser_t *p, int i, stats_t *st) {
  for (; i >= 0; i = p->nodes[i].next_sibling) {
    const node_t *n = &p->nodes[i];
    if (n->kind == N_STRING) { st->strings++; st->vowels += count_vowels(n->text); }
    else if (n->kind == N_NUMBER) { st->numbers++; st->sum += n->number; }
    else if (n->kind == N_OBJECT || n->kind == N_ARRAY) { st->containers++; walk(p, n->first_child, st); }
  }
}

static const char *const documents[] = {
    "{\"name\": \"aurora\", \"size\": 12, \"tags\": [\"ice\", \"sky\"], \"ok\": true}",
    "[1, 2.5, -3e2, {\"deep\": [[[\"bottom\"]]]}, null, false]",
    "{\"esc\": \"tab\\there \\u0041\\u00e9 \\\"q\\\"\", // comment\n \"n\": 0.125}",
    "{\"a\": [1, 2, ], \"b\": 3}",
    "{\"unterminated\": \"oops\n}",
    "{\"missing\" 4}",
    "[[[[[[[[[[\"too deep\"]]]]]]]]]]",
    "{\"bad\": \"\\x41\"}",
    "[1.e5]",
    "{\"k\": nope}",
    "  [ ]  ",
    "{} extra",
    "{\"u\": \"\\u12G4\"}",
    "[\"audio\", \"video\", \"OUTPUT\", -0.5E+1, 7]",
};

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  int ndocs = (int)(sizeof documents / sizeof documents[0]);
  static parser_t p;
  stats_t st = {0, 0, 0, 0, 0};
  int errors = 0;
  for (int r = 0; r < rounds; r++) {
    int limit = r == 0 ? ndocs : ndocs - 4 * r;
    for (int d = 0; d < limit && d < ndocs; d++) {
      memset(&p, 0, sizeof p);
      p.src = documents[d];
      p.line = p.col = 1;
      next(&p);
      int root = parse_value(&p, 0);
      if (p.tok != T_EOF && p.tok != T_ERROR) fail(&p, "trailing garbage");
      if (p.error[0]) {
        errors++;
        if (r == 0) printf("doc %d: %s\n", d, p.error);
        continue;
      }
      walk(&p, root, &st);
    }
  }
  printf("%d errors, %d strings (%d vowels), %d numbers (sum %g), %d containers\n", errors,
         st.strings, st.vowels, st.numbers, st.sum, st.containers);
  return 0;
}
