/* Second of the eleventh pair of programs sharing function names (role of
 * hash_b.c): no multiversioning, but plain functions named blend.default.1
 * and blend.resolver (asm labels) with other bodies than sv_hash_a.c's
 * clone and resolver; placed() is in .text with an if; chill() is cold
 * with a loop; worker_step() is called directly, without threads; step()
 * and merge_me() have other control flow, twin() is the same and only_b()
 * exists only here.  No arguments. */
#include <stdio.h>

int step(int x) { int r = x; for (int k = 0; k < 3; k++) { if (r % 3 == 0) r /= 3; else r += 2; } return r; }
int merge_me(int v) { int s = 0; while (v-- > 0) s += v & 1; return s; }
int twin(int a, int b) { return a > b ? a : b; }
static int only_b(int x) { return x + 100; }

int blend_plain(int x) __asm__("blend.default.1");
int blend_plain(int x) { return x > 4 ? x - 4 : x * 2; }
int blend_pick(int x) __asm__("blend.resolver");
int blend_pick(int x) { int r = 0; while (x > 0) { r += x % 3 == 0; x--; } return r; }

__attribute__((noinline)) int placed(int x) { return x % 2 ? x : 0; }

__attribute__((cold, noinline)) int chill(int x) {
  int r = 0;
  for (int k = 0; k < (x & 3); k++) r -= k;
  return r;
}

int worker_step(int me, int r) { return me ? blend_plain(r) + placed(r) : chill(r) + step(r); }

int main(void) {
  int acc = 0;
  int (*bp)(int) = blend_pick;
  for (int i = 0; i < 9; i++)
    acc += step(i) + merge_me(i) + twin(6, i) + only_b(i) + blend_plain(i) + bp(i) + placed(i) + chill(i);
  for (int r = 0; r < 10; r++) acc += worker_step(r & 1, r);
  printf("%d\n", acc);
  return 0;
}
