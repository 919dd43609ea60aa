/* Ninth set: a compiler-like driver whose phases (one per digit of the
 * argument, in that order) call distinct groups of functions; a shared utility
 * group, a phase reached only by an unknown digit, and functions never run. */
#include <stdio.h>
#include <string.h>
static volatile unsigned long sink;
#define FN(name, body) __attribute__((noinline)) void name(void) { body; }
FN(util_hash, sink = sink * 31 + 7)
FN(util_log, sink ^= 0x55)
FN(util_alloc, for (int i = 0; i < 9; i++) sink += i)
/* phase 0: init */
FN(init_config, util_alloc(); sink += 1)
FN(init_tables, for (int i = 0; i < 40; i++) sink += i * 3)
FN(init_symbols, util_hash(); util_alloc())
/* phase 1: read */
FN(read_open, sink += 11)
FN(read_chunks, for (int i = 0; i < 25; i++) { sink ^= i; util_hash(); })
FN(read_close, util_log())
/* phase 2: parse */
FN(parse_tokens, for (int i = 0; i < 60; i++) sink += sink % 5)
FN(parse_tree, util_alloc(); parse_tokens())
FN(parse_errors, util_log(); sink -= 2)
FN(parse_attrs, sink += 4)
/* phase 3: optimize */
FN(opt_fold, for (int i = 0; i < 30; i++) sink *= 3)
FN(opt_inline, util_hash(); opt_fold())
FN(opt_dce, sink &= 0xffffff)
FN(opt_licm, for (int i = 0; i < 12; i++) sink += i)
FN(opt_vectorize, sink |= 1)
/* phase 4: emit */
FN(emit_header, util_log())
FN(emit_body, for (int i = 0; i < 20; i++) sink ^= sink >> 3)
FN(emit_footer, sink += 5)
/* phase 5: link */
FN(link_resolve, util_hash(); util_hash())
FN(link_relocate, for (int i = 0; i < 15; i++) sink += 2)
/* phase 6: report */
FN(report_stats, util_log(); sink += 99)
FN(report_timing, sink -= 1)
/* reached by other characters only */
FN(phase_unknown, sink = ~sink)
FN(never_a, sink += 1000)
FN(never_b, never_a(); sink += 2000)
int main(int argc, char **argv) {
  const char *order = argc > 1 ? argv[1] : "01234";
  size_t len = strlen(order);
  for (size_t i = 0; i < len; i++) {
    switch (order[i]) {
    case '0': init_config(); init_tables(); init_symbols(); break;
    case '1': read_open(); read_chunks(); read_close(); break;
    case '2': parse_tree(); parse_attrs(); if (i % 2) parse_errors(); break;
    case '3': opt_inline(); opt_dce(); opt_licm(); if (len > 3) opt_vectorize(); break;
    case '4': emit_header(); emit_body(); emit_footer(); break;
    case '5': link_resolve(); link_relocate(); break;
    case '6': report_stats(); report_timing(); break;
    default: phase_unknown();
    }
  }
  if (len > 100) never_b();
  printf("%lu\n", (unsigned long)(sink & 0xffff));
  return 0;
}
