/* Eighth value-profiling workload: an op-code interpreter calling through a
 * 7-entry function-pointer table with a skewed pick (one extern target never
 * called), memcpy/memset/memmove of sizes 0 to 64 KiB chosen by a switch,
 * static helpers, and recursion. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef long (*op_fn)(long, long);
static unsigned long state = 12345;
static unsigned rnd(void) { state = state * 6364136223846793005UL + 1442695040888963407UL; return (unsigned)(state >> 33); }
static long helper(long a, long b) { return a * 31 + b; }
static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return helper(a, b) ^ (a * b); }
static long op_div(long a, long b) { return b ? a / b : a; }
static long op_mod(long a, long b) { return b ? a % b : 0; }
static long op_xor(long a, long b) { return a ^ b; }
static long op_rare(long a, long b) { return (a << 3) | (b & 7); }
long op_never(long a, long b) { return a - b * 2; }
static op_fn table[] = {op_add, op_sub, op_mul, op_div, op_mod, op_xor, op_rare};
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static char bufa[70000], bufb[70000];
static size_t pick_size(unsigned r) {
  switch (r % 11) {
  case 0: return 1;
  case 1: return 3;
  case 2: return 8;
  case 3: return 17;
  case 4: return 64;
  case 5: return 100 + r % 50;
  case 6: return 4096;
  case 7: return 9000 + r % 100;
  case 8: return 65536;
  default: return r % 7;
  }
}
long run_ops(int n) {
  long acc = 1;
  for (int i = 0; i < n; i++) {
    unsigned r = rnd();
    unsigned k = (r % 100 < 60) ? 0 : (r % 100 < 85) ? 2 : (r % 7);
    acc = table[k](acc, (long)(r & 0xff) + 1);
    if (i % 5 == 0) { size_t s = pick_size(r); memcpy(bufa, bufb, s); }
    if (i % 9 == 0) { size_t s = pick_size(r >> 3); memset(bufb, (int)i, s); }
    if (i % 13 == 0) { memmove(bufa + 1, bufa, pick_size(r >> 5) % 60000); }
  }
  return acc;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  state = argc > 2 ? (unsigned long)atol(argv[2]) : 7;
  long acc = run_ops(n);
  acc += fib(n % 20 + 5);
  if (n < 0) acc += op_never(acc, 1);
  printf("%ld\n", acc & 0xffff);
  return 0;
}
