/* Second of the tenth pair of programs sharing function names (role of
 * hash_b.c): mega() has 1,550 ifs, vsum() switches on its count, jumper()
 * is a loop, cmp_items() breaks ties, the long-named function has an if,
 * step() and merge_me() have other control flow, twin() is the same and
 * only_b() exists only here.  No arguments. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define SEG4(p) XCAT(XCAT(XCAT(XCAT(p, _segment_of_a_long_name), _segment_of_a_long_name), _segment_of_a_long_name), _segment_of_a_long_name)
#define LONG_NAME SEG4(SEG4(SEG4(SEG4(SEG4(SEG4(long_named_function))))))

int step(int x) { int r = x; for (int k = 0; k < 3; k++) { if (r % 3 == 0) r /= 3; else r += 2; } return r; }
int merge_me(int v) { int s = 0; while (v-- > 0) s += v & 1; return s; }
int twin(int a, int b) { return a > b ? a : b; }
static int only_b(int x) { return x + 100; }

#define T1 { j++; if ((x ^ j) % 5 == 0) hits++; }
#define T10 T1 T1 T1 T1 T1 T1 T1 T1 T1 T1
#define T100 T10 T10 T10 T10 T10 T10 T10 T10 T10 T10
int mega(int x) {
  int j = 0, hits = 0;
  T100 T100 T100 T100 T100 T100 T100 T100
  T100 T100 T100 T100 T100 T100 T100
  T10 T10 T10 T10 T10
  return hits;
}

int vsum(int n, ...) {
  va_list ap;
  int s = 0;
  va_start(ap, n);
  switch (n) {
  case 0: break;
  case 1: s = va_arg(ap, int); break;
  default: s = va_arg(ap, int); s += va_arg(ap, int); break;
  }
  va_end(ap);
  return s;
}

int jumper(int d) { int r = 0; while (d-- > 0) r++; return r + 7; }

int cmp_items(const void *pa, const void *pb) {
  int a = *(const int *)pa, b = *(const int *)pb;
  if (a % 10 != b % 10) return a % 10 - b % 10;
  if (a < b) return -1;
  return a > b;
}

int LONG_NAME(int n) { return n > 5 ? n * 2 : n; }

int main(void) {
  int v[7] = {15, 23, 9, 11, 7, 33, 8};
  qsort(v, 7, sizeof v[0], cmp_items);
  int acc = v[0] + v[6];
  for (int i = 0; i < 9; i++) acc += step(i) + merge_me(i) + twin(6, i) + mega(i * 3) + only_b(i);
  acc += vsum(2, 10, 20) + vsum(1, 5) + vsum(0) + jumper(4) + LONG_NAME(3);
  printf("%d\n", acc);
  return 0;
}
