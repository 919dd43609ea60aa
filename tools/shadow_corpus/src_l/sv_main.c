/* Program half of the eleventh shared-library workload (role of
 * vis_main.c): registers four plugins of its own with the library's host
 * (one whose init fails, one that drops out after a bad record, one
 * refused as a duplicate name), runs the host over a generated record
 * stream twice, and looks plugins up by name.  No arguments. */
#include <stdio.h>

typedef struct plugin {
  const char *name;
  int priority;
  int (*init)(void *state);
  int (*process)(void *state, int record);
  void (*finish)(void *state, long *total);
  void *state;
} plugin_t;

int host_register(const plugin_t *p);
const plugin_t *host_find(const char *name);
long host_run(const int *records, int n);

static long sum_state;
static int sum_process(void *s, int rec) { *(long *)s += rec; return rec % 5; }
static void sum_finish(void *s, long *total) { *total += *(long *)s / 10; }

static int flaky_init(void *s) { (void)s; return 1; } /* always fails */
static int flaky_process(void *s, int rec) { (void)s; return rec; }

static int strict_seen;
static int strict_process(void *s, int rec) {
  int *seen = s;
  if (rec > 90) return -1; /* drops out */
  return ++*seen & 3;
}

static int dup_process(void *s, int rec) { (void)s; return rec * 2; }

int main(void) {
  const plugin_t mine[] = {
      {"sum", 20, NULL, sum_process, sum_finish, &sum_state},
      {"flaky", 5, flaky_init, flaky_process, NULL, NULL},
      {"strict", 40, NULL, strict_process, NULL, &strict_seen},
      {"max", 1, NULL, dup_process, NULL, NULL},
  };
  int refused = 0;
  for (int i = 0; i < 4; i++) refused += host_register(&mine[i]) < 0;
  int records[200];
  unsigned x = 7;
  for (int i = 0; i < 200; i++) { x = x * 1103515245u + 12345u; records[i] = (int)((x >> 16) % 97); }
  long total = host_run(records, 120) + host_run(records + 120, 80);
  const plugin_t *h = host_find("histogram");
  const plugin_t *none = host_find("missing");
  printf("%ld %d %d %d\n", total, refused, h ? h->priority : -1, none != 0);
  return 0;
}
