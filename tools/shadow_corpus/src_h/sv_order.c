/* Eighth set: phases called in the order the argument spells (temporal profiles). */
#include <stdio.h>
#include <string.h>
static volatile long sink;
__attribute__((noinline)) void setup_tables(void) { for (int i = 0; i < 100; i++) sink += i; }
__attribute__((noinline)) void load_input(void) { for (int i = 0; i < 50; i++) sink ^= i * 3; }
__attribute__((noinline)) void transform(void) { for (int i = 0; i < 70; i++) sink += sink % 7; }
__attribute__((noinline)) void report(void) { sink += 1; }
__attribute__((noinline)) void cleanup(void) { sink = 0; }
__attribute__((noinline)) void helper_a(void) { sink += 2; }
__attribute__((noinline)) void helper_b(void) { sink += 3; }
__attribute__((noinline)) void unused_phase(void) { sink -= 5; }
int main(int argc, char **argv) {
  const char *order = argc > 1 ? argv[1] : "01234";
  for (size_t i = 0; i < strlen(order); i++) {
    switch (order[i]) {
    case '0': setup_tables(); helper_a(); break;
    case '1': load_input(); break;
    case '2': transform(); helper_b(); break;
    case '3': report(); break;
    case '4': cleanup(); helper_a(); break;
    default: unused_phase();
    }
  }
  printf("%ld\n", (long)sink);
  return 0;
}
