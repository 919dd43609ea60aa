/* Third value-profiling workload: an indirect-call site that sees forty
 * targets (far more than the runtime keeps per site), functions whose
 * symbol names carry dots and dollars (asm labels), a name of several
 * hundred characters, a 64-case switch, memory operations whose sizes
 * cover every size bucket up to 64 KiB, a function with a single counter
 * that runs millions of times, and a function no run calls.
 * argv: COUNT SEED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*t_fn)(int);

#define T(n) static int t_##n(int x) { return x * (n + 1) + (n); }
T(0) T(1) T(2) T(3) T(4) T(5) T(6) T(7) T(8) T(9)
T(10) T(11) T(12) T(13) T(14) T(15) T(16) T(17) T(18) T(19)
T(20) T(21) T(22) T(23) T(24) T(25) T(26) T(27) T(28) T(29)
T(30) T(31) T(32) T(33) T(34) T(35) T(36) T(37) T(38) T(39)
#undef T

static t_fn forty[] = {
    t_0,  t_1,  t_2,  t_3,  t_4,  t_5,  t_6,  t_7,  t_8,  t_9,  t_10, t_11, t_12, t_13,
    t_14, t_15, t_16, t_17, t_18, t_19, t_20, t_21, t_22, t_23, t_24, t_25, t_26, t_27,
    t_28, t_29, t_30, t_31, t_32, t_33, t_34, t_35, t_36, t_37, t_38, t_39};

int dotted(int x) __asm__("value.dotted$fn");
int dotted(int x) { return x > 3 ? x - 3 : x + 3; }
int dollar(int x) __asm__("$value$dollar");
int dollar(int x) { return x ^ 0x55; }

int a_function_whose_name_goes_on_and_on_to_test_long_names_in_the_name_table_of_a_profile_0123456789_abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ_and_then_some_more_characters_until_it_is_well_past_two_hundred_and_fifty_five_bytes_long_which_is_where_some_length_fields_would_overflow_xyz(int x) {
  return x * 3;
}

static unsigned st = 1;
static unsigned next_rand(void) {
  st ^= st << 13;
  st ^= st >> 17;
  st ^= st << 5;
  return st;
}

int fan_out(int x, int skew) {
  unsigned k = skew ? next_rand() % 40u : (unsigned)x % 3u;
  int r = forty[k](x);
  r += forty[(k * 7u + 1u) % 40u](r & 0xff);
  return r;
}

int big_switch(int v) {
  switch (v & 63) {
#define C(n) case n: return v + n * 3;
    C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10) C(11) C(12) C(13) C(14) C(15)
    C(16) C(17) C(18) C(19) C(20) C(21) C(22) C(23) C(24) C(25) C(26) C(27) C(28) C(29)
    C(30) C(31) C(32) C(33) C(34) C(35) C(36) C(37) C(38) C(39) C(40) C(41) C(42) C(43)
    C(44) C(45) C(46) C(47) C(48) C(49) C(50) C(51) C(52) C(53) C(54) C(55) C(56) C(57)
    C(58) C(59) C(60) C(61) C(62)
#undef C
  default:
    return -v;
  }
}

static char big_a[70000], big_b[70000];

size_t sizes_everywhere(int rounds) {
  size_t t = 0;
  for (int i = 0; i < rounds; i++) {
    unsigned len = (unsigned)1 << (unsigned)(i % 17);
    len += (unsigned)(i % 3) - 1u;
    if (len > 65536u)
      len = 65536u;
    memcpy(big_a, big_b, len);
    memset(big_b, i, len / 3);
    t += (unsigned char)big_a[len / 2];
  }
  return t;
}

int tick(int x) { return x + 1; }

int never_called(int x) {
  if (x > 10)
    return dotted(x);
  return dollar(x);
}
int (*keep_never)(int) = never_called;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int seed = argc > 2 ? atoi(argv[2]) : 1;
  st = (unsigned)seed * 2246822519u + 1u;
  long long acc = 0;
  for (int i = 0; i < n; i++) {
    acc += fan_out(i, seed % 2);
    acc += big_switch(i * seed);
    acc += dotted(i) + (i % 4 == 0 ? dollar(i) : 0);
  }
  acc += a_function_whose_name_goes_on_and_on_to_test_long_names_in_the_name_table_of_a_profile_0123456789_abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ_and_then_some_more_characters_until_it_is_well_past_two_hundred_and_fifty_five_bytes_long_which_is_where_some_length_fields_would_overflow_xyz(n);
  acc += (long long)sizes_everywhere(n / 4 + 20);
  for (int i = 0; i < n * 1000; i++)
    acc = tick((int)acc) & 0xffffff;
  printf("%lld\n", acc);
  return 0;
}
