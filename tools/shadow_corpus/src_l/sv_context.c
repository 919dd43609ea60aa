/* Eleventh-set context-sensitive PGO workload (role of cspgo.c): an LRU
 * cache in front of a slow "backing store".  A chained hash map (keys are
 * request ids) points into a doubly-linked recency list; a miss calls the
 * cache's loader callback, an eviction its evict callback (two caches with
 * different callbacks share the code, so the inlined copies of lookup()
 * and evict_one() see different mixes in their callers); small_values() is
 * an external function with a switch, inlined into the loaders and also
 * called through a pointer; requests come from a skewed generator (a hot
 * set and a cold tail), and a "scan" phase that thrashes the cache runs
 * only when COUNT < 200.  argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
  unsigned key;
  long value;
  struct entry *next_in_bucket;
  struct entry *prev, *next; /* recency list, head = most recent */
} entry_t;

typedef long (*load_fn)(unsigned key, void *ctx);
typedef void (*evict_fn)(const entry_t *e, void *ctx);

typedef struct {
  entry_t **buckets;
  unsigned nbuckets;
  entry_t *slab;
  unsigned capacity, used;
  entry_t *head, *tail;
  load_fn load;
  evict_fn evict;
  void *ctx;
  unsigned hits, misses, evictions;
} lru_t;

int small_values(int v) {
  switch (v & 7) {
  case 0: return v;
  case 1: return v * 3;
  case 2: case 6: return v - 2;
  case 4: return v ^ 0x33;
  default: return v > 500 ? v / 8 : v + 5;
  }
}

static unsigned hash_key(unsigned k) {
  k ^= k >> 16;
  k *= 0x7feb352du;
  k ^= k >> 15;
  return k;
}

static void list_unlink(lru_t *c, entry_t *e) {
  if (e->prev) e->prev->next = e->next; else c->head = e->next;
  if (e->next) e->next->prev = e->prev; else c->tail = e->prev;
  e->prev = e->next = NULL;
}
static void list_push_front(lru_t *c, entry_t *e) {
  e->prev = NULL;
  e->next = c->head;
  if (c->head) c->head->prev = e;
  c->head = e;
  if (!c->tail) c->tail = e;
}

static void bucket_remove(lru_t *c, entry_t *e) {
  entry_t **p = &c->buckets[hash_key(e->key) % c->nbuckets];
  while (*p && *p != e) p = &(*p)->next_in_bucket;
  if (*p) *p = e->next_in_bucket;
}

static entry_t *evict_one(lru_t *c) {
  entry_t *victim = c->tail;
  list_unlink(c, victim);
  bucket_remove(c, victim);
  if (c->evict) c->evict(victim, c->ctx);
  c->evictions++;
  return victim;
}

static long lookup(lru_t *c, unsigned key) {
  unsigned b = hash_key(key) % c->nbuckets;
  for (entry_t *e = c->buckets[b]; e; e = e->next_in_bucket) {
    if (e->key == key) {
      c->hits++;
      if (c->head != e) { list_unlink(c, e); list_push_front(c, e); }
      return e->value;
    }
  }
  c->misses++;
  entry_t *e = c->used < c->capacity ? &c->slab[c->used++] : evict_one(c);
  e->key = key;
  e->value = c->load(key, c->ctx);
  e->next_in_bucket = c->buckets[b];
  c->buckets[b] = e;
  list_push_front(c, e);
  return e->value;
}

static void lru_init(lru_t *c, unsigned capacity, load_fn load, evict_fn evict, void *ctx) {
  memset(c, 0, sizeof *c);
  c->capacity = capacity;
  c->nbuckets = capacity * 2 + 1;
  c->buckets = calloc(c->nbuckets, sizeof *c->buckets);
  c->slab = calloc(capacity, sizeof *c->slab);
  c->load = load;
  c->evict = evict;
  c->ctx = ctx;
}
static void lru_free(lru_t *c) { free(c->buckets); free(c->slab); }

/* The backing stores. */
typedef struct { long loads; long checksum; } store_t;
__attribute__((noinline)) long load_record(unsigned key, void *ctx) {
  store_t *s = ctx;
  s->loads++;
  long v = 0;
  for (unsigned k = 0; k < 4 + key % 13; k++) v += small_values((int)(key * 7 + k));
  return v;
}
__attribute__((noinline)) long load_thumbnail(unsigned key, void *ctx) {
  store_t *s = ctx;
  s->loads += 2;
  return small_values((int)key) + small_values((int)(key >> 3));
}
__attribute__((noinline)) void evict_log(const entry_t *e, void *ctx) {
  store_t *s = ctx;
  s->checksum += (long)e->key * 31 + e->value;
}
__attribute__((noinline)) void evict_writeback(const entry_t *e, void *ctx) {
  store_t *s = ctx;
  if (e->value & 1) s->checksum ^= e->value;
  else s->checksum += 1;
}

/* Requests: 80% from a hot set of 24 keys, the rest from a tail of 2,000. */
static unsigned req_state = 12345;
static unsigned next_request(void) {
  req_state = req_state * 1664525u + 1013904223u;
  unsigned r = req_state >> 10;
  return r % 10 < 8 ? r % 24 : 100 + r % 2000;
}

__attribute__((noinline)) long serve(lru_t *records, lru_t *thumbs, int n) {
  long t = 0;
  for (int i = 0; i < n; i++) {
    unsigned key = next_request();
    t += lookup(records, key);
    if (i % 3 == 0) t += lookup(thumbs, key / 2);
  }
  return t;
}

__attribute__((noinline)) long scan(lru_t *records, int n) {
  long t = 0;
  for (int i = 0; i < n * 2; i++) t += lookup(records, 5000u + (unsigned)i);
  return t;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  store_t db = {0, 0}, img = {0, 0};
  lru_t records, thumbs;
  lru_init(&records, 32, load_record, evict_log, &db);
  lru_init(&thumbs, 8, load_thumbnail, evict_writeback, &img);
  long t = serve(&records, &thumbs, n);
  if (n < 200) t += scan(&records, n);
  int (*volatile through)(int) = small_values;
  for (int i = 0; i < n / 40; i++) t += through(i * 3);
  printf("%ld %u/%u/%u %u/%u/%u %ld %ld\n", t, records.hits, records.misses, records.evictions,
         thumbs.hits, thumbs.misses, thumbs.evictions, db.checksum + db.loads, img.checksum + img.loads);
  lru_free(&records);
  lru_free(&thumbs);
  return 0;
}
