/* Eleventh temporal workload (role of phases.c).  Twenty-four step functions
 * whose addresses and record order disagree: eight cold (.text.unlikely,
 * before .text), eight hot (.text.hot) and eight in custom sections
 * (.text.zzz_order and the orphan section sv_order_far), defined
 * interleaved.  Three pthreads take the digits of argv[1] in lock-step
 * turns (digit i goes to thread i % 3, strictly in order, so the trace is
 * deterministic); each digit calls a digit-dependent walk over the steps,
 * so the order in which functions are FIRST called (their timestamps)
 * follows the digits and the threads; the thread start function and
 * _Thread_local state are first touched inside the threads.  On x86-64 a
 * target_clones function (its clones and resolver are records of their
 * own; the resolver runs when the ifunc is first bound, which may be
 * before main) is called through a pointer by some digits only.  Functions
 * no run reaches, in every kind of section.  argv: DIGITS. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned sink;
static _Thread_local unsigned tl_steps;

#define COLD __attribute__((cold, noinline))
#define HOT __attribute__((hot, noinline))
#define SECT __attribute__((section(".text.zzz_order"), noinline))
#define FAR __attribute__((section("sv_order_far"), noinline))
#define STEP(attr, name, k) \
  attr unsigned name(unsigned x) { tl_steps++; sink += (k); return x * (k) + ((x >> 3) ^ (k)); }

STEP(COLD, step_c0, 1) STEP(HOT, step_h0, 2) STEP(SECT, step_s0, 3) STEP(FAR, step_f0, 4)
STEP(HOT, step_h1, 5) STEP(COLD, step_c1, 6) STEP(FAR, step_f1, 7) STEP(SECT, step_s1, 8)
STEP(SECT, step_s2, 9) STEP(FAR, step_f2, 10) STEP(COLD, step_c2, 11) STEP(HOT, step_h2, 12)
STEP(FAR, step_f3, 13) STEP(SECT, step_s3, 14) STEP(HOT, step_h3, 15) STEP(COLD, step_c3, 16)
STEP(COLD, step_c4, 17) STEP(HOT, step_h4, 18) STEP(SECT, step_s4, 19) STEP(FAR, step_f4, 20)
STEP(HOT, step_h5, 21) STEP(COLD, step_c5, 22) STEP(FAR, step_f5, 23) STEP(SECT, step_s5, 24)

/* Never reached. */
STEP(COLD, unused_c, 90) STEP(HOT, unused_h, 91) STEP(SECT, unused_s, 92) STEP(FAR, unused_f, 93)

#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default"))) unsigned versioned(unsigned x) {
  return x & 1 ? x * 3 : x / 2;
}
#else
unsigned versioned(unsigned x) { return x + 1; }
#endif

typedef unsigned (*step_fn)(unsigned);
static step_fn steps[24] = {
    step_c0, step_h0, step_s0, step_f0, step_h1, step_c1, step_f1, step_s1,
    step_s2, step_f2, step_c2, step_h2, step_f3, step_s3, step_h3, step_c3,
    step_c4, step_h4, step_s4, step_f4, step_h5, step_c5, step_f5, step_s5,
};

__attribute__((noinline)) static unsigned walk(int digit, int me) {
  unsigned acc = (unsigned)digit;
  int start = (digit * 5 + me * 7) % 24, stride = digit % 4 + 1;
  for (int k = 0; k < 3 + digit % 3; k++) acc = steps[(start + k * stride) % 24](acc);
  if (digit == 7 || digit == 3) {
    unsigned (*vp)(unsigned) = versioned;
    acc += vp(acc);
  }
  return acc;
}

static const char *digits;
static int ndigits, turn;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static unsigned results[3];

static void *worker(void *arg) {
  int me = (int)(long)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    while (turn < ndigits && turn % 3 != me) pthread_cond_wait(&cond, &lock);
    if (turn >= ndigits) {
      pthread_mutex_unlock(&lock);
      break;
    }
    results[me] += walk(digits[turn] - '0', me);
    turn++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
  }
  results[me] += tl_steps;
  return 0;
}

int main(int argc, char **argv) {
  digits = argc > 1 ? argv[1] : "0";
  ndigits = (int)strlen(digits);
  pthread_t th[3];
  for (long t = 0; t < 3; t++) pthread_create(&th[t], 0, worker, (void *)t);
  for (int t = 0; t < 3; t++) pthread_join(th[t], 0);
  printf("%u %u %u\n", results[0], results[1], results[2]);
  return 0;
}
