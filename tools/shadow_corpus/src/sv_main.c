/* Program half of the shared-library workload. */
#include <stdio.h>
int lib_weight(int x);
static int local_sum(int n) {
  int acc = 0;
  for (int i = 0; i < n; i++)
    acc += lib_weight(i);
  return acc;
}
int main(void) {
  printf("%d\n", local_sum(37));
  return 0;
}
