/* Ninth set: the program registering handlers with the library (calls both
 * ways across the boundary), with its own static mix. */
#include <stdio.h>
typedef int (*handler_t)(int event, int payload);
int lib_register(handler_t h);
void lib_reset(void);
int lib_dispatch(int event, int payload);
int lib_score(int a, int b);
static int mix(int a, int b) { return a - b * 7; }
static int on_key(int e, int p) { return e == 1 ? p * 2 : p; }
static int on_tick(int e, int p) { return mix(e, p) & 0xff; }
static int on_quit(int e, int p) { return e > 40 ? p : 0; }
int main(void) {
  lib_reset();
  lib_register(on_key);
  lib_register(on_tick);
  lib_register(on_quit);
  int t = 0;
  for (int i = 0; i < 60; i++) t += lib_dispatch(i % 7, i) & 0xffff;
  t += lib_score(t, 17) + lib_score(5, 9);
  printf("%d\n", t);
  return 0;
}
