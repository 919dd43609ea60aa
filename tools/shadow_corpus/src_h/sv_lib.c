/* Eighth set: a library taking callbacks from the program (indirect calls across
 * the boundary). */
typedef int (*cb_t)(int);
static int lib_twice(int v) { return v * 2; }
int lib_apply(cb_t f, int n) { int s = 0; for (int i = 0; i < n; i++) s += f(i) + lib_twice(i); return s; }
int lib_score(int a, int b) { return a > b ? a - b : b - a; }
