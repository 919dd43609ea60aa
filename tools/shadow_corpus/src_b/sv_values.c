/* Second value-profiling workload: a dispatcher with many indirect-call
 * sites per function, one site reaching more than a dozen targets (some of
 * them libc functions, whose addresses the profile cannot name), memory
 * operations of sizes 0, 1, 8, 9, 16, 17 and some kilobytes, a switch-heavy
 * state machine, deep recursion, a loop of about a million iterations and
 * functions no run calls.  argv: COUNT SEED. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*h_fn)(int);

int h_inc(int x) { return x + 1; }
int h_dec(int x) { return x - 1; }
int h_dbl(int x) { return x * 2; }
int h_half(int x) { return x / 2; }
int h_neg(int x) { return -x; }
int h_sq(int x) { return (x * x) & 0xffff; }
int h_rot(int x) { return (int)(((unsigned)x << 3) | ((unsigned)x >> 29)); }
int h_mask(int x) { return x & 0x3ff; }
static int h_odd(int x) { return x | 1; }
static int h_even(int x) { return x & ~1; }
static int h_mix(int x) { return (x ^ 0x5a5a) + 7; }
static int h_clip(int x) { return x > 500 ? 500 : x < -500 ? -500 : x; }
int h_spare(int x) { return x * 31; }   /* never called */
int h_spare2(int x) { return x * 37; }  /* never called */

/* 14 targets: 12 of this file, 2 of libc */
static h_fn wide[] = {h_inc, h_dec, h_dbl,  h_half, h_neg,   h_sq,    h_rot,
                      h_mask, h_odd, h_even, h_mix, h_clip, toupper, abs};
static h_fn narrow[] = {h_inc, h_dbl};

static unsigned lcg = 7;
static unsigned rnd(void) {
  lcg = lcg * 1664525u + 1013904223u;
  return lcg >> 9;
}

/* several indirect-call sites in one function, with different fan-outs */
int h_dispatch(int x, int k) {
  int r = wide[(unsigned)k % 14](x);
  r += narrow[(unsigned)k % 2](r);
  r ^= wide[(unsigned)(k * 5 + 3) % 14](r);
  if (k % 7 == 0)
    r += wide[11](r);
  if (k % 3 == 1)
    r -= wide[(unsigned)k % 4](r);
  return r;
}

/* memory operations of many sizes; site 1 sees 0, 1, 8, 9, 16, 17, ... */
static const unsigned sizes[] = {0, 1, 8, 9, 16, 17, 2, 3, 4, 5, 6, 7, 31, 64, 100, 513, 4096};

size_t copy_blocks(char *dst, const char *src, int rounds) {
  size_t total = 0;
  for (int i = 0; i < rounds; i++) {
    unsigned len = sizes[(unsigned)i % 17];
    memcpy(dst, src, len);
    memmove(dst + 1, dst, len / 2);
    memset(dst + len, 'x', (unsigned)(i % 11));
    if (memcmp(dst, src, len % 9) != 0)
      total += 3;
    if (i % 5 == 0)
      memset(dst, 0, 0);
    total += len;
  }
  return total;
}

size_t fill_big(char *buf, int rounds) {
  size_t t = 0;
  for (int i = 0; i < rounds; i++) {
    unsigned len = 1024u + (rnd() % 3000u);
    memset(buf, i & 0x7f, len);
    t += (unsigned char)buf[len - 1];
  }
  return t;
}

/* a state machine with a large switch */
int h_machine(const char *s) {
  int state = 0, out = 0;
  for (; *s; s++) {
    switch (state * 4 + (*s & 3)) {
    case 0: state = 1; break;
    case 1: state = 2; out += 1; break;
    case 2: out += 2; break;
    case 3: state = 3; break;
    case 4: case 5: state = 0; out ^= 5; break;
    case 6: state = 2; break;
    case 7: out += 7; break;
    case 8: state = 3; out -= 1; break;
    case 9: case 10: case 11: state = 1; break;
    case 12: out *= 3; out %= 1001; break;
    case 13: state = 0; break;
    default: state = (state + 1) % 4; break;
    }
  }
  return out + state;
}

long deep(int n, long acc) {
  if (n == 0)
    return acc;
  if (n % 1000 == 0)
    acc %= 1000003;
  return deep(n - 1, acc + (n & 15));
}

long long spin(int n) {
  long long s = 0;
  for (int i = 0; i < n; i++) {
    s += i % 13 == 0 ? i : 1;
    if ((i & 0xffff) == 0)
      s ^= 0x1234;
  }
  return s;
}

int never_a(int x) {
  switch (x) {
  case 1: return 4;
  case 2: return 9;
  default: return x;
  }
}
static int never_b(int x) { return x ? never_a(x - 1) : 0; }
int (*keep_never_b)(int) = never_b;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int seed = argc > 2 ? atoi(argv[2]) : 1;
  lcg = (unsigned)seed * 2654435761u;
  static char src[8192], dst[8192];
  for (int i = 0; i < 8192; i++)
    src[i] = (char)('a' + i % 26);
  long long acc = 0;
  for (int i = 0; i < n; i++) {
    int k = seed % 2 ? (int)(rnd() % 97) : i % 5;
    acc += h_dispatch(i, k);
  }
  acc += (long long)copy_blocks(dst, src, n / 2 + 17);
  acc += (long long)fill_big(dst, n / 40);
  acc += h_machine(seed > 50 ? "abcdefghijklmnopqrstuvwxyz0123" : "zzyyxxwwvv");
  if (n >= 500)
    acc += deep(n * 5, 0);
  if (n >= 1000)
    acc += spin(1000000);
  if (n == 0)
    acc += never_a(seed) + keep_never_b(seed);
  printf("%lld\n", acc % 1000003);
  return 0;
}
