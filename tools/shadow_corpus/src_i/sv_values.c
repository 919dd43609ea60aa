/* Ninth value-profiling workload: a 48-way dispatcher (more targets than a value
 * site keeps), three call sites sharing subsets of the same targets, a callback
 * carried in a struct, a chained pipeline of stages, and memcpy/memset/memmove
 * of many distinct sizes (0 up to 3000 bytes and a few fixed large ones). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef unsigned (*h_fn)(unsigned);
#define H_MUL(i) unsigned h_##i(unsigned x) { return x * (2u * i + 1u) + i; }
#define H_ROT(i) static unsigned h_##i(unsigned x) { return (x << (i % 7 + 1)) | (x >> (31 - i % 7)); }
#define H_LOOP(i) static unsigned h_##i(unsigned x) { unsigned s = i; for (unsigned k = 0; k < (x & 7u); k++) s += k * i ^ x; return s; }
H_MUL(0) H_ROT(1) H_LOOP(2) H_MUL(3) H_ROT(4) H_LOOP(5) H_MUL(6) H_ROT(7)
H_LOOP(8) H_MUL(9) H_ROT(10) H_LOOP(11) H_MUL(12) H_ROT(13) H_LOOP(14) H_MUL(15)
H_ROT(16) H_LOOP(17) H_MUL(18) H_ROT(19) H_LOOP(20) H_MUL(21) H_ROT(22) H_LOOP(23)
H_MUL(24) H_ROT(25) H_LOOP(26) H_MUL(27) H_ROT(28) H_LOOP(29) H_MUL(30) H_ROT(31)
H_LOOP(32) H_MUL(33) H_ROT(34) H_LOOP(35) H_MUL(36) H_ROT(37) H_LOOP(38) H_MUL(39)
H_ROT(40) H_LOOP(41) H_MUL(42) H_ROT(43) H_LOOP(44) H_MUL(45) H_ROT(46) H_LOOP(47)
static h_fn wide[48] = {
  h_0, h_1, h_2, h_3, h_4, h_5, h_6, h_7, h_8, h_9, h_10, h_11, h_12, h_13, h_14, h_15,
  h_16, h_17, h_18, h_19, h_20, h_21, h_22, h_23, h_24, h_25, h_26, h_27, h_28, h_29, h_30, h_31,
  h_32, h_33, h_34, h_35, h_36, h_37, h_38, h_39, h_40, h_41, h_42, h_43, h_44, h_45, h_46, h_47};
static h_fn narrow[5] = {h_3, h_9, h_12, h_40, h_47};
static unsigned long seed_state = 1;
static unsigned next_rand(void) {
  seed_state ^= seed_state << 13; seed_state ^= seed_state >> 7; seed_state ^= seed_state << 17;
  return (unsigned)(seed_state & 0xffffffffu);
}
struct stage { const char *name; h_fn fn; int weight; };
static struct stage pipeline[6] = {
  {"parse", h_1, 3}, {"lex", h_2, 1}, {"fold", h_17, 2}, {"emit", h_33, 5}, {"link", h_44, 1}, {"pack", h_0, 2}};
__attribute__((noinline)) unsigned run_pipeline(unsigned x, int depth) {
  for (int i = 0; i < 6; i++)
    for (int w = 0; w < pipeline[(i + depth) % 6].weight; w++) x = pipeline[(i + depth) % 6].fn(x) + 1;
  return x;
}
__attribute__((noinline)) unsigned dispatch(unsigned r, unsigned acc) {
  unsigned pick = r % 100;
  unsigned idx = pick < 40 ? r % 4 : pick < 70 ? 4 + r % 12 : pick < 95 ? 16 + r % 24 : 40 + r % 8;
  acc += wide[idx](acc ^ r);                 /* site 1: all 48 */
  if (r & 1) acc += narrow[(r >> 3) % 5](acc); /* site 2: five of them again */
  if ((r & 15) == 3) acc ^= wide[47 - (r >> 5) % 20](r); /* site 3: the top 20 */
  return acc;
}
static unsigned char src_buf[70000], dst_buf[70000];
static const size_t fixed_sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                     127, 128, 255, 256, 511, 513, 1024, 2047, 4096, 8191, 65535};
__attribute__((noinline)) size_t copy_blocks(int n, unsigned salt) {
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    unsigned r = next_rand() ^ salt;
    size_t a = fixed_sizes[r % (sizeof fixed_sizes / sizeof fixed_sizes[0])];
    size_t b = (r >> 8) % 3001;
    size_t c = ((r >> 4) % 40) * 24;
    memcpy(dst_buf, src_buf + (i & 63), a);
    memset(src_buf + 100, (int)(r & 0xff), b);
    if (i % 3 == 0) memmove(dst_buf + 7, dst_buf, c);
    if (i % 11 == 0) memcpy(dst_buf + 1, src_buf, (size_t)(i % 97));
    total += a + b + c + dst_buf[(r >> 2) % 1000];
  }
  return total;
}
__attribute__((noinline)) unsigned rarely(unsigned x) { return x * 5 + 3; }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 7;
  seed_state = 88172645463325252UL ^ (unsigned long)seed * 2654435761UL;
  unsigned acc = seed;
  for (int i = 0; i < n; i++) {
    unsigned r = next_rand();
    acc = dispatch(r, acc);
    if (i % 17 == 0) acc = run_pipeline(acc, i % 6);
  }
  size_t t = copy_blocks(n / 2 + 3, seed);
  if (seed == 99) acc += rarely(acc);
  printf("%u %zu\n", acc & 0xffffu, t & 0xffff);
  return 0;
}
