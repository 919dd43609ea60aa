/* Thirteenth-set coverage workload (role of cov_demo.c): an INI-style
 * configuration loader.  The known keys are an X-macro list (the block a
 * real project keeps in a .def file, inlined here), expanded four times:
 * into an enum, a name table, a default table and the cases of a
 * validation switch.  parse_line() is a switch over the first byte with
 * its default in the middle and fallthrough between cases; a section
 * stack, quoted values with escapes, numbers with units (k, M), booleans.
 * Errors go through a _Noreturn function that longjmps back to the loader
 * (taken in run "1", whose documents include a broken one).  Loops that
 * run 0 times for some COUNTs (the include loop, the retry loop), a
 * constant-folded condition on sizeof(long) (the other way round under
 * -m32), a static local counter, count_vowels() over every value, a
 * constructor that registers the built-in documents before main, an atexit
 * handler and a destructor that run after main (after the profile is
 * written, the destructor at least).  argv: COUNT. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the key list (a .def block) --------------------------------------- */
#define CONFIG_KEYS(X)                          \
  X(PORT, "port", 8080, 1, 65535)               \
  X(WORKERS, "workers", 4, 1, 256)              \
  X(TIMEOUT, "timeout", 30, 0, 3600)            \
  X(CACHE, "cache", 64, 0, 1 << 20)             \
  X(VERBOSE, "verbose", 0, 0, 1)                \
  X(RETRIES, "retries", 3, 0, 10)               \
  X(BACKLOG, "backlog", 128, 16, 4096)          \
  X(COMPRESS, "compress", 1, 0, 1)

#define AS_ENUM(id, name, def, lo, hi) K_##id,
enum key { CONFIG_KEYS(AS_ENUM) K_COUNT, K_UNKNOWN = -1 };
#define AS_NAME(id, name, def, lo, hi) name,
static const char *const key_names[] = {CONFIG_KEYS(AS_NAME)};
#define AS_DEFAULT(id, name, def, lo, hi) def,
static const long key_defaults[] = {CONFIG_KEYS(AS_DEFAULT)};

#define IS_SPACE(c) ((c) == ' ' || (c) == '\t')
#define IS_KEYCHAR(c) (((c) >= 'a' && (c) <= 'z') || (c) == '_' || ((c) >= '0' && (c) <= '9'))
#define MAX_SECTIONS 4

typedef struct {
  long values[K_COUNT];
  int set[K_COUNT];
  char section[MAX_SECTIONS][16];
  int depth;
  int line;
  int warnings;
  long vowels;
} config_t;

static jmp_buf load_env;
static char last_error[64];

_Noreturn static void config_error(config_t *c, const char *what) {
  snprintf(last_error, sizeof last_error, "line %d: %s", c->line, what);
  longjmp(load_env, 1);
}

int count_vowels(const char *s) {
  int n = 0;
  for (; *s; s++) {
    switch (*s | 0x20) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
      n++;
      break;
    case 'y':
      if (s[1] == 0) n++; /* a final y counts */
      break;
    default:
      break;
    }
  }
  return n;
}

static enum key lookup_key(const char *name) {
  for (int k = 0; k < K_COUNT; k++)
    if (strcmp(key_names[k], name) == 0) return (enum key)k;
  return K_UNKNOWN;
}

static long check_range(config_t *c, enum key k, long v) {
#define AS_CASE(id, name, def, lo, hi) \
  case K_##id:                         \
    if (v < (lo) || v > (hi)) config_error(c, "out of range: " name); \
    break;
  switch (k) {
    CONFIG_KEYS(AS_CASE)
  default:
    break;
  }
#undef AS_CASE
  return v;
}

static long parse_value(config_t *c, const char *p) {
  static int calls; /* static local */
  calls++;
  if (strcmp(p, "true") == 0 || strcmp(p, "yes") == 0) return 1;
  if (strcmp(p, "false") == 0 || strcmp(p, "no") == 0) return 0;
  char *end;
  long v = strtol(p, &end, 10);
  if (end == p) config_error(c, "not a number");
  switch (*end) {
  case 'M':
    v *= 1024;
    /* fallthrough */
  case 'k':
    v *= 1024;
    break;
  default:
    config_error(c, "bad unit");
  case 0:
    break;
  }
  if (sizeof(long) == 8) { /* constant: true on x86_64, false with -m32 */
    if (v > 0x7fffffffL) v = 0x7fffffffL;
  } else {
    if (v < 0) v = 0;
  }
  return v + (calls < 0);
}

static void parse_line(config_t *c, char *line) {
  char key[32], value[64];
  while (IS_SPACE(*line)) line++;
  switch (*line) {
  case '#':
  case ';':
    return; /* comment */
  case '[': {
    char *close = strchr(line, ']');
    if (!close) config_error(c, "unterminated section");
    if (c->depth == MAX_SECTIONS) config_error(c, "too deep");
    *close = 0;
    strncpy(c->section[c->depth], line + 1, 15);
    c->section[c->depth++][15] = 0;
    return;
  }
  default: {
    int n = 0;
    while (IS_KEYCHAR(*line) && n < 31) key[n++] = *line++;
    key[n] = 0;
    while (IS_SPACE(*line)) line++;
    if (n == 0 || *line != '=') config_error(c, "expected key =");
    line++;
    while (IS_SPACE(*line)) line++;
    int q = *line == '"';
    int m = 0;
    for (line += q; *line && m < 63; line++) {
      if (q && *line == '"') break;
      if (q && *line == '\\' && line[1]) line++;
      value[m++] = *line;
    }
    value[m] = 0;
    c->vowels += count_vowels(value);
    enum key k = lookup_key(key);
    if (k == K_UNKNOWN) {
      c->warnings++;
      return;
    }
    c->values[k] = check_range(c, k, parse_value(c, value));
    c->set[k] = 1;
    return;
  }
  case 0:
  case '\n':
    return; /* blank */
  }
}

static const char *documents[8];
static int ndocuments;

static int load(config_t *c, const char *text) {
  memset(c, 0, sizeof *c);
  for (int k = 0; k < K_COUNT; k++) c->values[k] = key_defaults[k];
  if (setjmp(load_env)) return -1;
  char buf[256];
  strncpy(buf, text, sizeof buf - 1);
  buf[sizeof buf - 1] = 0;
  for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
    c->line++;
    parse_line(c, line);
  }
  return 0;
}

__attribute__((constructor)) static void builtin_documents(void) {
  documents[ndocuments++] = "# server\n[server]\nport = 9000\nworkers=8\ntimeout = 45\n";
  documents[ndocuments++] = "[cache]\ncache = 512k\nverbose = yes\nname = \"quiet \\\"zone\\\"\"\n";
  documents[ndocuments++] = "; tuned\nretries = 0\nbacklog = 512\ncompress = false\n\n[x]\nkey = value\n";
  documents[ndocuments++] = "[a]\n[b]\nport = 70000\n";
  documents[ndocuments++] = "timeout = 5x\nworkers = 2k\n";
}

static long exit_total;
static void report_at_exit(void) { exit_total += 1; }
__attribute__((destructor)) static void close_logs(void) {
  if (exit_total > 100) exit_total = 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  atexit(report_at_exit);
  config_t c;
  long sum = 0;
  int failed = 0;
  /* run 1 also loads the two broken documents */
  int docs = n == 1 ? ndocuments : (n < ndocuments - 2 ? n : ndocuments - 2);
  for (int d = 0; d < docs; d++) {
    if (load(&c, documents[d]) != 0) {
      failed++;
      continue;
    }
    for (int k = 0; k < K_COUNT; k++) sum += c.set[k] ? c.values[k] % 1000 : 0;
    sum += c.warnings * 100 + c.vowels + c.depth;
  }
  /* include loop: "include" directives only when COUNT > 5 (never in the corpus's runs) */
  for (int i = 5; i < n; i++) sum += i;
  /* retry loop: 0 trips unless a document failed */
  for (int r = 0; r < failed && r < 3; r++) sum -= r;
  printf("%ld %d %s\n", sum, failed, failed ? last_error : "ok");
  return 0;
}
