/* Shared-library half of the second shared-library workload: it calls
 * back into the executable through pointers it is handed, has a static
 * helper whose name the executable also uses, defines tally(), which the
 * executable defines too (so the concatenated profile names it twice), and
 * a function nobody calls. */
typedef int (*visit_fn)(int);

static int helper(int x) { return x % 3 == 0 ? x / 3 : x + 1; }

int tally(int x) { return x * 100; }

int lib_walk(const visit_fn *fns, int nfns, int n) {
  int acc = 0;
  for (int i = 0; i < n; i++)
    acc += fns[i % nfns](helper(i)) + tally(i);
  return acc;
}

int lib_idle(int x) {
  if (x > 0)
    return x;
  return -x;
}
