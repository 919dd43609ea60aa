/* Shared-library half of the shared-library workload. */
int lib_weight(int x) {
  if (x % 4 == 0)
    return 3;
  return x % 4;
}
int lib_unused(int x) { return -x; }
