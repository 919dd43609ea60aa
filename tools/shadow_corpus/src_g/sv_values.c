/* Seventh value-profiling workload: indirect calls whose targets are mostly
 * OUTSIDE the program (libc: ctype, string, identity and id functions,
 * qsort, malloc/free), so the raw profile holds many targets that read as
 * the unknown value 0, mixed with targets of this file (h_* functions, one
 * of them not instrumented at all, so it is in the binary but unknown too;
 * at -O2 glibc's extern-inline atoi/atol/toupper/tolower get profile
 * records of their own, so those libc targets are named).  A start-up
 * constructor raises the runtime's per-site limit to 48 and cold functions
 * add value sites (value nodes).  window_site() reaches a window of 21 to
 * 45 targets chosen by SEED over a 70-entry table, then every target from
 * copy_blocks(), so it fills the limit; any_site() reaches all 69 (the
 * runtime evicts); tie_site() reaches 16 + SEED % 5 slots (16 to 18
 * distinct libc functions) with counts tied in groups; two_site() only
 * strlen and atoi.  copy_blocks() does memcpy/memmove/memset/memcmp with
 * SEED-dependent sizes (0..8, every bucket up to 64 KiB, one size repeated
 * at a site of its own), an atexit handler makes indirect calls after main,
 * COUNT 0 returns at once and SEED 5 leaves through exit() in the middle.
 * argv: COUNT SEED. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

typedef long (*xfn)(long, long, long);

enum { K_INT, K_STR, K_STR2, K_STRN, K_CHR, K_MEMCHR, K_NONE, K_SELF };
struct target { xfn f; int kind; };
#define X(fn, k) {(xfn)(void (*)(void))(fn), k}

static const char *const words[] = {"12345", "  -42xyz", "Hello, profile", "zz", "a.b.c",
                                    "1.10", "1.9", "ABCabc", "q", "   "};
#define NWORDS 10

/* targets of this file, same (cast) type */
long h_sum(long a, long b, long c) { return a + b + c; }
long h_xor(long a, long b, long c) { return (a ^ b) - c; }
static long h_mul(long a, long b, long c) { return a * 3 + (b & 7) * c; }
static long h_pick(long a, long b, long c) { return c & 1 ? a : b; }
long h_clip(long a, long b, long c) { return a > 200 ? 200 : a < c ? c : a + b % 3; }
static long h_empty(long a, long b, long c) { (void)a; (void)b; (void)c; return 0; }
__attribute__((no_profile_instrument_function)) long h_plain(long a, long b, long c) {
  return a - b + c;
}
long h_never(long a, long b, long c) { return a * b * c; } /* last in the table, never picked */

/* 62 libc targets (some are aliases of each other in glibc) and 8 of ours */
static const struct target table[] = {
    X(isalnum, K_INT), X(isalpha, K_INT), X(isblank, K_INT), X(iscntrl, K_INT),
    X(isdigit, K_INT), X(isgraph, K_INT), X(islower, K_INT), X(isprint, K_INT),
    X(ispunct, K_INT), X(isspace, K_INT), X(isupper, K_INT), X(isxdigit, K_INT),
    X(tolower, K_INT), X(toupper, K_INT), X(toascii, K_INT), X(isascii, K_INT),
    X(abs, K_INT), X(labs, K_INT), X(llabs, K_INT), X(ffs, K_INT),
    X(ffsl, K_INT), X(ffsll, K_INT), X(h_sum, K_SELF), X(h_xor, K_SELF),
    X(strlen, K_STR), X(atoi, K_STR), X(atol, K_STR), X(atoll, K_STR),
    X(a64l, K_STR), X(strcmp, K_STR2), X(strcasecmp, K_STR2), X(strspn, K_STR2),
    X(strcspn, K_STR2), X(strpbrk, K_STR2), X(strstr, K_STR2), X(strcasestr, K_STR2),
    X(strverscmp, K_STR2), X(strcoll, K_STR2), X(h_mul, K_SELF), X(h_pick, K_SELF),
    X(strncmp, K_STRN), X(strncasecmp, K_STRN), X(memcmp, K_STRN), X(bcmp, K_STRN),
    X(strchr, K_CHR), X(strrchr, K_CHR), X(index, K_CHR), X(rindex, K_CHR),
    X(strchrnul, K_CHR), X(rawmemchr, K_CHR), X(strnlen, K_CHR), X(memchr, K_MEMCHR),
    X(memrchr, K_MEMCHR), X(getpid, K_NONE), X(getppid, K_NONE), X(getuid, K_NONE),
    X(geteuid, K_NONE), X(getgid, K_NONE), X(getegid, K_NONE), X(getpagesize, K_NONE),
    X(rand, K_NONE), X(random, K_NONE), X(time, K_NONE), X(h_clip, K_SELF),
    X(h_empty, K_SELF), X(h_plain, K_SELF), X(strtol, K_STR), X(strtoul, K_STR),
    X(isatty, K_NONE), X(h_never, K_SELF),
};
#define NTARGETS ((int)(sizeof table / sizeof table[0]))

volatile long g_sink;
static char g_dst[70000], g_src[70000];
static unsigned lcg = 1;
static unsigned rnd(void) {
  lcg = lcg * 1103515245u + 12345u;
  return (lcg >> 8) & 0xffffff;
}

__attribute__((constructor(101))) static void raise_vp_limit(void) {
  setenv("LLVM_VP_MAX_NUM_VALS_PER_SITE", "48", 1);
}

/* arguments that suit the target, then one call site */
static long call_target(int k, long i) {
  const char *s = words[i % NWORDS], *t = words[(i * 7 + 3) % NWORDS];
  size_t ls = strlen(s), lt = strlen(t);
  long a = 0, b = 0, c = 0;
  switch (table[k].kind) {
  case K_INT: a = i % 256; break;
  case K_STR: a = (long)s; break;
  case K_STR2: a = (long)s; b = (long)t; break;
  case K_STRN: a = (long)s; b = (long)t; c = (long)(ls < lt ? ls : lt); break;
  case K_CHR: a = (long)s; b = ls ? s[i % ls] : 0; break;
  case K_MEMCHR: a = (long)s; b = 'c'; c = (long)ls; break;
  case K_NONE: break;
  default: a = i; b = i / 3; c = k; break;
  }
  long r = table[k].f(a, b, c);
  return table[k].kind == K_STR2 || table[k].kind == K_CHR ? r != 0 : r & 0xffff;
}

/* the same dispatch, one site per function so each site has its own pattern */
__attribute__((noinline)) long window_site(int k, long i) {
  long r = call_target(k, i);
  return r;
}
__attribute__((noinline)) long any_site(int k, long i) {
  const char *s = words[i % NWORDS];
  long a = table[k].kind == K_INT ? i % 200 : table[k].kind == K_SELF ? i : 0;
  if (table[k].kind == K_STR || table[k].kind == K_STR2 || table[k].kind == K_CHR ||
      table[k].kind == K_STRN || table[k].kind == K_MEMCHR)
    a = (long)s;
  long b = table[k].kind == K_CHR ? s[0]
           : table[k].kind == K_SELF ? 3
           : table[k].kind == K_STR2 || table[k].kind == K_STRN ? (long)s : 0;
  long c = table[k].kind == K_MEMCHR || table[k].kind == K_STRN ? (long)strlen(s) : 1;
  return table[k].f(a, b, c) != 0;
}

/* exactly 16 + SEED % 5 libc functions of one kind, counts tied in threes */
static int (*const ctype_fns[])(int) = {isalnum, isalpha, isblank, iscntrl, isdigit,
                                         isgraph, islower, isprint, ispunct, isspace,
                                         isupper, isxdigit, tolower, toupper, toascii,
                                         isascii, abs, ffs, isalnum, isalpha};
__attribute__((noinline)) int tie_site(int k, int c) { return ctype_fns[k](c); }

/* two libc targets only */
static size_t (*const lens[])(const char *) = {strlen, (size_t(*)(const char *))atoi};
__attribute__((noinline)) long two_site(int i) { return (long)lens[i & 1](words[i % NWORDS]); }

/* allocation through pointers: malloc/calloc-like and free, ours and libc's */
static void *my_alloc(size_t n) { return calloc(1, n); }
static void my_free(void *p) { free(p); }
static void *mall(size_t n) { return malloc(n); }
static void *(*const allocs[])(size_t) = {malloc, my_alloc, mall};
static void (*const frees[])(void *) = {free, my_free};
__attribute__((noinline)) long churn(int rounds, int seed) {
  long t = 0;
  for (int i = 0; i < rounds; i++) {
    size_t n = (size_t)(16 + (i * seed) % 200);
    char *p = allocs[(i + seed) % 3](n);
    memset(p, i & 0x7f, n);
    t += p[n / 2];
    frees[i % 2](p);
  }
  return t;
}

/* sorting through pointers: qsort (calls back into this file) and our own */
static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
static int cmp_rev(const void *a, const void *b) { return cmp_int(b, a); }
static void my_sort(void *base, size_t n, size_t sz, int (*cmp)(const void *, const void *)) {
  char *p = base, tmp[16];
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && cmp(p + (j - 1) * sz, p + j * sz) > 0; j--) {
      memcpy(tmp, p + j * sz, sz);
      memcpy(p + j * sz, p + (j - 1) * sz, sz);
      memcpy(p + (j - 1) * sz, tmp, sz);
    }
}
typedef void (*sort_fn)(void *, size_t, size_t, int (*)(const void *, const void *));
static const sort_fn sorters[] = {qsort, my_sort};
__attribute__((noinline)) long sort_some(int seed) {
  int v[40];
  long t = 0;
  for (int r = 0; r < 6; r++) {
    int n = 5 + (seed * (r + 1)) % 35;
    for (int i = 0; i < n; i++)
      v[i] = (int)(rnd() % 1000);
    sorters[(r + seed) & 1](v, (size_t)n, sizeof v[0], r & 1 ? cmp_rev : cmp_int);
    t += v[0] - v[n - 1];
  }
  return t;
}

/* memory operations with SEED-dependent sizes */
static const size_t sizes[] = {0,   1,   2,    3,    4,    5,    6,     7,    8,    9,
                               12,  15,  16,   17,   31,   32,   33,    63,   64,   65,
                               100, 127, 128,  129,  255,  256,  257,   511,  512,  1000,
                               1024, 2048, 4095, 4096, 4097, 8192, 9000, 16384, 40000, 65536};
#define NSIZES (sizeof sizes / sizeof sizes[0])
size_t copy_blocks(char *dst, const char *src, int rounds, int seed) {
  size_t total = 0;
  size_t repeated = sizes[(size_t)seed % NSIZES];
  for (int i = 0; i < rounds; i++) {
    size_t a = sizes[(size_t)(i * 7 + seed) % NSIZES];
    size_t b = i % 3 ? repeated : sizes[(size_t)(i + seed * 3) % 20];
    memcpy(dst, src + (i % 32), a);
    memmove(dst + 5, dst, b);
    memset(dst + 100, i & 0x7f, (size_t)((seed + i) % 9));
    memset(dst + 200, 0, repeated);
    if (memcmp(dst, src, a % 13) == 0)
      total += 1;
    total += a + b + (size_t)window_site(i % (NTARGETS - 1), i) % 3;
  }
  return total;
}

/* cold functions: each a few value sites no run reaches (value nodes) */
#define COLD(i)                                                                  \
  long cold_##i(char *d, const char *s, size_t n, xfn f) {                        \
    if (n == 0)                                                                  \
      return 0;                                                                  \
    memcpy(d, s, n + i);                                                         \
    memset(d + 1, i, n * 2 + i);                                                 \
    memmove(d + 2, d, n / 2 + i);                                                \
    memcpy(d + 3, s, n * 3 + i);                                                 \
    memset(d, 0, n ^ i);                                                         \
    return f((long)n, i, 0) + f(i, (long)n, 1);                                  \
  }
#define COLD10(a) COLD(a##0) COLD(a##1) COLD(a##2) COLD(a##3) COLD(a##4) \
  COLD(a##5) COLD(a##6) COLD(a##7) COLD(a##8) COLD(a##9)
COLD10(1) COLD10(2) COLD10(3) COLD10(4)

void empty_fn(void) {}
static void empty_static(void) {}
void (*volatile keep_empty)(void) = empty_static;

static int after_main_calls;
static void at_exit_handler(void) {
  for (int i = 0; i < 20; i++)
    after_main_calls += tie_site(i % 16, 'a' + i) != 0;
  g_sink += after_main_calls + two_site(3);
}

static void leave_early(long acc) {
  printf("%ld\n", acc % 1000003);
  exit(0);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int seed = argc > 2 ? atoi(argv[2]) : 1;
  atexit(at_exit_handler);
  empty_fn();
  keep_empty();
  if (n == 0) {
    puts("0");
    return 0;
  }
  lcg = (unsigned)seed * 2654435761u + 11;
  srand((unsigned)seed);
  for (int i = 0; i < 70000; i++)
    g_src[i] = (char)('a' + (i * 7 + seed) % 26);
  int start = (seed * 13) % NTARGETS, width = 21 + seed % 25;
  long acc = 0;
  for (int i = 0; i < n; i++) {
    int k = (start + (int)(rnd() % (unsigned)width)) % NTARGETS;
    if (table[k].f == (xfn)h_never)
      k = 0;
    acc = (acc + window_site(k, i)) % 1000003;
    acc += any_site((int)(rnd() % (unsigned)(NTARGETS - 1)), i);
  }
  int ties = 16 + seed % 5;
  for (int i = 0; i < n / 2; i++)
    acc += tie_site(i % ties, 'A' + i % 50) != 0;
  for (int i = 0; i < n / 10; i++)
    acc += two_site(i * seed);
  if (seed == 5)
    leave_early(acc);
  acc += (long)copy_blocks(g_dst, g_src, n / 8 + 20, seed);
  acc += churn(n / 20 + 5, seed) + sort_some(seed);
  if (argc > 5)
    acc += cold_10(g_dst, g_src, (size_t)n, h_sum) + h_never(1, 2, 3);
  printf("%ld\n", acc % 1000003);
  return 0;
}
