/* Value-profiling workload for the shadow corpus: indirect calls through
 * tables chosen by data, memcpy/memset/memcmp of data-dependent sizes, a
 * recursive function, static helpers and a function no run calls. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef long (*op_fn)(long, long);

static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return (a * b) % 1000003; }
static long op_xor(long a, long b) { return a ^ b; }
long op_max(long a, long b) { return a > b ? a : b; }
long op_min(long a, long b) { return a < b ? a : b; }
long never_called(long a) { return a * 17 + 3; }

static op_fn table_a[] = {op_add, op_sub, op_mul, op_xor};
static op_fn table_b[] = {op_max, op_min, op_add};

struct shape { int kind; double w, h; };
typedef double (*area_fn)(const struct shape *);
static double rect_area(const struct shape *s) { return s->w * s->h; }
static double tri_area(const struct shape *s) { return 0.5 * s->w * s->h; }
static double circ_area(const struct shape *s) { return 3.14159 * s->w * s->w; }
static area_fn areas[] = {rect_area, tri_area, circ_area};

static unsigned rng_state = 1;
static unsigned next_rand(void) {
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 8) & 0xffffff;
}

long fold(const long *v, int n, op_fn f) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc = f(acc, v[i]);
  return acc;
}

int depth_sum(int n) {
  if (n <= 1)
    return n;
  return n + depth_sum(n - 1 - (n % 3 == 0));
}

size_t copy_blocks(char *dst, const char *src, int rounds) {
  size_t total = 0;
  for (int i = 0; i < rounds; i++) {
    size_t len = 1 + next_rand() % (i % 5 == 0 ? 200 : 17);
    memcpy(dst, src + (i % 32), len);
    memset(dst + len, i & 0xff, next_rand() % 9);
    if (memcmp(dst, src, len % 12) == 0)
      total += len;
    total += len;
  }
  return total;
}

double shapes(int n) {
  struct shape s;
  double sum = 0;
  for (int i = 0; i < n; i++) {
    s.kind = (int)(next_rand() % 7) % 3;
    s.w = i % 13;
    s.h = i % 7;
    sum += areas[s.kind](&s);
  }
  return sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int seed = argc > 2 ? atoi(argv[2]) : 1;
  rng_state = (unsigned)seed;
  long v[64];
  for (int i = 0; i < 64; i++)
    v[i] = (long)(next_rand() % 1000);
  long acc = 0;
  for (int i = 0; i < n; i++) {
    op_fn f = (seed % 2) ? table_a[next_rand() % 4] : table_b[next_rand() % 3];
    acc += fold(v, 1 + i % 64, f);
  }
  char src[512], dst[512];
  for (int i = 0; i < 512; i++)
    src[i] = (char)(i * 7);
  acc += (long)copy_blocks(dst, src, n / 3);
  acc += (long)shapes(n / 2);
  if (n > 1000)
    acc += depth_sum(40);
  if (argc > 5)
    acc += never_called(acc);
  printf("%ld\n", acc % 97);
  return 0;
}
