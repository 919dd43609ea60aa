/* Program half of the thirteenth shared-library workload (role of
 * vis_main.c): a log-ingest service built on the library's event loop.
 * It registers handlers for five event types (parse, route, store, alert,
 * and one it replaces), whose bodies post follow-up events back into the
 * library's queue and read its counters; it takes a hash function and
 * event filters from the library and calls them through pointers; the
 * queue overflows once (posts are dropped) and some events have no
 * handler.  An atexit handler registered in main reads the library's
 * counters again before the profile is written.  No arguments. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int type;
  int payload;
} event_t;
typedef int (*handler_fn)(const event_t *ev, void *ctx);
typedef unsigned (*hash_fn)(const char *s);
typedef int (*filter_fn)(const event_t *ev);

int loop_post(int type, int payload);
int loop_on(int type, handler_fn fn, void *ctx);
long loop_stat(int which);
long loop_run(filter_fn filter, int budget);
hash_fn loop_default_hasher(int fast);
filter_fn loop_filter_for(int mode);

enum { EV_PARSE = 1, EV_ROUTE, EV_STORE, EV_ALERT, EV_AUDIT, EV_ORPHAN = 9 };

typedef struct {
  hash_fn hash;
  long stored, alerts, routed;
  unsigned buckets[8];
} service_t;

static const char *const lines[] = {"GET /index", "POST /login", "ERROR disk full",
                                    "GET /img/a.png", "WARN slow query", "ERROR timeout"};

static int on_parse(const event_t *ev, void *ctx) {
  service_t *s = ctx;
  const char *line = lines[ev->payload % 6];
  unsigned h = s->hash(line);
  if (line[0] == 'E') loop_post(EV_ALERT, ev->payload);
  loop_post(EV_ROUTE, (int)(h % 1000));
  return 1;
}
static int on_route(const event_t *ev, void *ctx) {
  service_t *s = ctx;
  s->routed++;
  s->buckets[ev->payload % 8]++;
  if (ev->payload % 3) loop_post(EV_STORE, ev->payload);
  else loop_post(EV_ORPHAN, ev->payload); /* nobody handles these */
  return 2;
}
static int on_store(const event_t *ev, void *ctx) {
  service_t *s = ctx;
  s->stored += ev->payload;
  return loop_stat(0) > 50 ? 0 : 1;
}
static int on_alert(const event_t *ev, void *ctx) {
  service_t *s = ctx;
  s->alerts++;
  return ev->payload;
}
static int on_audit_old(const event_t *ev, void *ctx) { (void)ctx; return -ev->payload; }
static int on_audit(const event_t *ev, void *ctx) { (void)ctx; return ev->payload & 3; }

static service_t svc;
static long at_exit_dispatched;
static void report_stats(void) { at_exit_dispatched = loop_stat(0) + loop_stat(1) + loop_stat(2); }

int main(void) {
  atexit(report_stats);
  svc.hash = loop_default_hasher(1);
  loop_on(EV_PARSE, on_parse, &svc);
  loop_on(EV_ROUTE, on_route, &svc);
  loop_on(EV_STORE, on_store, &svc);
  loop_on(EV_ALERT, on_alert, &svc);
  loop_on(EV_AUDIT, on_audit_old, &svc);
  int replaced = loop_on(EV_AUDIT, on_audit, &svc);
  long total = 0;
  for (int round = 0; round < 4; round++) {
    if (round == 2) svc.hash = loop_default_hasher(0);
    int burst = round == 3 ? 80 : 12; /* the last burst overflows the ring */
    for (int i = 0; i < burst; i++) loop_post(i % 7 == 6 ? EV_AUDIT : EV_PARSE, round * 31 + i);
    total += loop_run(loop_filter_for(round), 500);
  }
  total += loop_run(NULL, 500);
  printf("%ld %ld %ld %ld %d dispatched=%ld dropped=%ld unhandled=%ld\n", total, svc.stored,
         svc.alerts, svc.routed, replaced, loop_stat(0), loop_stat(1), loop_stat(2));
  return 0;
}
