/* Shared-library half of the sixth shared-library workload: a registry of
 * fourteen callbacks that the executable fills with its own functions, so
 * the library's one indirect-call site sees more than eight targets from
 * another module; recursion that bounces between library and executable
 * through a pointer; a loop the optimizer folds into closed form (a counter
 * of 2^55); a 300-case switch (more than 256 counters); a static function
 * with a UTF-8 name that the executable also uses for a static function; a
 * table of library functions the executable calls through; and a function
 * nobody calls. */
#include <stdint.h>

typedef long (*cb)(long);
static cb registry[14];
static long (*bounce_back)(int, long);

void lib_register(int slot, cb f) { registry[slot % 14] = f; }
void lib_set_bounce(long (*f)(int, long)) { bounce_back = f; }

long lib_fire(int rounds) {
  long acc = 0;
  for (int i = 0; i < rounds; i++) {
    int k = (i * i + i / 5) % 14;
    acc = (acc + registry[k](i + acc % 31)) % 1000003;
  }
  return acc;
}

long lib_bounce(int depth, long x) { return depth <= 0 ? x : bounce_back(depth - 1, x + 3); }

uint64_t lib_spin(uint64_t n) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < n; i++)
    s += 2;
  return s;
}

#define C1(n) case n: r = x + n % 17; break;
#define C10(a) C1(a##0) C1(a##1) C1(a##2) C1(a##3) C1(a##4) C1(a##5) C1(a##6) C1(a##7) C1(a##8) C1(a##9)
long lib_wide(int v, long x) {
  long r = 0;
  switch (v) {
    C10(10) C10(11) C10(12) C10(13) C10(14) C10(15) C10(16) C10(17) C10(18) C10(19)
    C10(20) C10(21) C10(22) C10(23) C10(24) C10(25) C10(26) C10(27) C10(28) C10(29)
    C10(30) C10(31) C10(32) C10(33) C10(34) C10(35) C10(36) C10(37) C10(38) C10(39)
  default:
    r = -x;
  }
  return r;
}

static long größe(long x) { return x * 4 + 1; }
static long l_half(long x) { return x / 2; }
long l_mod(long x) { return x % 61; }
static const cb lib_table[3] = {größe, l_half, l_mod};
const cb *lib_functions(void) { return lib_table; }

static long lib_dead(long x) { return x ? lib_dead(x - 1) * 2 : 1; }
cb lib_keep = lib_dead;
