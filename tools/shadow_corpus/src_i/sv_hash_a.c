/* Ninth set: the first program of a pair sharing function names.  Against
 * sv_hash_b.c: step and walk have other control flow (other hashes), same_body
 * is identical (same hash), grid has another counter count, merge_me matches
 * nothing of the text inputs, and only_in_a exists here only. */
#include <stdio.h>
int step(int x) { if (x & 1) return 3 * x + 1; return x / 2; }
int walk(int n) { int s = 0, i = 0; while (i < n) { s += step(i + 7); i += 2; } return s; }
int same_body(int a, int b) { return a > b ? a - b : b - a; }
int grid(int w, int h) { int c = 0; for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) c += (x ^ y) & 1; return c; }
int merge_me(int v) { return v + 1; }
static int only_in_a(int v) { switch (v % 3) { case 0: return v; case 1: return -v; default: return 0; } }
int main(void) {
  int t = walk(30) + same_body(4, 9) + grid(5, 4) + merge_me(1);
  for (int i = 0; i < 6; i++) t += only_in_a(i);
  printf("%d\n", t);
  return 0;
}
