/* Eleventh-set value-profiling workload (role of vp_calls.c): a small stack
 * bytecode VM.  A program generator, seeded by argv[2], emits bytecode whose
 * op-code mix depends on the seed; vm_run() dispatches every instruction
 * through a table of 16 handlers (h_push ... h_halt), so the one indirect
 * call site in its loop reaches a seed-dependent mix of targets; h_native()
 * calls a second table of "native" functions, two of them from libc (abs,
 * toupper).  The VM's heap ops copy, fill, move and compare buffers whose
 * sizes come from the stack (memcpy/memset/memmove/memcmp with sizes from
 * the workload), and copy_blocks() runs a buffer pool whose block sizes
 * come from the seed.  argv: COUNT SEED. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_JZ, OP_JMP,
       OP_LOAD, OP_STORE, OP_COPY, OP_FILL, OP_MOVE, OP_CMP, OP_NATIVE, OP_HALT,
       OP_COUNT };

#define STACK_MAX 64
#define HEAP_SIZE 8192
#define CODE_MAX 256

typedef struct {
  uint8_t op;
  int32_t arg;
} insn_t;

typedef struct vm {
  int32_t stack[STACK_MAX];
  int sp;
  int pc;
  int halted;
  long steps;
  int32_t regs[8];
  unsigned char heap[HEAP_SIZE];
  const insn_t *code;
  int ncode;
} vm_t;

typedef void (*handler_fn)(vm_t *, int32_t);
typedef int (*native_fn)(int);

static int32_t pop(vm_t *vm) { return vm->sp > 0 ? vm->stack[--vm->sp] : 0; }
static void push(vm_t *vm, int32_t v) {
  if (vm->sp < STACK_MAX) vm->stack[vm->sp++] = v;
}
static unsigned clamp_len(int32_t v, unsigned max) { return (unsigned)v % (max + 1); }

void h_push(vm_t *vm, int32_t a) { push(vm, a); }
void h_add(vm_t *vm, int32_t a) { (void)a; push(vm, pop(vm) + pop(vm)); }
void h_sub(vm_t *vm, int32_t a) { (void)a; int32_t b = pop(vm); push(vm, pop(vm) - b); }
void h_mul(vm_t *vm, int32_t a) { (void)a; push(vm, (pop(vm) * pop(vm)) & 0xffff); }
void h_dup(vm_t *vm, int32_t a) { (void)a; int32_t v = pop(vm); push(vm, v); push(vm, v); }
void h_swap(vm_t *vm, int32_t a) {
  (void)a;
  int32_t x = pop(vm), y = pop(vm);
  push(vm, x);
  push(vm, y);
}
void h_jz(vm_t *vm, int32_t a) {
  if (pop(vm) == 0 && a >= 0 && a < vm->ncode && a > vm->pc) vm->pc = a - 1;
}
void h_jmp(vm_t *vm, int32_t a) {
  if (a > vm->pc && a < vm->ncode) vm->pc = a - 1;
}
void h_load(vm_t *vm, int32_t a) { push(vm, vm->regs[a & 7]); }
void h_store(vm_t *vm, int32_t a) { vm->regs[a & 7] = pop(vm); }
void h_copy(vm_t *vm, int32_t a) {
  unsigned len = clamp_len(pop(vm), HEAP_SIZE / 2);
  unsigned dst = (unsigned)a % (HEAP_SIZE / 2);
  memcpy(vm->heap + HEAP_SIZE / 2, vm->heap + dst, len > HEAP_SIZE / 2 - dst ? HEAP_SIZE / 2 - dst : len);
}
void h_fill(vm_t *vm, int32_t a) {
  unsigned len = clamp_len(pop(vm), HEAP_SIZE);
  memset(vm->heap, a & 0xff, len);
}
void h_move(vm_t *vm, int32_t a) {
  unsigned len = clamp_len(a, HEAP_SIZE - 64);
  memmove(vm->heap + 64, vm->heap + (a & 63), len);
}
void h_cmp(vm_t *vm, int32_t a) {
  unsigned len = clamp_len(a, HEAP_SIZE / 2);
  push(vm, memcmp(vm->heap, vm->heap + HEAP_SIZE / 2, len) < 0);
}

static int n_square(int x) { return (x * x) & 0x7fff; }
static int n_parity(int x) { return __builtin_popcount((unsigned)x) & 1; }
int n_collatz(int x) {
  int n = 0;
  unsigned v = (unsigned)x % 97 + 1;
  while (v != 1 && n < 200) { v = v & 1 ? 3 * v + 1 : v / 2; n++; }
  return n;
}
static const native_fn natives[5] = {n_square, n_parity, n_collatz, abs, toupper};

void h_native(vm_t *vm, int32_t a) {
  native_fn f = natives[(unsigned)a % 5];
  push(vm, f(pop(vm)));
}
void h_halt(vm_t *vm, int32_t a) { (void)a; vm->halted = 1; }

static const handler_fn dispatch[OP_COUNT] = {
    h_push, h_add, h_sub,  h_mul,  h_dup,  h_swap, h_jz,     h_jmp,
    h_load, h_store, h_copy, h_fill, h_move, h_cmp, h_native, h_halt};

__attribute__((noinline)) long vm_run(vm_t *vm, const insn_t *code, int n, long budget) {
  vm->code = code;
  vm->ncode = n;
  vm->pc = 0;
  vm->halted = 0;
  vm->sp = 0;
  while (!vm->halted && vm->pc < n && budget-- > 0) {
    const insn_t *in = &code[vm->pc];
    dispatch[in->op](vm, in->arg);
    vm->pc++;
    vm->steps++;
  }
  return vm->sp > 0 ? vm->stack[vm->sp - 1] : 0;
}

/* Bytecode generator: the op-code weights depend on the seed. */
static uint32_t rng_state;
static uint32_t rng(void) {
  rng_state = rng_state * 1103515245u + 12345u;
  return rng_state >> 8;
}

__attribute__((noinline)) int gen_program(insn_t *code, int max, unsigned seed) {
  unsigned weights[OP_COUNT];
  unsigned total = 0;
  for (int k = 0; k < OP_COUNT; k++) {
    weights[k] = 1 + (seed * (unsigned)(k + 3) + (unsigned)k * k) % 9;
    if (k == OP_HALT) weights[k] = 1;
    if (k == OP_PUSH) weights[k] += 8;
    total += weights[k];
  }
  int n = 24 + (int)(rng() % (unsigned)(max - 24));
  for (int i = 0; i < n; i++) {
    unsigned r = rng() % total, op = 0;
    while (r >= weights[op]) r -= weights[op++];
    code[i].op = (uint8_t)op;
    code[i].arg = (int32_t)(rng() % 3000);
    if (op == OP_JZ || op == OP_JMP) code[i].arg = i + 1 + (int32_t)(rng() % 6);
  }
  code[n].op = OP_HALT;
  code[n].arg = 0;
  return n + 1;
}

/* A buffer pool: blocks of seed-dependent sizes copied between slots. */
__attribute__((noinline)) size_t copy_blocks(int n, unsigned seed) {
  static unsigned char pool[4][6000];
  static const unsigned fixed[] = {0, 1, 7, 16, 33, 64, 255, 512, 1024, 4096};
  size_t moved = 0;
  for (int i = 0; i < n; i++) {
    unsigned size = (i % 3 == 0) ? fixed[(seed + (unsigned)i) % 10]
                                 : ((unsigned)i * (seed * 37u + 11u)) % 5000u;
    int from = i & 3, to = (i + 1 + (int)(seed & 1)) & 3;
    if (size % 4 == 1) memset(pool[to], i & 0xff, size);
    else memcpy(pool[to], pool[from], size);
    if (i % 7 == 0) memmove(pool[to] + 1, pool[to], size > 5990 ? 5990 : size);
    if (memcmp(pool[to], pool[from], size % 128) == 0) moved += size;
  }
  return moved;
}

int main(int argc, char **argv) {
  int count = argc > 1 ? atoi(argv[1]) : 100;
  unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
  static vm_t vm;
  static insn_t code[CODE_MAX + 1];
  rng_state = seed * 2654435761u;
  long acc = 0;
  int programs = count / 40 + 1;
  for (int p = 0; p < programs; p++) {
    int n = gen_program(code, CODE_MAX, seed + (unsigned)p % 3);
    for (int r = 0; r < 4; r++) {
      vm.regs[r] = r * (int)seed + p;
      acc += vm_run(&vm, code, n, 400);
    }
  }
  acc += (long)copy_blocks(count / 4 + (int)(seed % 9), seed);
  printf("%ld %ld\n", acc, vm.steps);
  return 0;
}
