/* Shared-library half of the eleventh shared-library workload (role of
 * vis_lib.c): an exported target_clones function (an ifunc in a shared
 * object: its resolver is a record of the library, run by the dynamic
 * loader when the symbol is bound) that the executable calls through a
 * wrapper and through a pointer the library hands out; functions in custom
 * sections, hot and cold, whose addresses are out of record order, handed
 * to the executable as callbacks; lib_run_threads() starts three pthreads
 * inside the library that call back into the executable in lock-step
 * turns (deterministic); thread-local state in the library (general-dynamic
 * TLS, reached through __tls_get_addr); a constructor and functions nobody
 * calls. */
#include <pthread.h>

typedef int (*lib_cb)(int);
static volatile int lib_sink;
static __thread int lib_tls_calls;
static __thread int lib_tls_sum;

__attribute__((target_clones("avx2", "default"))) int lib_kernel(int x) {
  int s = 0;
  for (int k = 0; k < (x & 15); k++) s += (k ^ x) & 7;
  return s;
}
/* clang 14 and 16 name the ifunc lib_kernel.ifunc, so other files reach it
 * through these. */
int lib_kernel_call(int x) { return lib_kernel(x); }
lib_cb lib_kernel_ptr(void) { return lib_kernel; }

__attribute__((section(".text.sv_lib_zz"), noinline)) int lib_placed(int x) { return x % 3 ? x * 2 : x / 3; }
__attribute__((section("sv_lib_far"), noinline)) int lib_far(int x) { return x > 50 ? x - 50 : x + 7; }
__attribute__((cold, noinline)) int lib_cold(int x) { return -x; }
__attribute__((hot, noinline)) int lib_hot(int x) { lib_tls_calls++; return x + lib_tls_calls; }
__attribute__((cold, noinline)) int lib_cold_unused(int x) { return x * 1000; }

static lib_cb lib_table[] = {lib_far, lib_hot, lib_placed, lib_cold};
lib_cb lib_callback(int k) { return lib_table[k & 3]; }

static int ctor_ran;
__attribute__((constructor)) static void lib_ctor(void) { ctor_ran = lib_kernel(5) + 1; }
int lib_ctor_value(void) { return ctor_ran; }

/* Threads inside the library, calling back into the executable. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int turn, rounds;
static lib_cb thread_cb;
static int results[3];

__attribute__((noinline)) static int lib_step(int me, int r) {
  lib_tls_sum += r;
  int v = thread_cb(r * 3 + me) + lib_table[(r + me) & 3](r);
  return v + lib_kernel(v) + lib_tls_sum;
}

static void *lib_worker(void *arg) {
  int me = (int)(long)arg;
  for (int r = 0; r < rounds; r++) {
    pthread_mutex_lock(&lock);
    while (turn % 3 != me) pthread_cond_wait(&cond, &lock);
    results[me] += lib_step(me, r);
    turn++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
  }
  return 0;
}

int lib_run_threads(lib_cb cb, int n) {
  thread_cb = cb;
  rounds = n;
  turn = 0;
  pthread_t th[3];
  for (long t = 0; t < 3; t++) pthread_create(&th[t], 0, lib_worker, (void *)t);
  for (int t = 0; t < 3; t++) pthread_join(th[t], 0);
  return results[0] + results[1] + results[2];
}

int lib_unused(int x) { return lib_cold_unused(x) + lib_run_threads(0, 0); }
