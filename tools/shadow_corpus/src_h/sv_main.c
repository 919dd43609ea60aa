/* Eighth set: the program passing callbacks to the library. */
#include <stdio.h>
typedef int (*cb_t)(int);
int lib_apply(cb_t f, int n);
int lib_score(int a, int b);
static int square(int v) { return v * v; }
static int inc(int v) { return v + 1; }
int main(void) { int t = lib_apply(square, 40) + lib_apply(inc, 7) + lib_score(3, 9); printf("%d\n", t); return 0; }
