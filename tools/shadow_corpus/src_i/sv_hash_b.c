/* Ninth set: the second program of the pair (see sv_hash_a.c). */
#include <stdio.h>
int step(int x) { int r = x; for (int k = 0; k < 3; k++) { if (r % 3 == 0) r /= 3; else r += 2; } return r; }
int walk(int n) { int s = 0; for (int i = 0; i < n; i++) { if (i % 4 == 0) continue; s += step(i); } return s; }
int same_body(int a, int b) { return a > b ? a - b : b - a; }
int grid(int w, int h) { int c = 0; for (int y = 0; y < h; y++) c += w * y; return c; }
int merge_me(int v) { if (v > 0) return v + 1; return v - 1; }
int only_in_b(int v) { return v * v; }
int main(void) {
  int t = walk(25) + same_body(9, 4) + grid(3, 8) + merge_me(-2) + only_in_b(6);
  printf("%d\n", t);
  return 0;
}
