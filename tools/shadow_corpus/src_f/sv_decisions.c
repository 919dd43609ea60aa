/* Sixth MC/DC workload: six-condition decisions evaluated in loops over
 * bit patterns (so most, but not all, independence pairs are covered), a
 * six-condition for-loop condition, a six-condition decision in a
 * recursive function, a decision whose conditions are _Generic selections,
 * decisions inside the handlers of a computed-goto interpreter, a decision
 * over a variable-length array, several six-condition decisions on one
 * line, a decision one outcome of which no run reaches, and a six-condition
 * decision no run calls.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>

static int bit(unsigned v, int k) { return (v >> k) & 1; }

static int six_and_or(unsigned v) {
  if ((bit(v, 0) && bit(v, 1)) || (bit(v, 2) && !bit(v, 3)) || (bit(v, 4) && bit(v, 5)))
    return 1;
  return 0;
}

static int six_chain(unsigned v) {
  int a = bit(v, 0), b = bit(v, 1), c = bit(v, 2), d = bit(v, 3), e = bit(v, 4), f = bit(v, 5);
  return a && b && c && d && e && f ? 10 : (a || b || c || d || e || f) ? 1 : 0;
}

static int loop_cond(int n) {
  int i = 0, steps = 0;
  for (; i < n && i != 7 && (i % 11 != 10 || n < 5) && steps < 40 && (n > 2 || i < 1) && i >= 0;
       i++)
    steps += i % 3;
  return steps + i;
}

static int rec(int depth, int x) {
  if (depth <= 0 || (x > 100 && depth < 3) || (x < -100 && depth > 1) || x == 42)
    return x;
  return rec(depth - 1, x % 2 ? x * 3 + 1 : x / 2);
}

#define is_int(x) _Generic((x), int: 1, default: 0)
#define is_dbl(x) _Generic((x), double: 1, default: 0)
static int generic_decision(int i, double d) {
  return (is_int(i) && i > 3) || (is_dbl(d) && d < 0.25) || (is_int(d) && d > 9.0);
}

static int machine(const unsigned char *code, int x) {
  static void *ops[] = {&&op_a, &&op_b, &&op_end};
  const unsigned char *pc = code;
  goto *ops[*pc++ % 3];
op_a:
  if ((x > 3 && x < 40) || x == -1)
    x += 7;
  else
    x -= 2;
  goto *ops[*pc++ % 3];
op_b:
  if (x % 2 == 0 && (x > 10 || x < -10))
    x /= 2;
  goto *ops[*pc++ % 3];
op_end:
  return x;
}

static int vla_decision(int n) {
  int v[n + 2];
  for (int i = 0; i < n + 2; i++)
    v[i] = (i * 5) % 7;
  int hits = 0;
  for (int i = 1; i < n + 1; i++)
    if ((v[i] > v[i - 1] && v[i] > v[i + 1]) || (v[i] == 0 && i % 2))
      hits++;
  return hits;
}

static int one_line(unsigned v) { int r = 0; if (bit(v, 0) && bit(v, 1) && bit(v, 2) && bit(v, 3) && bit(v, 4) && bit(v, 5)) r++; if (bit(v, 5) || bit(v, 4) || bit(v, 3) || bit(v, 2) || bit(v, 1) || bit(v, 0)) r += 2; return r; }

static int one_sided(int x) {
  if (x >= 0 || x < 0)
    return 1;
  return 0;
}

static int never_called(int a, int b, int c) {
  return (a > 0 && b > 0) || (c > 0 && a < b) || (b == c && c != 7);
}
int (*keep_never)(int, int, int) = never_called;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  long acc = 0;
  for (unsigned v = 0; v < (unsigned)n * 4; v++) {
    unsigned w = (v * 37u + (unsigned)n) & 63u;
    acc += six_and_or(w) + six_chain(w) + one_line(w ^ 21u);
  }
  acc += loop_cond(n) + loop_cond(3) + loop_cond(1);
  for (int i = -3; i < n; i++)
    acc += rec(6, i * 17) + generic_decision(i, i / 8.0) + one_sided(i);
  unsigned char code[12];
  for (int i = 0; i < 11; i++)
    code[i] = (unsigned char)((i + n) % 2);
  code[11] = 2;
  acc += machine(code, n) + machine(code + 4, -1) + vla_decision(n);
  printf("%ld\n", acc);
  return 0;
}
