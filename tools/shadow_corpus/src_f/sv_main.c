/* Program half of the sixth shared-library workload: registers fourteen of
 * its own functions (static and global, some with UTF-8 names) with the
 * library, bounces recursion through the library, calls a folded loop of
 * the library with 2^55 iterations and one of its own with 2^56, calls
 * library functions through a table the library hands out (targets in the
 * other module), and has a static größe() like the library's.  No
 * arguments. */
#include <stdint.h>
#include <stdio.h>

typedef long (*cb)(long);
void lib_register(int slot, cb f);
void lib_set_bounce(long (*f)(int, long));
long lib_fire(int rounds);
long lib_bounce(int depth, long x);
uint64_t lib_spin(uint64_t n);
long lib_wide(int v, long x);
const cb *lib_functions(void);

#define MS(i) static long m##i(long x) { return x * (i + 1) % 1009 + i; }
#define MG(i) long mg##i(long x) { return (x ^ i) + 2 * i; }
MS(0) MS(1) MS(2) MS(3) MS(4) MG(5) MG(6) MG(7) MG(8) MG(9) MG(10)
static long größe(long x) { return x - 4; }
long ζeta(long x) { return x * x % 101; }
static long ω(long x) { return -x; }

static long main_bounce(int depth, long x) { return lib_bounce(depth - 1, x * 2 % 10007); }

static uint64_t main_spin(uint64_t n) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < n; i++)
    s += 5;
  return s;
}

int main(void) {
  cb mine[14] = {m0, m1, m2, m3, m4, mg5, mg6, mg7, mg8, mg9, mg10, größe, ζeta, ω};
  for (int i = 0; i < 14; i++)
    lib_register(i, mine[i]);
  lib_set_bounce(main_bounce);
  long acc = lib_fire(200) + lib_bounce(60, 1);
  acc += (long)(lib_spin(UINT64_C(1) << 55) % 1000) + (long)(main_spin(UINT64_C(1) << 56) % 1000);
  for (int i = 0; i < 150; i++)
    acc += lib_wide(100 + (i * 13) % 300, i);
  const cb *t = lib_functions();
  for (int i = 0; i < 30; i++)
    acc += t[i % 3](i);
  printf("%ld\n", acc);
  return 0;
}
