/* Eleventh value-profiling workload (role of vp_calls.c).  The indirect-call
 * targets are placed so that their addresses are NOT in the order of the
 * profile's data records: some are cold (.text.unlikely, laid out before
 * .text), some hot (.text.hot), some in custom sections (.text.zzz_late,
 * .text.aaa_early) and some in an orphan executable section (sv_far_code,
 * placed by the linker after .text); the file defines them in an order
 * unrelated to all of these.  On x86-64, function multiversioning:
 * target_clones functions with two and three versions (clones with dotted
 * names, an ifunc and an instrumented resolver), called directly and
 * through the pointer table (the pointer is the ifunc's, the value is the
 * version the resolver picked).  Three pthreads run the same worker
 * function in lock-step turns (deterministic), so the same counters and
 * value sites are hit from every thread, with _Thread_local state;
 * memset/memmove/memcpy with sizes 0 to 100,000 chosen from data, among
 * them every bucket edge (8, 9, 16, 17, 8192, 8193, ...); a loop whose
 * counter passes 2**31 when optimized (the optimizer folds it; smaller at
 * -O0); functions never called, in custom sections too.  argv: COUNT SEED. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned (*op_fn)(unsigned);
static volatile unsigned sink;

#define COLD __attribute__((cold, noinline))
#define HOT __attribute__((hot, noinline))
#define LATE __attribute__((section(".text.zzz_late"), noinline))
#define EARLY __attribute__((section(".text.aaa_early"), noinline))
#define FAR __attribute__((section("sv_far_code"), noinline))

LATE unsigned op_late_a(unsigned x) { return x * 7 + 3; }
HOT unsigned op_hot_a(unsigned x) { return x ^ (x >> 3); }
COLD unsigned op_cold_a(unsigned x) { return x > 100 ? x - 100 : x + 5; }
unsigned op_plain_a(unsigned x) { unsigned s = 0; while (x) { s += x & 3; x >>= 2; } return s; }
FAR unsigned op_far_a(unsigned x) { return (x << 5) | (x >> 27); }
EARLY unsigned op_early_a(unsigned x) { return x % 13 == 0 ? x / 13 : x * 2; }
COLD static unsigned op_cold_static(unsigned x) { return ~x; }
FAR static unsigned op_far_static(unsigned x) { return x + 0x1234; }
HOT static unsigned op_hot_static(unsigned x) { return x * x; }
LATE unsigned op_late_b(unsigned x) { return x & 0xff00 ? x >> 8 : x << 8; }
unsigned op_plain_b(unsigned x) { return x + (x >> 4); }
EARLY unsigned op_early_b(unsigned x) { unsigned r = 1; for (unsigned k = 0; k < (x & 7); k++) r *= 3; return r; }
COLD unsigned op_cold_b(unsigned x) { return x | 1; }
HOT unsigned op_hot_b(unsigned x) { return x - (x >> 2); }
FAR unsigned op_far_b(unsigned x) { return x % 3 ? x : x / 3; }

#if defined(__x86_64__)
/* Multiversioned functions (the i386 build links them non-PIC, which ld
 * refuses for ifunc calls, so only x86-64 has them). */
__attribute__((target_clones("avx2", "default"))) unsigned mv_two(unsigned x) {
  unsigned s = 0;
  for (unsigned k = 0; k < (x & 15); k++) s += k * x;
  return s;
}
__attribute__((target_clones("avx2", "sse4.2", "default"))) unsigned mv_three(unsigned x) {
  return x & 1 ? x * 5 : x / 2;
}
#define MV_TWO mv_two
#define MV_THREE mv_three
#else
#define MV_TWO op_plain_a
#define MV_THREE op_plain_b
#endif

/* Never called (two in sections). */
COLD unsigned never_cold(unsigned x) { return x * 99; }
FAR unsigned never_far(unsigned x) { op_fn f = x ? op_far_a : op_cold_a; return f(x); }
unsigned never_plain(unsigned x) { memcpy((void *)&sink, &x, x & 3); return x; }

static op_fn table[] = {
    op_far_b, op_hot_a, op_cold_a, op_early_a, op_plain_a, op_late_a, op_far_a,
    op_cold_static, op_hot_static, op_late_b, op_plain_b, op_far_static,
    op_early_b, op_cold_b, op_hot_b, MV_TWO, MV_THREE,
};
#define NTAB (sizeof table / sizeof table[0])

static unsigned rng_next(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 8) & 0xffffff;
}

/* Sizes at and around every bucket edge, then data-chosen sizes. */
static const unsigned edges[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024,
                                 1025, 4095, 4096, 4097, 8191, 8192, 8193, 65535, 65536,
                                 65537, 99999, 100000};
#define NEDGES (sizeof edges / sizeof edges[0])
static unsigned char buf_a[100001], buf_b[100001];

__attribute__((noinline)) static void mem_ops(unsigned size, unsigned how) {
  switch (how % 3) {
  case 0: memset(buf_a, (int)how, size); break;
  case 1: memcpy(buf_b, buf_a, size); break;
  default: memmove(buf_a + 1, buf_a, size > 100000 ? 100000 : size); break;
  }
  sink += buf_a[size / 2] + buf_b[size / 3];
}

/* Lock-step threads: thread i runs only on turns i, i+3, i+6, ... */
static pthread_mutex_t turn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_cond = PTHREAD_COND_INITIALIZER;
static int turn;
static _Thread_local unsigned tl_calls, tl_seed;
static int rounds;
static unsigned totals[3];

__attribute__((noinline)) static unsigned shared_work(unsigned r) {
  unsigned v = rng_next(&tl_seed);
  unsigned acc = table[v % NTAB](v + r);
  if (v % 5 == 0) acc += table[(v >> 4) % 4](r);
  mem_ops(edges[(v >> 6) % NEDGES] % 20000, v >> 3);
  tl_calls++;
  return acc;
}

static void *worker(void *arg) {
  int me = (int)(long)arg;
  tl_seed = 1000u + (unsigned)me;
  for (int r = 0; r < rounds; r++) {
    pthread_mutex_lock(&turn_lock);
    while (turn % 3 != me) pthread_cond_wait(&turn_cond, &turn_lock);
    totals[me] += shared_work((unsigned)r);
    turn++;
    pthread_cond_broadcast(&turn_cond);
    pthread_mutex_unlock(&turn_lock);
  }
  totals[me] += tl_calls;
  return 0;
}

/* A loop the optimizer turns into one addition per call. */
__attribute__((noinline)) static unsigned long long long_loop(unsigned long long n) {
  unsigned long long s = 0;
  for (unsigned long long k = 0; k < n; k++) s += 3;
  return s;
}

int main(int argc, char **argv) {
  int count = argc > 1 ? atoi(argv[1]) : 100;
  unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
  const unsigned seed0 = seed;
  unsigned acc = 0;
  for (int i = 0; i < count * 20; i++) {
    unsigned v = rng_next(&seed);
    acc += table[(v ^ (v >> 9)) % NTAB](v);
    acc += table[((unsigned)i * 7u + seed) % 5u](acc);
    acc += MV_TWO(v) + MV_THREE(acc);
    mem_ops(v % 9 == 0 ? v % 100001 : v % 300, v >> 5);
  }
  for (unsigned e = 0; e < NEDGES; e++)
    for (unsigned k = 0; k <= (e % 4) + (unsigned)count % 3; k++) mem_ops(edges[e], e + k);
  rounds = count / 20 + 3;
  pthread_t th[3];
  for (long t = 0; t < 3; t++) pthread_create(&th[t], 0, worker, (void *)t);
  for (int t = 0; t < 3; t++) pthread_join(th[t], 0);
#ifdef __OPTIMIZE__
  unsigned long long big = (unsigned long long)count * 1100000ull;
#else
  unsigned long long big = (unsigned long long)count * 100ull;
#endif
  unsigned long long lp = long_loop(big) + long_loop(big / 2 + seed0);
  printf("%u %u %u %u %llu\n", acc, totals[0], totals[1], totals[2], lp);
  return 0;
}
