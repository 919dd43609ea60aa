/* Temporal workload: stages called in the order the digits of argv[1] say. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) int stage_load(int x) { return x + 1; }
__attribute__((noinline)) int stage_parse(int x) { return x * 2; }
__attribute__((noinline)) int stage_check(int x) { return x - 3; }
__attribute__((noinline)) int stage_emit(int x) { return x ^ 5; }
__attribute__((noinline)) int stage_flush(int x) { return x % 11; }
__attribute__((noinline)) int stage_idle(int x) { return x; }

int main(int argc, char **argv) {
  const char *order = argc > 1 ? argv[1] : "0";
  int (*stages[])(int) = {stage_load, stage_parse, stage_check, stage_emit, stage_flush};
  int acc = 0;
  for (size_t i = 0; i < strlen(order); i++) {
    int k = order[i] - '0';
    if (k >= 0 && k < 5)
      acc = stages[k](acc);
  }
  if (argc > 2)
    acc = stage_idle(acc);
  printf("%d\n", acc);
  return 0;
}
