/* Fourth value-profiling workload: one indirect-call site that, over the
 * runs, reaches 300 distinct targets (a seed-dependent window of a table of
 * generated functions, half static and half global), so merged value sites
 * exceed LLVM's 255 values per site; a start-up constructor that raises the
 * runtime's per-site limit to 255 and cold memory-op sites that give the
 * runtime enough value nodes; a function with five indirect-call sites,
 * a varargs function that calls through a pointer, mutual recursion through
 * pointers, memcpy/memmove/memset whose sizes depend on the seed, and
 * functions no run calls.  argv: COUNT SEED. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char g_buf[2048], g_src[2048];
volatile long g_sink;

__attribute__((constructor(101))) static void raise_vp_limit(void) {
  setenv("LLVM_VP_MAX_NUM_VALS_PER_SITE", "255", 1);
}

/* cold sites: never executed, but each one is a value site at compile time */
#define COLD(x) if ((x) == -987654321L) { memcpy(g_buf, g_src, (size_t)(x) & 1023); \
    memset(g_buf, 1, (size_t)(x) & 511); }
#define TS(i) static long t##i(long x) { COLD(x) return x * (i + 1) + ((x >> 3) ^ i); }
#define TG(i) long t##i(long x) { COLD(x) return (x ^ (i * 31)) - (i & 7); }
#define TP(a) TS(a##0) TG(a##1) TS(a##2) TG(a##3) TS(a##4) TG(a##5) TS(a##6) TG(a##7) TS(a##8) TG(a##9)
#define TL(a) t##a##0, t##a##1, t##a##2, t##a##3, t##a##4, t##a##5, t##a##6, t##a##7, t##a##8, t##a##9
TP(10) TP(11) TP(12) TP(13) TP(14) TP(15) TP(16) TP(17) TP(18) TP(19)
TP(20) TP(21) TP(22) TP(23) TP(24) TP(25) TP(26) TP(27) TP(28) TP(29)
TP(30) TP(31) TP(32) TP(33) TP(34) TP(35) TP(36) TP(37) TP(38) TP(39)

typedef long (*tfn)(long);
static tfn big_table[300] = {
    TL(10), TL(11), TL(12), TL(13), TL(14), TL(15), TL(16), TL(17), TL(18), TL(19),
    TL(20), TL(21), TL(22), TL(23), TL(24), TL(25), TL(26), TL(27), TL(28), TL(29),
    TL(30), TL(31), TL(32), TL(33), TL(34), TL(35), TL(36), TL(37), TL(38), TL(39)};

static unsigned rng = 1;
static unsigned next_rand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 9;
}

__attribute__((noinline)) long dispatch(int k, long x) { return big_table[k](x); }

static long add1(long x) { return x + 1; }
static long dbl(long x) { return x * 2; }
static long neg(long x) { return -x; }
long half(long x) { return x / 2; }
long sq(long x) { return (x * x) % 10007; }
static tfn small_a[] = {add1, dbl, neg};
static tfn small_b[] = {half, sq, add1, dbl, neg};

struct ops { tfn pre, post; };
static struct ops op_sets[] = {{add1, sq}, {dbl, half}, {neg, neg}, {sq, dbl}};

/* five indirect-call sites in one function */
__attribute__((noinline)) long multi(long x, int k, tfn extra) {
  long r = small_a[k % 3](x);
  r += small_b[(k / 3) % 5](r);
  r = op_sets[k % 4].pre(r);
  r = op_sets[(k + 1) % 4].post(r);
  if (k % 7 == 0)
    r += extra(k);
  return r;
}

/* varargs: a count, then pairs of (function, argument) */
long apply_va(int n, ...) {
  va_list ap;
  long acc = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    tfn f = va_arg(ap, tfn);
    long v = va_arg(ap, long);
    acc += f(v);
  }
  va_end(ap);
  return acc;
}

/* mutual recursion through pointers */
typedef long (*rfn)(int, long);
long ping(int depth, long x);
long pong(int depth, long x);
static rfn volley[] = {ping, pong};
long ping(int depth, long x) { return depth <= 0 ? x : volley[depth & 1](depth - 1, x + 3); }
long pong(int depth, long x) { return depth <= 0 ? -x : volley[(depth >> 1) & 1](depth - 1, x * 2 % 9973); }

__attribute__((noinline)) size_t memops(int rounds, int seed) {
  size_t total = 0;
  for (int i = 0; i < rounds; i++) {
    size_t a = (size_t)((seed * 37 + i * 13) % (seed % 5 == 0 ? 700 : 97));
    size_t b = (size_t)((seed + i) % 9) * (size_t)(seed % 4 + 1);
    memcpy(g_buf, g_src + (i % 64), a);
    memmove(g_buf + 3, g_buf, b);
    memset(g_buf + a, seed & 0x7f, (size_t)(seed % 33));
    if (memcmp(g_buf, g_src, b % 16) == 0)
      total += a;
    total += a + b;
  }
  return total;
}

long unused_dispatch(tfn f, long x) { return f(x) + f(x + 1); }
static long unused_static(long x) { return x * 3; }
tfn keep_unused = unused_static;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int seed = argc > 2 ? atoi(argv[2]) : 1;
  rng = (unsigned)seed * 2654435761u + 7;
  int base = (seed * 120) % 300, span = seed % 2 ? 200 : 180;
  long acc = 0;
  for (int i = 0; i < n; i++) {
    int k = (base + (int)(next_rand() % (unsigned)span)) % 300;
    acc += dispatch(k, i);
    acc += multi(acc & 0xffff, i + seed, small_b[seed % 5]);
  }
  for (int i = 0; i < n / 10; i++)
    acc += apply_va(3, small_a[i % 3], (long)i, small_b[(i + seed) % 5], (long)seed,
                    big_table[(i * seed) % 300], acc & 0xff);
  acc += ping(n % 23, seed) + pong(seed % 17, n);
  for (int i = 0; i < 2048; i++)
    g_src[i] = (char)(i * 13 + seed);
  acc += (long)memops(n / 4, seed);
  if (argc > 5)
    acc += unused_dispatch(keep_unused, acc);
  printf("%ld\n", acc % 1000003);
  return 0;
}
