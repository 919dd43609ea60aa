/* Eleventh coverage workload (role of cov_demo.c).  The file includes itself
 * twice as a ".inc" (#include __FILE__ under #line "sv_shapes.inc"), with
 * different macros each time, so one set of lines defines two families of
 * functions (narrow_* and wide_*) whose #if/#else arms, macro-made branches
 * and static inline helpers differ; 48 static inline functions made by a
 * macro that no run and no caller uses (their names go to the profile's
 * name table with no data record: clang's unused-function coverage
 * records), and some used in only one of the two families; #if 0 regions
 * between and inside functions; macros that expand to a whole function
 * definition with branches, and to statement expressions with branches;
 * functions in custom sections, hot and cold; on x86-64, target_clones
 * functions (one record per clone, same source regions) called directly
 * and through a pointer; three pthreads running the same functions in
 * lock-step turns (deterministic counts); a function called exactly once
 * and functions no run calls.  argv: COUNT. */
#if !defined(SV_PART)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

/* 48 static inline functions nobody calls. */
#define UNUSED_FN(n) \
  static inline int unused_##n(int x) { if (x > n) return x - n; return x * n; }
#define UNUSED8(p) UNUSED_FN(p##0) UNUSED_FN(p##1) UNUSED_FN(p##2) UNUSED_FN(p##3) \
                   UNUSED_FN(p##4) UNUSED_FN(p##5) UNUSED_FN(p##6) UNUSED_FN(p##7)
UNUSED8(1) UNUSED8(2) UNUSED8(3) UNUSED8(4) UNUSED8(5) UNUSED8(6)

/* A macro that is a whole function definition with branches. */
#define DEFINE_BUCKET(name, lo, hi)            \
  int name(int v) {                            \
    if (v < (lo)) return -1;                   \
    else if (v > (hi)) return 1;               \
    return 0;                                  \
  }
DEFINE_BUCKET(bucket_small, 0, 10)
DEFINE_BUCKET(bucket_mid, 10, 1000)
DEFINE_BUCKET(bucket_never, -5, 5)

/* Statement expressions holding branches. */
#define PICK(a, b) ({ int _a = (a), _b = (b); _a > _b ? _a - _b : _b - _a; })
#define SAFE_DIV(a, b) ({ int _d = (b); _d == 0 ? 0 : (a) / _d; })

#if 0
int skipped_function(int x) { return x * 1000; }
#endif

/* First instance of the shapes: narrow family. */
#define SV_PART 1
#define FAMILY(n) narrow_##n
#define LIMIT 16
#define USE_TABLE 0
#include __FILE__
#undef FAMILY
#undef LIMIT
#undef USE_TABLE
#undef SV_PART

/* Second instance: wide family. */
#define SV_PART 2
#define FAMILY(n) wide_##n
#define LIMIT 4096
#define USE_TABLE 1
#include __FILE__
#undef FAMILY
#undef LIMIT
#undef USE_TABLE
#undef SV_PART

__attribute__((section(".text.sv_cov_late"), noinline)) int late_fn(int x) {
  int r = 0;
  for (int k = 0; k < x % 9; k++) {
#if 0
    r += 1000;
#endif
    r += PICK(k, x);
  }
  return r;
}
__attribute__((cold, noinline)) int cold_fn(int x) { return x < 0 ? -x : SAFE_DIV(x, x % 5); }
__attribute__((hot, noinline)) int hot_fn(int x) { return x & 1 ? late_fn(x) : x / 2; }

#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default"))) int versioned(int x) {
  int s = 0;
  for (int k = 0; k < (x & 7); k++)
    if (k % 3) s += k; else s -= x;
  return s;
}
#else
int versioned(int x) { return x + 1; }
#endif

int called_once(int x) { return x ? bucket_small(x) : 0; }
int never_called(int x) { return wide_count(x) + narrow_count(x); }

/* Lock-step threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int turn, rounds;
static int results[3];

static int thread_step(int me, int r) {
  switch (me) {
  case 0: return narrow_count(r) + hot_fn(r);
  case 1: return wide_count(r * 37) + versioned(r);
  default: return bucket_mid(r * 11) + late_fn(r);
  }
}

static void *worker(void *arg) {
  int me = (int)(long)arg;
  for (int r = 0; r < rounds; r++) {
    pthread_mutex_lock(&lock);
    while (turn % 3 != me) pthread_cond_wait(&cond, &lock);
    results[me] += thread_step(me, r);
    turn++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
  }
  return 0;
}

int main(int argc, char **argv) {
  int count = argc > 1 ? atoi(argv[1]) : 1;
  int acc = called_once(count);
  int (*vp)(int) = versioned;
  for (int i = 0; i < count * 300; i++) {
    acc += narrow_count(i) + wide_count(i * 13) + narrow_scale(i) + wide_scale(i);
    acc += bucket_small(i % 20) + bucket_mid(i) + hot_fn(i);
    if (i % 50 == 0) acc += cold_fn(i - 100);
    acc += i % 2 ? versioned(i) : vp(i);
  }
  rounds = count * 20;
  pthread_t th[3];
  for (long t = 0; t < 3; t++) pthread_create(&th[t], 0, worker, (void *)t);
  for (int t = 0; t < 3; t++) pthread_join(th[t], 0);
  sink = acc;
  printf("%d %d %d %d\n", acc, results[0], results[1], results[2]);
  return 0;
}

#else /* SV_PART: the shapes, once per family */
#line 1 "sv_shapes.inc"
static inline int FAMILY(helper)(int x) { return x % LIMIT; }
static inline int FAMILY(only_in_narrow)(int x) { return x - LIMIT; }

int FAMILY(count)(int x) {
  int n = 0;
#if USE_TABLE
  static const int table[] = {1, 3, 5, 7, 11, 13};
  for (int k = 0; k < 6; k++)
    if (x % table[k] == 0) n++;
#else
  while (x > LIMIT) {
    x /= 2;
    n++;
  }
#endif
#if 0
  n = -1;
#endif
  return n + FAMILY(helper)(x);
}

int FAMILY(scale)(int x) {
#if SV_PART == 1
  return x > LIMIT ? FAMILY(only_in_narrow)(x) : PICK(x, LIMIT);
#else
  return x > LIMIT ? SAFE_DIV(x, LIMIT) : x;
#endif
}
#endif
