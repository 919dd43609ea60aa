/* First of the sixth pair of programs sharing names: dispatch() jumps
 * through a computed-goto table here and uses a switch there; wide() has a
 * 300-case switch here and 301 cases there (more than 256 counters, counter
 * counts differ); deep() recurses here and loops there; größe() and a
 * function with a name of more than 1,000 characters are the same in both;
 * seldom() is never called here and called there; never() is called by
 * neither program but differs; helper() is static in both (so the names
 * differ by file prefix).  No arguments. */
#include <stdio.h>

#define LONGNAME hashed_alpha_stage_bravo_stage_charlie_stage_delta_stage_echo_stage_foxtrot_stage_golf_stage_hotel_stage_india_stage_juliett_stage_kilo_stage_lima_stage_mike_stage_november_stage_oscar_stage_papa_stage_quebec_stage_romeo_stage_sierra_stage_tango_stage_uniform_stage_victor_stage_whiskey_stage_xray_stage_yankee_stage_zulu_stage_alpha_stage_bravo_stage_charlie_stage_delta_stage_echo_stage_foxtrot_stage_golf_stage_hotel_stage_india_stage_juliett_stage_kilo_stage_lima_stage_mike_stage_november_stage_oscar_stage_papa_stage_quebec_stage_romeo_stage_sierra_stage_tango_stage_uniform_stage_victor_stage_whiskey_stage_xray_stage_yankee_stage_zulu_stage_alpha_stage_bravo_stage_charlie_stage_delta_stage_echo_stage_foxtrot_stage_golf_stage_hotel_stage_india_stage_juliett_stage_kilo_stage_lima_stage_mike_stage_november_stage_oscar_stage_papa_stage_quebec_stage_romeo_stage_sierra_stage_tango_stage_uniform_stage_victor_stage_whiskey_stage_xray_stage_yankee_stage_zulu_stage_end_plus_a_suffix_to_pass_a_thousand

static int helper(int x) { return x * 3 + 1; }

int dispatch(int op, int x) {
  static void *t[] = {&&a, &&b, &&c};
  goto *t[op % 3];
a:
  return x + 1;
b:
  return x * 2;
c:
  return helper(x);
}

#define C1(n) case n: r += n % 9; break;
#define C10(a) C1(a##0) C1(a##1) C1(a##2) C1(a##3) C1(a##4) C1(a##5) C1(a##6) C1(a##7) C1(a##8) C1(a##9)
int wide(int v) {
  int r = 0;
  switch (v) {
    C10(10) C10(11) C10(12) C10(13) C10(14) C10(15) C10(16) C10(17) C10(18) C10(19)
    C10(20) C10(21) C10(22) C10(23) C10(24) C10(25) C10(26) C10(27) C10(28) C10(29)
    C10(30) C10(31) C10(32) C10(33) C10(34) C10(35) C10(36) C10(37) C10(38) C10(39)
  default:
    r = -1;
  }
  return r;
}

int deep(int d) { return d <= 0 ? 0 : 1 + deep(d - 1); }

int größe(int x) { return x > 10 ? x - 10 : x + 10; }
int LONGNAME(int x) { return x % 5 ? x : -x; }

int seldom(int x) { return x ? seldom(x - 1) + 2 : 0; }
int never(int x) { return x > 0 ? x : -x; }
int (*keep[2])(int) = {seldom, never};

int main(void) {
  long acc = 0;
  for (int i = 0; i < 600; i++)
    acc += dispatch(i, i) + wide(100 + (i * 7) % 300);
  acc += deep(500);
  for (int i = 0; i < 20; i++)
    acc += größe(i) + LONGNAME(i);
  printf("%ld\n", acc);
  return 0;
}
