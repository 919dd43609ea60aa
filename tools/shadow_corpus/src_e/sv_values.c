/* Fifth value-profiling workload: indirect calls through function pointers
 * stored in an array of structs (two pointers per entry, two call sites),
 * a 96-target table of which each run reaches a window chosen by SEED so
 * that two runs share few targets, a call site whose target depends only
 * on the parity of SEED, memcpy/memset/memmove with every size 0..8 and
 * with large sizes (4096 and more) in separate sites, a memop site whose
 * size is always 0, a function pointer returned by a function, and
 * functions no run calls.  argv: COUNT SEED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char g_big[70000], g_src[70000];
volatile long g_sink;

#define TS(i) static long w##i(long x) { return x * (i + 3) - (x >> 2) + i; }
#define TG(i) long w##i(long x) { return (x ^ (i * 17)) + (i & 3); }
#define TP(a) TS(a##0) TG(a##1) TS(a##2) TG(a##3) TS(a##4) TG(a##5) TS(a##6) TG(a##7)
#define TL(a) w##a##0, w##a##1, w##a##2, w##a##3, w##a##4, w##a##5, w##a##6, w##a##7
TP(10) TP(11) TP(12) TP(13) TP(14) TP(15) TP(16) TP(17) TP(18) TP(19) TP(20) TP(21)

typedef long (*tfn)(long);
struct entry { const char *name; tfn fwd, back; int weight; };
static struct entry table[96];
static tfn raw[96] = {TL(10), TL(11), TL(12), TL(13), TL(14), TL(15),
                      TL(16), TL(17), TL(18), TL(19), TL(20), TL(21)};

static void fill(void) {
  for (int i = 0; i < 96; i++) {
    table[i].name = "e";
    table[i].fwd = raw[i];
    table[i].back = raw[95 - i];
    table[i].weight = i % 5 + 1;
  }
}

__attribute__((noinline)) long through_struct(int k, long x) {
  long r = table[k].fwd(x);
  for (int j = 0; j < table[k].weight; j++)
    r = table[k].back(r) % 1000003;
  return r;
}

static long even_only(long x) { return x + 2; }
static long odd_only(long x) { return x - 2; }
__attribute__((noinline)) tfn choose(int seed) { return seed & 1 ? odd_only : even_only; }

__attribute__((noinline)) long parity_site(int seed, long x) { return choose(seed)(x); }

__attribute__((noinline)) size_t small_ops(int rounds, int seed) {
  size_t t = 0;
  for (int i = 0; i < rounds; i++) {
    size_t s = (size_t)((i + seed) % 9);          /* 0..8 */
    memcpy(g_big + 100, g_src + i % 50, s);
    memset(g_big + 200, i & 0xff, (size_t)((i * seed) % 9));
    memmove(g_big + 300, g_big + 301, s ? s - 1 : 0);
    t += s + (size_t)g_big[100];
  }
  return t;
}

__attribute__((noinline)) size_t large_ops(int rounds, int seed) {
  size_t t = 0;
  for (int i = 0; i < rounds; i++) {
    size_t s = 4096 + (size_t)(((i + seed) % 4) * 16384);
    memcpy(g_big, g_src, s);
    memset(g_big, seed & 0x7f, s / 2 + (size_t)(seed % 3));
    t += (size_t)g_big[s - 1];
  }
  return t;
}

__attribute__((noinline)) size_t zero_ops(int rounds) {
  size_t z = 0;
  for (int i = 0; i < rounds; i++) {
    memcpy(g_big, g_src, z);
    memset(g_big, 0, z);
  }
  return z;
}

long never_indirect(tfn f, long x) { return f(f(x)); }
static long never_target(long x) { return x * 11; }
tfn keep_never = never_target;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int seed = argc > 2 ? atoi(argv[2]) : 1;
  fill();
  for (int i = 0; i < 70000; i++)
    g_src[i] = (char)(i * 7 + seed);
  int base = (seed * 41) % 96, span = 6 + seed % 11;
  long acc = 0;
  for (int i = 0; i < n; i++) {
    int k = (base + (i * i + seed) % span) % 96;
    acc += through_struct(k, i);
    acc += parity_site(seed, acc & 0xfff);
  }
  acc += (long)small_ops(n / 2 + 9, seed);
  acc += (long)large_ops(n / 100 + 1, seed);
  acc += (long)zero_ops(n / 10);
  if (argc > 5)
    acc += never_indirect(keep_never, acc);
  printf("%ld\n", acc % 1000003);
  return 0;
}
