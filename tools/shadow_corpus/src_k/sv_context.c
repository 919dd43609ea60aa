/* Eleventh context-sensitive PGO workload (role of cspgo.c).  Function
 * multiversioning under both stages: target_clones functions (avx2 /
 * default, and avx2 / sse4.2 / default) whose clones take the profile of
 * stage 1 by their dotted names (f.avx2.0, f.default.1, f.resolver) and
 * then get CS counters of their own, with an always_inline helper inlined
 * into every clone from different contexts; functions placed in custom
 * sections, hot and cold functions (so the records of each stage are not in
 * address order) that call a shared static helper which is inlined into
 * some callers and not others; two pthreads running the same functions in
 * lock-step turns (deterministic counts), with _Thread_local state; a
 * callback table reaching cold and sectioned functions; and a function
 * that only the COUNT < 200 run reaches.  argv: COUNT. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;
static _Thread_local unsigned tl_hits;

__attribute__((always_inline)) static inline unsigned mix_in(unsigned x, unsigned k) {
  if (x % k == 0) return x / k;
  if (x & 1) return x * 3 + k;
  return x + k;
}

static unsigned helper(unsigned x) {
  unsigned s = 0;
  for (unsigned k = 1; k < (x & 7) + 2; k++) s += mix_in(x + k, k + 1);
  return s;
}

__attribute__((section(".text.sv_ctx_b"), noinline)) unsigned in_section_b(unsigned x) {
  return helper(x) + (x > 500 ? 1 : 2);
}
__attribute__((section(".text.sv_ctx_a"), noinline)) unsigned in_section_a(unsigned x) {
  return x % 3 ? helper(x ^ 5) : in_section_b(x / 3);
}
__attribute__((cold, noinline)) unsigned rare_path(unsigned x) {
  return helper(x) * 2 + mix_in(x, 9);
}
__attribute__((hot, noinline)) unsigned hot_path(unsigned x) {
  unsigned r = mix_in(x, 3);
  if (r > 1000) r = rare_path(r);
  return r + helper(r & 63);
}

#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default"))) unsigned versioned(unsigned x) {
  unsigned s = 0;
  for (unsigned k = 0; k < (x & 31); k++) s += mix_in(x + k, 5);
  return s;
}
__attribute__((target_clones("avx2", "sse4.2", "default"))) unsigned versioned3(unsigned x) {
  return x & 4 ? hot_path(x) : mix_in(x, 7);
}
#else
static unsigned versioned(unsigned x) { return helper(x); }
static unsigned versioned3(unsigned x) { return hot_path(x); }
#endif

typedef unsigned (*cb_fn)(unsigned);
static cb_fn callbacks[] = {in_section_a, hot_path, rare_path, in_section_b, versioned, versioned3};

__attribute__((noinline)) static unsigned small_only(unsigned x) {
  return x < 10 ? in_section_b(x) : rare_path(x);
}

/* Two threads, strictly alternating. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int turn, rounds;
static unsigned results[2];

__attribute__((noinline)) static unsigned thread_step(int me, int r) {
  unsigned x = (unsigned)(r * 31 + me * 7);
  tl_hits++;
  return me ? versioned(x) + hot_path(x) : callbacks[(unsigned)r % 6](x) + in_section_a(x);
}

static void *worker(void *arg) {
  int me = (int)(long)arg;
  for (int r = 0; r < rounds; r++) {
    pthread_mutex_lock(&lock);
    while (turn % 2 != me) pthread_cond_wait(&cond, &lock);
    results[me] += thread_step(me, r);
    turn++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
  }
  results[me] += tl_hits;
  return 0;
}

int main(int argc, char **argv) {
  int count = argc > 1 ? atoi(argv[1]) : 100;
  unsigned acc = 0;
  for (int i = 0; i < count * 10; i++) {
    unsigned x = (unsigned)i * 2654435761u >> 7;
    acc += hot_path(x);
    acc += versioned(x) + versioned3(x >> 2);
    if (i % 7 == 0) acc += in_section_a(x);
    if (i % 97 == 0) acc += rare_path(x);
    acc += callbacks[x % 6](x & 0xfff);
  }
  if (count < 200) acc += small_only((unsigned)count);
  rounds = count / 10;
  pthread_t th[2];
  for (long t = 0; t < 2; t++) pthread_create(&th[t], 0, worker, (void *)t);
  for (int t = 0; t < 2; t++) pthread_join(th[t], 0);
  sink = acc;
  printf("%u %u %u %u\n", acc, results[0], results[1], tl_hits);
  return 0;
}
