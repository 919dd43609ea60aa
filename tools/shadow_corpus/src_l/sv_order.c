/* Eleventh-set temporal workload (role of phases.c): a discrete-event
 * scheduler.  Events sit in a binary min-heap ordered by (time, sequence);
 * each carries a handler pointer and a payload.  Every digit of argv[1]
 * schedules one subsystem's boot event at a time that depends on the
 * digit's position, and booting a subsystem schedules its follow-up events
 * (network: connect, handshake, retry with back-off; disk: open, read
 * blocks, fsync; timers: periodic ticks that cancel themselves; logging:
 * rotate and flush; shutdown: drains the queue), so the order in which the
 * handler functions are FIRST called follows the digits.  Handlers of a
 * subsystem no digit names never run; a cold error path runs only when a
 * retry budget is exhausted (digit 1 given twice).  argv: DIGITS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct event event_t;
typedef void (*handler_t)(event_t *ev);
struct event {
  unsigned long time;
  unsigned seq;
  handler_t fn;
  int arg;
};

#define HEAP_MAX 512
static event_t heap[HEAP_MAX];
static int heap_len;
static unsigned next_seq;
static unsigned long now;
static long trace_sum;
static int shutting_down;

static int earlier(const event_t *a, const event_t *b) {
  return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

__attribute__((noinline)) void schedule(unsigned long delay, handler_t fn, int arg) {
  if (heap_len >= HEAP_MAX || shutting_down) return;
  int i = heap_len++;
  event_t ev = {now + delay, next_seq++, fn, arg};
  while (i > 0 && earlier(&ev, &heap[(i - 1) / 2])) {
    heap[i] = heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  heap[i] = ev;
}

__attribute__((noinline)) static int pop_event(event_t *out) {
  if (heap_len == 0) return 0;
  *out = heap[0];
  event_t last = heap[--heap_len];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= heap_len) break;
    if (c + 1 < heap_len && earlier(&heap[c + 1], &heap[c])) c++;
    if (!earlier(&heap[c], &last)) break;
    heap[i] = heap[c];
    i = c;
  }
  heap[i] = last;
  return 1;
}

/* Network. */
static int net_attempts;
__attribute__((noinline)) void net_fail_hard(event_t *ev) { trace_sum -= 1000 + ev->arg; }
__attribute__((noinline)) void net_handshake(event_t *ev) { trace_sum += ev->arg * 3; }
__attribute__((noinline)) void net_retry(event_t *ev);
__attribute__((noinline)) void net_connect(event_t *ev) {
  if (++net_attempts % 3 != 0) schedule(10u << (net_attempts & 3), net_retry, ev->arg);
  else schedule(5, net_handshake, ev->arg);
}
__attribute__((noinline)) void net_retry(event_t *ev) {
  if (net_attempts > 6) { net_fail_hard(ev); return; }
  net_connect(ev);
}
__attribute__((noinline)) void net_boot(event_t *ev) { schedule(3, net_connect, ev->arg + 1); }

/* Disk. */
__attribute__((noinline)) void disk_fsync(event_t *ev) { trace_sum += ev->arg; }
__attribute__((noinline)) void disk_read(event_t *ev) {
  trace_sum += ev->arg & 7;
  if (ev->arg % 4 != 3) schedule(2, disk_read, ev->arg + 1);
  else schedule(20, disk_fsync, ev->arg);
}
__attribute__((noinline)) void disk_open(event_t *ev) { schedule(1, disk_read, ev->arg * 4); }
__attribute__((noinline)) void disk_boot(event_t *ev) { schedule(7, disk_open, ev->arg); }

/* Timers. */
__attribute__((noinline)) void timer_tick(event_t *ev) {
  trace_sum += 1;
  if (ev->arg > 0) schedule(15, timer_tick, ev->arg - 1);
}
__attribute__((noinline)) void timer_boot(event_t *ev) { schedule(15, timer_tick, 3 + ev->arg % 3); }

/* Logging. */
__attribute__((noinline)) void log_flush(event_t *ev) { trace_sum ^= ev->arg; }
__attribute__((noinline)) void log_rotate(event_t *ev) { schedule(4, log_flush, ev->arg + 9); }
__attribute__((noinline)) void log_boot(event_t *ev) { schedule(30, log_rotate, ev->arg); schedule(1, log_flush, ev->arg); }

/* Shutdown. */
__attribute__((noinline)) void shutdown_final(event_t *ev) { trace_sum += 100 * ev->arg; }
__attribute__((noinline)) void shutdown_boot(event_t *ev) {
  schedule(50, shutdown_final, ev->arg);
  shutting_down = 1;
}

/* Never named by a digit in the corpus's runs (5-9 map onto these too). */
__attribute__((noinline)) void cache_warm(event_t *ev) { trace_sum += ev->arg * 7; }
__attribute__((noinline)) void cache_boot(event_t *ev) { schedule(2, cache_warm, ev->arg); }

static const handler_t boots[] = {net_boot, disk_boot, timer_boot, log_boot, shutdown_boot,
                                  cache_boot};

__attribute__((noinline)) long run_loop(void) {
  event_t ev;
  long handled = 0;
  while (pop_event(&ev)) {
    now = ev.time;
    ev.fn(&ev);
    handled++;
  }
  return handled;
}

int main(int argc, char **argv) {
  const char *digits = argc > 1 ? argv[1] : "0";
  size_t n = strlen(digits);
  for (size_t i = 0; i < n; i++) {
    int d = digits[i] - '0';
    if (d < 0 || d > 9) continue;
    /* earlier digits boot earlier; a later digit may still finish first */
    schedule(i * 12 + (unsigned long)(d & 1), boots[d % 6 == 5 && d > 5 ? 5 : d % 6], d * 10 + (int)i);
  }
  long handled = run_loop();
  printf("%ld events, t=%lu, sum=%ld\n", handled, now, trace_sum);
  return 0;
}
