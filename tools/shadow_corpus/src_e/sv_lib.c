/* Shared-library half of the fifth shared-library workload: a callback
 * registry whose one indirect-call site reaches functions of the
 * executable, a struct of library function pointers handed to the
 * executable, a static function named like one of the executable's, a
 * loop with a long if/else-if chain (many counters), a protected-visibility
 * function, and a static function nobody calls. */
typedef int (*cb)(int);
struct lib_api { cb one, two; int (*pair)(int, int); };

static cb slots[4];
void lib_register(int slot, cb f) { slots[slot & 3] = f; }
int lib_fire(int rounds) {
  int acc = 0;
  for (int i = 0; i < rounds; i++)
    acc += slots[(i * i) % 4](i + acc % 17);
  return acc;
}

static int local_twin(int x) { return x + 99; }
__attribute__((visibility("protected"))) int lib_prot(int x) { return x ^ 0x33; }
static int l_one(int x) { return local_twin(x) % 13; }
int l_two(int x) { return lib_prot(x) & 63; }
static int l_pair(int a, int b) { return a * b % 97; }
void lib_fill(struct lib_api *api) { api->one = l_one; api->two = l_two; api->pair = l_pair; }

int lib_loop(int n) {
  int acc = 0;
  for (int i = 0; i < n; i++) {
    int v = (i * 13) % 17;
    if (v == 0) acc += 1;
    else if (v == 1) acc -= 2;
    else if (v == 2) acc ^= 3;
    else if (v == 3) acc += i;
    else if (v < 7) acc *= 2;
    else if (v < 9) acc %= 1000;
    else if (v == 10) acc += lib_prot(i);
    else if (v == 11) acc -= i * 2;
    else acc += 5;
  }
  return acc;
}

static int lib_dead(int x) { return x ? lib_dead(x - 1) + 1 : 0; }
int (*lib_keep)(int) = lib_dead;
