/* Ninth set: a library of event handlers.  The program registers its own
 * handlers in the library's table; the library dispatches events to them and to
 * its built-in ones, keeps a static helper whose name the program also uses, and
 * exports lib_score and a function the program never calls. */
#include <string.h>
typedef int (*handler_t)(int event, int payload);
#define MAX_HANDLERS 16
static handler_t handlers[MAX_HANDLERS];
static int handler_count;
static int mix(int a, int b) { return (a * 131) ^ b; }
static int builtin_echo(int e, int p) { return e + p; }
static int builtin_drop(int e, int p) { (void)p; return -e; }
int lib_register(handler_t h) {
  if (handler_count >= MAX_HANDLERS) return -1;
  handlers[handler_count] = h;
  return handler_count++;
}
void lib_reset(void) {
  memset(handlers, 0, sizeof handlers);
  handler_count = 0;
  lib_register(builtin_echo);
  lib_register(builtin_drop);
}
int lib_dispatch(int event, int payload) {
  int s = 0;
  for (int i = 0; i < handler_count; i++)
    if ((event + i) % 3 != 0) s = mix(s, handlers[i](event, payload));
  return s;
}
int lib_score(int a, int b) { int d = a - b; if (d < 0) d = -d; return d > 100 ? 100 : d; }
int lib_unused(int x) { return mix(x, x); }
