/* Sixth value-profiling workload: loops the optimizer folds into closed
 * form (at -O2 their counters reach 2^54..2^56, exactly 2^56 for SEED 1,
 * and beyond 2^56 up to 2^64-21 for SEED 5; at -O0 they are short), indirect calls
 * through a 3x16 table of function pointers whose row and column come from
 * the data (24 distinct targets at one site, among them functions with
 * UTF-8 names and one global name of more than 1,000 characters), a site
 * with one hot target and many cold ones, indirect calls in deep and in
 * mutual recursion, memset/memcpy with sizes in every bucket from 0 to
 * 1 MiB through the same sites, a 300-case switch (more than 256
 * counters), and functions no run calls.  argv: COUNT SEED. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LONGNAME relay_alpha_stage_bravo_stage_charlie_stage_delta_stage_echo_stage_foxtrot_stage_golf_stage_hotel_stage_india_stage_juliett_stage_kilo_stage_lima_stage_mike_stage_november_stage_oscar_stage_papa_stage_quebec_stage_romeo_stage_sierra_stage_tango_stage_uniform_stage_victor_stage_whiskey_stage_xray_stage_yankee_stage_zulu_stage_alpha_stage_bravo_stage_charlie_stage_delta_stage_echo_stage_foxtrot_stage_golf_stage_hotel_stage_india_stage_juliett_stage_kilo_stage_lima_stage_mike_stage_november_stage_oscar_stage_papa_stage_quebec_stage_romeo_stage_sierra_stage_tango_stage_uniform_stage_victor_stage_whiskey_stage_xray_stage_yankee_stage_zulu_stage_alpha_stage_bravo_stage_charlie_stage_delta_stage_echo_stage_foxtrot_stage_golf_stage_hotel_stage_india_stage_juliett_stage_kilo_stage_lima_stage_mike_stage_november_stage_oscar_stage_papa_stage_quebec_stage_romeo_stage_sierra_stage_tango_stage_uniform_stage_victor_stage_whiskey_stage_xray_stage_yankee_stage_zulu_stage_end_of_the_relay_chain_that_never_ends

#ifdef __OPTIMIZE__
#define FOLDED 1
#else
#define FOLDED 0
#endif

volatile long g_sink;
static char g_dst[(1 << 20) + 64], g_src[(1 << 20) + 64];

__attribute__((noinline)) uint64_t spin_add(uint64_t n) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < n; i++)
    s += 7;
  return s;
}

__attribute__((noinline)) uint64_t spin_pair(uint64_t n, uint64_t m) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < n; i++)
    s += 3;
  for (uint64_t j = 0; j < m; j++)
    s += 5;
  return s;
}

typedef long (*tfn)(long);
#define TS(i) static long t##i(long x) { return x * (i % 7 + 1) + (x >> (i % 5)) + i; }
#define TG(i) long tg##i(long x) { return (x ^ (i * 31)) - i; }
TS(0) TS(1) TS(2) TS(3) TS(4) TS(5) TS(6) TS(7) TS(8) TS(9)
TG(10) TG(11) TG(12) TG(13) TG(14) TG(15) TG(16) TG(17) TG(18) TG(19)
static long größe(long x) { return x * 2 + 1; }
long λ_twice(long x) { return x + x; }
long LONGNAME(long x) { return x - 17; }
static long Ωmega(long x) { return x % 1009; }

static const tfn rows[3][16] = {
    {t0, t1, t2, t3, t4, t5, t6, t7, tg10, tg11, tg12, tg13, größe, λ_twice, LONGNAME, Ωmega},
    {t8, t9, tg14, tg15, tg16, tg17, tg18, tg19, t0, t2, t4, t6, tg10, tg12, größe, LONGNAME},
    {Ωmega, λ_twice, t1, t3, t5, t7, t9, tg11, tg13, tg15, tg17, tg19, t8, tg14, tg16, tg18},
};

__attribute__((noinline)) long table_site(int sel, int k, long x) { return rows[sel % 3][k & 15](x); }

__attribute__((noinline)) long hot_site(int i, long x) {
  int k = i % 97 == 0 ? (i / 97) % 16 : 5;
  return rows[1][k](x);
}

__attribute__((noinline)) long walk(int depth, long x) {
  if (depth <= 0)
    return x;
  long y = rows[depth % 3][(depth * 7) & 15](x) % 100003;
  return walk(depth - 1, y) + 1;
}

static long ping(int n, long x);
static long pong(int n, long x);
static long (*const pp[2])(int, long) = {ping, pong};
static long ping(int n, long x) { return n ? pp[(n + x) & 1](n - 1, x + 1) : x; }
static long pong(int n, long x) { return n ? pp[(n * 3 + x) & 1](n - 1, x * 2 % 9973) : x; }

#define C1(n) case n: r = x * (n % 13) + n; break;
#define C10(a) C1(a##0) C1(a##1) C1(a##2) C1(a##3) C1(a##4) C1(a##5) C1(a##6) C1(a##7) C1(a##8) C1(a##9)
__attribute__((noinline)) long wide_switch(int v, long x) {
  long r = 0;
  switch (v % 300 + 100) {
    C10(10) C10(11) C10(12) C10(13) C10(14) C10(15) C10(16) C10(17) C10(18) C10(19)
    C10(20) C10(21) C10(22) C10(23) C10(24) C10(25) C10(26) C10(27) C10(28) C10(29)
    C10(30) C10(31) C10(32) C10(33) C10(34) C10(35) C10(36) C10(37) C10(38) C10(39)
  default:
    r = -1;
  }
  return r;
}

static const size_t sizes[] = {0,    1,    2,    3,    4,    5,    6,    7,     8,     9,
                               15,   16,   17,   31,   32,   33,   63,   64,    65,    127,
                               128,  255,  256,  511,  512,  1023, 1024, 2047,  2048,  4095,
                               4096, 4097, 8191, 8192, 8193, 9000, 65536, 100000, 1 << 20};
#define NSIZES (sizeof sizes / sizeof sizes[0])

__attribute__((noinline)) size_t spread_ops(int rounds, int seed) {
  size_t t = 0;
  for (int i = 0; i < rounds; i++) {
    size_t s = sizes[(size_t)(i * 7 + seed) % NSIZES];
    if (s > 8192 && i % 16 != 0)
      s = (size_t)(i % 9);
    memset(g_dst, i & 0x7f, s);
    memcpy(g_dst + 32, g_src, s / 2);
    t += s + (size_t)g_dst[32];
  }
  return t;
}

long never_called(tfn f, size_t n) {
  memset(g_dst, 1, n);
  return f((long)n) + f(3);
}
static long never_target(long x) { return x * 5; }
tfn keep_never = never_target;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int seed = argc > 2 ? atoi(argv[2]) : 1;
  for (int i = 0; i < (1 << 20) + 64; i++)
    g_src[i] = (char)(i * 13 + seed);
  /* -O2 counters: at most 2^56 (the largest a raw profile may hold for
   * releases 19 and 22) except for SEED 5, whose counters go beyond it and
   * add up to more than 2^64. */
  uint64_t big = (uint64_t)n * 3, edge = (uint64_t)seed, rest = (uint64_t)n;
  if (FOLDED && seed == 5) {
    big = UINT64_C(0x8000000000000005);
    edge = UINT64_C(0x8000000000000000) + (uint64_t)n * 1000;
    rest = UINT64_MAX - 20;
  } else if (FOLDED) {
    big = (UINT64_C(1) << 56) - (uint64_t)(seed - 1);
    edge = (UINT64_C(1) << 55) + (uint64_t)n * 1000 + (uint64_t)seed;
    rest = (UINT64_C(1) << 54) - (uint64_t)seed * 4;
  }
  long acc = (long)(spin_add(big) + spin_pair(edge, rest) % 1000);
  for (int i = 0; i < n; i++) {
    int sel = (seed + i / 50) % 3, k = (i * i + seed) % 16;
    acc = (acc + table_site(sel, k, i)) % 1000003;
    acc = (acc + hot_site(i, acc)) % 1000003;
    acc = (acc + wide_switch(i * seed + i / 3, acc & 0xff)) % 1000003;
    if (i % 25 == 0)
      acc = (acc + walk(40 + i % 160, acc) + ping(30 + i % 50, acc)) % 1000003;
  }
  acc += (long)spread_ops(n / 2 + 40, seed);
  if (argc > 5)
    acc += never_called(keep_never, (size_t)n);
  printf("%ld\n", acc % 1000003);
  return 0;
}
