/* Thirteenth-set temporal workload (role of phases.c): a service manager.
 * Eight services (log, config, net, db, cache, auth, http, metrics) each
 * have start, serve and stop functions and depend on others; each digit of
 * argv[1] asks for one top-level service (0 http, 1 db, 2 metrics,
 * 3 cache, 4 auth, other digits: none), which is started after its
 * dependencies, depth first, so the order in which the start functions are
 * FIRST called follows the digits.  Every started service registers its
 * stop function with atexit, so the stop functions run after main, in the
 * reverse of the start order, and before the profile runtime's own exit
 * handler writes the profile.  discover_services() and probe_hardware() run
 * before main (constructors); flush_journal() is a destructor and so runs
 * after the profile is written (it never appears in a profile).  A serve
 * pass calls each started service's serve function a number of times that
 * depends on the digit's position.  argv: DIGITS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LOG, CONFIG, NET, DB, CACHE, AUTH, HTTP, METRICS, NSVC };

typedef struct {
  const char *name;
  int deps[3];
  int ndeps;
  void (*start)(void);
  int (*serve)(int);
  void (*stop)(void);
} service_t;

static int started[NSVC], start_order[NSVC], nstarted;
static long ledger;
static int hardware_threads;

#define SVC(lower)                                                               \
  __attribute__((noinline)) static void lower##_start(void) { ledger += 1; }     \
  __attribute__((noinline)) static int lower##_serve(int x) { return x * 3 + 1; } \
  __attribute__((noinline)) static void lower##_stop(void) { ledger -= 1; }

SVC(log)
SVC(config)
SVC(cache)
SVC(metrics)

/* services with bodies of their own */
__attribute__((noinline)) static void net_start(void) { ledger += hardware_threads; }
__attribute__((noinline)) static int net_serve(int x) {
  int r = 0;
  for (int i = 0; i < x % 5; i++) r += i; /* 0 trips when x % 5 == 0 */
  return r;
}
__attribute__((noinline)) static void net_stop(void) { ledger -= hardware_threads; }
__attribute__((noinline)) static void db_start(void) { ledger += 10; }
__attribute__((noinline)) static int db_serve(int x) { return x % 7 == 0 ? -1 : x / 2; }
__attribute__((noinline)) static void db_stop(void) { ledger -= 10; }
__attribute__((noinline)) static void auth_start(void) { ledger += 100; }
__attribute__((noinline)) static int auth_serve(int x) { return x & 1; }
__attribute__((noinline)) static void auth_stop(void) { ledger -= 100; }
__attribute__((noinline)) static void http_start(void) { ledger += 1000; }
__attribute__((noinline)) static int http_serve(int x) {
  switch (x % 4) {
  case 0: return 200;
  default: return 404;
  case 2: return 301;
  }
}
__attribute__((noinline)) static void http_stop(void) { ledger -= 1000; }

static const service_t services[NSVC] = {
    [LOG] = {"log", {0}, 0, log_start, log_serve, log_stop},
    [CONFIG] = {"config", {LOG}, 1, config_start, config_serve, config_stop},
    [NET] = {"net", {LOG}, 1, net_start, net_serve, net_stop},
    [DB] = {"db", {CONFIG, LOG}, 2, db_start, db_serve, db_stop},
    [CACHE] = {"cache", {CONFIG}, 1, cache_start, cache_serve, cache_stop},
    [AUTH] = {"auth", {DB, CONFIG}, 2, auth_start, auth_serve, auth_stop},
    [HTTP] = {"http", {NET, AUTH, CACHE}, 3, http_start, http_serve, http_stop},
    [METRICS] = {"metrics", {LOG}, 1, metrics_start, metrics_serve, metrics_stop},
};

static const int top_level[] = {HTTP, DB, METRICS, CACHE, AUTH};

/* atexit takes no argument: one trampoline per service */
#define STOPPER(id) static void stop_##id(void) { services[id].stop(); }
STOPPER(LOG) STOPPER(CONFIG) STOPPER(NET) STOPPER(DB) STOPPER(CACHE) STOPPER(AUTH) STOPPER(HTTP)
STOPPER(METRICS)
static void (*const stoppers[NSVC])(void) = {stop_LOG,   stop_CONFIG, stop_NET,  stop_DB,
                                              stop_CACHE, stop_AUTH,   stop_HTTP, stop_METRICS};

__attribute__((noinline)) static void start_service(int id) {
  if (started[id]) return;
  started[id] = 1; /* also breaks cycles */
  for (int d = 0; d < services[id].ndeps; d++) start_service(services[id].deps[d]);
  services[id].start();
  start_order[nstarted++] = id;
  atexit(stoppers[id]);
}

__attribute__((constructor)) static void probe_hardware(void) { hardware_threads = 4; }
__attribute__((constructor)) static void discover_services(void) {
  for (int i = 0; i < NSVC; i++)
    if (services[i].ndeps > 3) abort(); /* a broken table */
}
__attribute__((destructor)) static void flush_journal(void) { ledger = 0; }

int main(int argc, char **argv) {
  const char *digits = argc > 1 ? argv[1] : "0";
  size_t n = strlen(digits);
  for (size_t i = 0; i < n; i++) {
    int d = digits[i] - '0';
    if (d >= 0 && d < 5) start_service(top_level[d]);
  }
  long served = 0;
  for (int k = 0; k < nstarted; k++) {
    int id = start_order[k];
    for (int r = 0; r < (k + 1) * 3; r++) served += services[id].serve(r + k);
  }
  printf("%d started:", nstarted);
  for (int k = 0; k < nstarted; k++) printf(" %s", services[start_order[k]].name);
  printf(" served=%ld ledger=%ld\n", served, ledger);
  return 0;
}
