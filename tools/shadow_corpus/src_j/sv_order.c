/* Tenth temporal workload (role of phases.c): every digit of argv[1] runs a
 * depth-first walk over a graph of twelve node functions whose edges and
 * start node depend on the digits seen so far, so the order in which the
 * node functions are FIRST called is data-dependent; after the walk, the
 * digit picks a phase: one dives into recursion and leaves it by longjmp
 * (functions after the jump are reached only by later phases), one raises
 * a signal synchronously (the handler's timestamp is taken inside raise()),
 * one logs through a variadic function, one runs mutual recursion whose
 * depth comes from the digit.  Also: a constructor with a priority (its
 * callee is first in the trace, before main), a constructor the optimizer
 * evaluates at compile time (it never runs, so no timestamp), a
 * destructor that runs after the profile is written (its callee keeps no
 * timestamp), a weak hook nobody defines (never called), and functions no
 * run reaches.  argv: DIGITS. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static volatile int sink;
static unsigned edge_salt;
static unsigned char visited[12];
typedef int (*node_fn)(int depth);
static node_fn nodes[12];

static int walk_to(int k, int depth) {
  if (visited[k] || depth > 12) return 0;
  visited[k] = 1;
  return nodes[k](depth + 1);
}
#define NODE(k)                                                              \
  __attribute__((noinline)) int node_##k(int depth) {                        \
    unsigned a = (k * 5 + edge_salt) % 12, b = (k + 3 * edge_salt + 1) % 12; \
    sink += k;                                                               \
    return 1 + walk_to((int)a, depth) + ((k + edge_salt) % 3 ? walk_to((int)b, depth) : 0); \
  }
NODE(0) NODE(1) NODE(2) NODE(3) NODE(4) NODE(5)
NODE(6) NODE(7) NODE(8) NODE(9) NODE(10) NODE(11)
static node_fn nodes[12] = {node_0, node_1, node_2, node_3, node_4,  node_5,
                            node_6, node_7, node_8, node_9, node_10, node_11};

/* Phase: recursion left by longjmp. */
static jmp_buf out;
__attribute__((noinline, noreturn)) void bail(int code) { longjmp(out, code); }
__attribute__((noinline)) int after_dive(int d) { return d * 2; }
__attribute__((noinline)) int dive(int d, int stop) {
  if (d == stop) bail(d + 1);
  int r = dive(d + 1, stop);
  return after_dive(r);
}
__attribute__((noinline)) int phase_jump(int digit) {
  volatile int got = 0;
  int code = setjmp(out);
  if (code == 0)
    got = dive(0, digit + 2);
  else
    got = code;
  if (digit == 0) got += after_dive(3);
  return got;
}

/* Phase: a synchronous signal. */
static volatile sig_atomic_t signalled;
__attribute__((noinline)) void signal_helper(int s) { signalled += s; }
static void on_signal(int s) { signal_helper(s & 3); }
__attribute__((noinline)) int phase_signal(int digit) {
  signal(SIGUSR1, on_signal);
  raise(SIGUSR1);
  signal(SIGUSR1, SIG_DFL);
  return (int)signalled + digit;
}

/* Phase: a variadic logger. */
static char logbuf[256];
__attribute__((noinline)) int log_count(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(logbuf, sizeof logbuf, fmt, ap);
  va_end(ap);
  return n;
}
__attribute__((noinline)) int phase_log(int digit) {
  return log_count("digit %d of %s", digit, "phases") + log_count("%c%c", 'a' + digit, 'z');
}

/* Phase: mutual recursion. */
__attribute__((noinline)) int is_odd(int n);
__attribute__((noinline)) int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
__attribute__((noinline)) int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
__attribute__((noinline)) int phase_parity(int digit) { return is_even(digit * 37 + 3) + 2 * is_odd(digit); }

extern void optional_hook(int) __attribute__((weak));
__attribute__((noinline)) void early_helper(void) { edge_salt = 1; sink++; }
__attribute__((constructor(200))) static void early(void) { early_helper(); }
/* This constructor only stores constants: at -O2 the optimizer evaluates it
 * at compile time, so it and its callee never run. */
static int folded_table[4];
__attribute__((noinline)) void fold_helper(void) { folded_table[1] = 5; }
__attribute__((constructor(150))) static void folded(void) { fold_helper(); folded_table[2] = 7; }
__attribute__((noinline)) void end_helper(void) { sink = 0; }
__attribute__((destructor)) static void at_end(void) { end_helper(); }
__attribute__((noinline)) int never_reached(int x) { return x + after_dive(x); }

int main(int argc, char **argv) {
  const char *digits = argc > 1 ? argv[1] : "0";
  int acc = 0;
  for (size_t i = 0; i < strlen(digits); i++) {
    int d = digits[i] - '0';
    if (d < 0 || d > 9) continue;
    edge_salt = edge_salt * 7 + (unsigned)d;
    memset(visited, 0, sizeof visited);
    acc += walk_to((d * 5 + (int)i) % 12, 0);
    switch (d % 5) {
    case 0: acc += phase_jump(d); break;
    case 1: acc += phase_signal(d); break;
    case 2: acc += phase_log(d); break;
    case 3: acc += phase_parity(d); break;
    default: acc += phase_jump(d) + phase_parity(d); break;
    }
  }
  if (optional_hook) optional_hook(acc);
  if (acc < 0) acc = never_reached(acc);
  printf("%d %u %d\n", acc, edge_salt, folded_table[1] + folded_table[2]);
  return 0;
}
