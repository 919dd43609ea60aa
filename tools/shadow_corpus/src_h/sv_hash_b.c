/* Eighth set: the second program of the pair (other control flow, same names). */
#include <stdio.h>
int compute(int n) { int s = 0; for (int i = 0; i < n; i++) { if (i % 2) s += i; else s -= 1; } return s; }
int shared_name(int x) { if (x > 2) return x * 2; return x; }
int main(void) { printf("%d\n", compute(12) + shared_name(5)); return 0; }
