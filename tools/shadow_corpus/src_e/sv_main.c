/* Program half of the fifth shared-library workload: calls the library's
 * callback registry with its own functions (so the library's value site
 * sees targets from this module), calls library functions through a struct
 * of pointers the library fills in, and has a static function with the
 * same name as a static function of the library. */
#include <stdio.h>

typedef int (*cb)(int);
struct lib_api { cb one, two; int (*pair)(int, int); };
void lib_register(int slot, cb f);
int lib_fire(int rounds);
void lib_fill(struct lib_api *api);
int lib_loop(int n);

static int local_twin(int x) { return x * 5 % 101; }
static int m_add(int x) { return x + 7; }
static int m_mul(int x) { return x * 3 % 1009; }
int m_neg(int x) { return -x; }

int main(void) {
  struct lib_api api;
  lib_register(0, m_add);
  lib_register(1, m_mul);
  lib_register(2, m_neg);
  lib_register(3, local_twin);
  lib_fill(&api);
  int acc = lib_fire(50) + lib_loop(30);
  for (int i = 0; i < 25; i++)
    acc += api.one(i) + api.two(i) + api.pair(i, acc & 31);
  printf("%d\n", acc);
  return 0;
}
