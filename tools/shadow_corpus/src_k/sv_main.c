/* Program half of the eleventh shared-library workload (role of
 * vis_main.c): calls the library's multiversioned lib_kernel() through a
 * wrapper and through a pointer, takes the library's sectioned, hot and
 * cold functions as callbacks and calls them from its own indirect-call
 * site (targets that are the library's records, which read as 0), has its
 * own cold and sectioned functions and its own target_clones function, and
 * lets the library's three threads call back into it.  No arguments. */
#include <stdio.h>

typedef int (*lib_cb)(int);
int lib_kernel_call(int x);
lib_cb lib_kernel_ptr(void);
lib_cb lib_callback(int k);
int lib_ctor_value(void);
int lib_run_threads(lib_cb cb, int n);

static __thread int main_tls;

__attribute__((target_clones("avx2", "default"))) int main_kernel(int x) { return x & 1 ? x * 5 : x / 2; }
__attribute__((section(".text.sv_main_zz"), noinline)) int main_placed(int x) { return x + 11; }
__attribute__((cold, noinline)) int main_cold(int x) { return x ^ 0x3c; }

static int main_back(int x) {
  main_tls++;
  return x % 4 ? main_placed(x) : main_cold(x) + main_kernel(x);
}

int main(void) {
  int acc = lib_ctor_value();
  int (*kp)(int) = lib_kernel_ptr();
  int (*mp)(int) = main_kernel;
  for (int i = 0; i < 60; i++) {
    acc += lib_kernel_call(i) + kp(i + 1) + mp(i);
    lib_cb cb = lib_callback(i * 5 + i / 4);
    acc += cb(i);
    if (i % 6 == 0) acc += main_back(i);
  }
  acc += lib_run_threads(main_back, 12);
  printf("%d %d\n", acc, main_tls);
  return 0;
}
