/* First of the eleventh pair of programs sharing function names (role of
 * hash_a.c).  Against sv_hash_b.c: blend() is a target_clones function here
 * (records blend.avx2.0, blend.default.1 and blend.resolver), while
 * sv_hash_b.c defines plain functions spelled blend.default.1 and
 * blend.resolver through asm labels (same names, other bodies, hashes and
 * counter counts; blend.avx2.0 exists only here); placed() is in a custom
 * section here and in .text there, with a loop here and an if there;
 * chill() is cold in both, with a switch here and a loop there; worker()
 * runs in two lock-step pthreads here and directly there; step() and
 * merge_me() (names also in the corpus's text inputs) differ; twin() is
 * identical; only_a() exists only here, and 16 unused static inline
 * functions add nothing.  No arguments. */
#include <pthread.h>
#include <stdio.h>

int step(int x) { return x & 1 ? 3 * x + 1 : x / 2; }
int merge_me(int v) { return v > 3 ? v - 3 : v; }
int twin(int a, int b) { return a > b ? a : b; }
static int only_a(int x) { return x * x; }

#define UNUSED(n) static inline int unused_##n(int x) { return x > n ? x : -x; }
UNUSED(0) UNUSED(1) UNUSED(2) UNUSED(3) UNUSED(4) UNUSED(5) UNUSED(6) UNUSED(7)
UNUSED(8) UNUSED(9) UNUSED(10) UNUSED(11) UNUSED(12) UNUSED(13) UNUSED(14) UNUSED(15)

__attribute__((target_clones("avx2", "default"))) int blend(int x) {
  int s = 0;
  for (int k = 0; k < (x & 7); k++) s += k * x;
  return s;
}

__attribute__((section(".text.sv_hash_zz"), noinline)) int placed(int x) {
  int r = 0;
  for (int k = 0; k < x % 5; k++) r += k;
  return r;
}

__attribute__((cold, noinline)) int chill(int x) {
  switch (x % 4) {
  case 0: return 1;
  case 1: return x;
  case 2: return -x;
  default: return 0;
  }
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int turn;
static int results[2];

int worker_step(int me, int r) { return me ? blend(r) + placed(r) : chill(r) + step(r); }

static void *worker(void *arg) {
  int me = (int)(long)arg;
  for (int r = 0; r < 10; r++) {
    pthread_mutex_lock(&lock);
    while (turn % 2 != me) pthread_cond_wait(&cond, &lock);
    results[me] += worker_step(me, r);
    turn++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
  }
  return 0;
}

int main(void) {
  int acc = 0;
  int (*bp)(int) = blend;
  for (int i = 0; i < 12; i++)
    acc += step(i) + merge_me(i) + twin(i, 6) + only_a(i) + blend(i) + bp(i + 1) + placed(i) + chill(i);
  pthread_t th[2];
  for (long t = 0; t < 2; t++) pthread_create(&th[t], 0, worker, (void *)t);
  for (int t = 0; t < 2; t++) pthread_join(th[t], 0);
  printf("%d %d %d\n", acc, results[0], results[1]);
  return 0;
}
