/* Shared-library half of the thirteenth shared-library workload (role of
 * vis_lib.c): a small event loop.  The program registers handlers for
 * event types with loop_on(); loop_run() pops events from a ring buffer
 * and calls the handler through one indirect call site, and handlers call
 * back into the library (loop_post() to queue follow-up events,
 * loop_stat() to read counters).  The library also hands the program
 * function pointers of its own (loop_default_hasher() returns one of two
 * hash functions, loop_filter_for() one of three event filters), so calls
 * go both ways through pointers.  A constructor sets the loop up before
 * the program's main runs and registers the library's own "tick" handler;
 * a destructor drains what is left after main (after the profile is
 * written); loop_reset() is never called. */
#include <string.h>

typedef struct {
  int type;
  int payload;
} event_t;

typedef int (*handler_fn)(const event_t *ev, void *ctx);
typedef unsigned (*hash_fn)(const char *s);
typedef int (*filter_fn)(const event_t *ev);

#define MAX_TYPES 16
#define RING 64

static struct {
  handler_fn handlers[MAX_TYPES];
  void *ctx[MAX_TYPES];
  event_t ring[RING];
  int head, tail, count;
  long dispatched, dropped, unhandled;
  int initialised;
} loop;

int loop_post(int type, int payload) {
  if (loop.count == RING || type < 0 || type >= MAX_TYPES) {
    loop.dropped++;
    return -1;
  }
  loop.ring[loop.tail] = (event_t){type, payload};
  loop.tail = (loop.tail + 1) % RING;
  loop.count++;
  return 0;
}

int loop_on(int type, handler_fn fn, void *ctx) {
  if (type < 0 || type >= MAX_TYPES) return -1;
  int replaced = loop.handlers[type] != 0;
  loop.handlers[type] = fn;
  loop.ctx[type] = ctx;
  return replaced;
}

long loop_stat(int which) {
  switch (which) {
  case 0: return loop.dispatched;
  case 1: return loop.dropped;
  default: return loop.unhandled;
  }
}

long loop_run(filter_fn filter, int budget) {
  long result = 0;
  while (loop.count > 0 && budget-- > 0) {
    event_t ev = loop.ring[loop.head];
    loop.head = (loop.head + 1) % RING;
    loop.count--;
    if (filter && !filter(&ev)) continue;
    handler_fn h = loop.handlers[ev.type];
    if (!h) {
      loop.unhandled++;
      continue;
    }
    loop.dispatched++;
    result += h(&ev, loop.ctx[ev.type]);
  }
  return result;
}

void loop_reset(void) { memset(&loop, 0, sizeof loop); }

/* hash functions and filters the program calls through pointers */
static unsigned djb2(const char *s) {
  unsigned h = 5381;
  while (*s) h = h * 33 + (unsigned char)*s++;
  return h;
}
static unsigned sdbm(const char *s) {
  unsigned h = 0;
  while (*s) h = (unsigned char)*s++ + (h << 6) + (h << 16) - h;
  return h;
}
hash_fn loop_default_hasher(int fast) { return fast ? djb2 : sdbm; }

static int keep_all(const event_t *ev) { (void)ev; return 1; }
static int keep_even(const event_t *ev) { return ev->payload % 2 == 0; }
static int keep_low_types(const event_t *ev) { return ev->type < 4; }
filter_fn loop_filter_for(int mode) {
  static const filter_fn filters[] = {keep_all, keep_even, keep_low_types};
  return filters[(unsigned)mode % 3];
}

/* the library's own handler: a tick that re-posts itself a few times */
static int tick_handler(const event_t *ev, void *ctx) {
  int *ticks = ctx;
  if (++*ticks < 5) loop_post(ev->type, ev->payload + 1);
  return 1;
}
static int ticks;

__attribute__((constructor)) static void loop_init(void) {
  loop.initialised = 1;
  loop_on(15, tick_handler, &ticks);
  loop_post(15, 0);
}

__attribute__((destructor)) static void loop_drain(void) {
  while (loop.count > 0) {
    loop.head = (loop.head + 1) % RING;
    loop.count--;
  }
}
