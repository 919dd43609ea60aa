/* Program half of the tenth shared-library workload (role of vis_main.c):
 * calls the library's ifunc lib_mix() (its resolver runs at the first
 * call), defines main_hook(), which the library reaches through a weak
 * reference, walks the library's recursion with a callback that longjmps
 * back into main from different depths, and calls the library's
 * 1,600-branch lib_ladder().  No arguments. */
#include <setjmp.h>
#include <stdio.h>

typedef int (*visit_fn)(int level, int value);
int lib_mix(int x);
int lib_apply_hooks(int x);
int lib_walk(int depth, visit_fn visit);
int lib_ladder(int x);
int lib_init(void);

int main_hook(int x) { return x % 7 == 0 ? x / 7 : x + 1; }

static jmp_buf back;
static int stop_at;
static int visit(int level, int value) {
  if (level == stop_at) longjmp(back, level);
  return value & 7;
}

int main(void) {
  static int acc;
  acc = lib_init();
  for (int i = 0; i < 40; i++) acc += lib_mix(i) + lib_apply_hooks(i);
  for (stop_at = 0; stop_at < 6; stop_at++) {
    int code = setjmp(back);
    if (code == 0)
      acc += lib_walk(6, visit);
    else
      acc += 100 * code;
  }
  for (int i = 0; i < 25; i++) acc += lib_ladder(i * 13);
  printf("%d\n", acc);
  return 0;
}
