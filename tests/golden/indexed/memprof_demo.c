/* Heap-profiled demo for the MemProf goldens (see make_goldens.py). */
#include <stdlib.h>
#include <string.h>

static char *make_block(int n) {
  char *p = malloc(n);
  memset(p, 1, n);
  return p;
}

int main(void) {
  int sum = 0;
  for (int i = 0; i < 100; i++) {
    char *p = make_block(16 + i % 3);
    sum += p[0];
    if (i % 2)
      free(p);
  }
  return sum == 0;
}
