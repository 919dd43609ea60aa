/* Shared-library half of the eleventh shared-library workload (role of
 * vis_lib.c): a plugin host.  Plugins register a descriptor (name,
 * priority, init/process/finish callbacks) in a table kept sorted by
 * priority; the library registers three built-in plugins from a
 * constructor, the executable adds its own, and host_run() drives every
 * plugin's callbacks over a stream of records, so its indirect call sites
 * reach functions of both modules.  A plugin whose init fails is disabled;
 * a duplicate name is refused; host_find() looks plugins up by name;
 * host_unregister() is never called. */
#include <stdio.h>
#include <string.h>

typedef struct plugin {
  const char *name;
  int priority;
  int (*init)(void *state);
  int (*process)(void *state, int record);
  void (*finish)(void *state, long *total);
  void *state;
} plugin_t;

#define MAX_PLUGINS 16
static plugin_t table[MAX_PLUGINS];
static int enabled[MAX_PLUGINS];
static int nplugins;

int host_register(const plugin_t *p) {
  if (nplugins >= MAX_PLUGINS || !p->process) return -1;
  for (int i = 0; i < nplugins; i++)
    if (strcmp(table[i].name, p->name) == 0) return -2;
  int at = nplugins++;
  while (at > 0 && table[at - 1].priority > p->priority) {
    table[at] = table[at - 1];
    enabled[at] = enabled[at - 1];
    at--;
  }
  table[at] = *p;
  enabled[at] = 1;
  return at;
}

int host_unregister(const char *name) {
  for (int i = 0; i < nplugins; i++)
    if (strcmp(table[i].name, name) == 0) {
      memmove(&table[i], &table[i + 1], (size_t)(nplugins - i - 1) * sizeof table[0]);
      nplugins--;
      return 0;
    }
  return -1;
}

const plugin_t *host_find(const char *name) {
  for (int i = 0; i < nplugins; i++)
    if (strcmp(table[i].name, name) == 0) return &table[i];
  return NULL;
}

long host_run(const int *records, int n) {
  long total = 0;
  for (int i = 0; i < nplugins; i++)
    if (table[i].init && table[i].init(table[i].state) != 0) enabled[i] = 0;
  for (int r = 0; r < n; r++)
    for (int i = 0; i < nplugins; i++) {
      if (!enabled[i]) continue;
      int v = table[i].process(table[i].state, records[r]);
      if (v < 0) { enabled[i] = 0; continue; } /* a plugin may drop out */
      total += v;
    }
  for (int i = 0; i < nplugins; i++)
    if (table[i].finish) table[i].finish(table[i].state, &total);
  return total;
}

/* Built-in plugins. */
static long counter_state;
static int counter_init(void *s) { *(long *)s = 0; return 0; }
static int counter_process(void *s, int rec) { (*(long *)s)++; return rec & 1; }
static void counter_finish(void *s, long *total) { *total += *(long *)s; }

static int max_state;
static int max_process(void *s, int rec) {
  int *m = s;
  if (rec > *m) { *m = rec; return 1; }
  return 0;
}

static int histogram[8];
static int histo_init(void *s) { memset(s, 0, sizeof histogram); return 0; }
static int histo_process(void *s, int rec) { ((int *)s)[(unsigned)rec % 8]++; return 0; }
static void histo_finish(void *s, long *total) {
  int *h = s, best = 0;
  for (int k = 1; k < 8; k++) if (h[k] > h[best]) best = k;
  *total += best;
}

__attribute__((constructor)) static void register_builtins(void) {
  static const plugin_t builtins[] = {
      {"count", 50, counter_init, counter_process, counter_finish, &counter_state},
      {"max", 10, NULL, max_process, NULL, &max_state},
      {"histogram", 30, histo_init, histo_process, histo_finish, histogram},
  };
  for (unsigned i = 0; i < sizeof builtins / sizeof builtins[0]; i++) host_register(&builtins[i]);
}
