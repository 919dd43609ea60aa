/* Eighth set: the first program of a pair whose functions share names. */
#include <stdio.h>
int compute(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int shared_name(int x) { return x + 1; }
int main(void) { printf("%d\n", compute(10) + shared_name(3)); return 0; }
