/* Thirteenth-set context-sensitive PGO workload (role of cspgo.c): a
 * shipping-rate calculator.  small_values() is an external function (a
 * switch over weight classes with its default in the middle and
 * fallthrough) inlined into three quoting paths that feed it opposite
 * mixes: quote_letter() sees almost only classes 0-2, quote_freight()
 * almost only the default, and quote_parcel() a spread; the always_inline
 * helper zone_factor() and the static inline surcharge() are inlined into
 * all of them too, and main calls small_values() out of line through a
 * rule hook (a volatile function pointer).  A rate table (a 448-byte
 * struct) is built by a constructor before main and passed BY VALUE to
 * rate_snapshot() (a compiler-made copy); a static cache inside best_rate() is filled on
 * first use; __builtin_expect marks the oversize path, which calls a cold
 * function; a holiday loop runs 0 times unless COUNT is a multiple of 50.
 * argv: COUNT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int base[8][8];         /* zone x class */
  double fuel[8];
  int holidays[24];
  int nholidays;
  char carrier[28];
} rate_table_t;

static rate_table_t rates;

int small_values(int v) {
  int r = 0;
  switch (v & 7) {
  case 0:
    r = v / 2;
    break;
  case 1:
    r += 3;
    /* fallthrough */
  case 2:
    r += v + 1;
    break;
  default: /* 3, 4 and 7 */
    r = v > 400 ? v / 16 + 40 : v / 4 + 9;
    /* fallthrough */
  case 5:
    r += 2;
    break;
  case 6:
    r = v * 3 % 97;
    break;
  }
  return r;
}

static inline __attribute__((always_inline)) int zone_factor(int zone, int distance) {
  if (distance < 100) return 1 + (zone & 1);
  if (distance < 1000) return 2 + zone % 3;
  return 4 + zone;
}

static inline int surcharge(int weight, int fragile) {
  int s = 0;
  if (fragile) s += 5;
  if (weight > 30) s += (weight - 30) / 4;
  return s;
}

__attribute__((cold, noinline)) static int oversize_fee(int weight) { return 250 + weight * 3; }

__attribute__((noinline)) int quote_letter(int grams, int zone) {
  int cls = grams / 20; /* letters: almost always classes 0-2 */
  int v = small_values(cls * 8 + (grams & 1));
  return v + rates.base[zone & 7][cls & 7] * zone_factor(zone, 50) + surcharge(grams / 1000, 0);
}

__attribute__((noinline)) int quote_freight(int kilos, int zone, int distance) {
  int v = small_values(kilos * 8 + 3 + (kilos & 4)); /* classes 3, 7: the default */
  int q = v + rates.base[zone & 7][7] * zone_factor(zone, distance) + surcharge(kilos, kilos % 9 == 0);
  if (__builtin_expect(kilos > 900, 0)) q += oversize_fee(kilos);
  return q;
}

__attribute__((noinline)) int quote_parcel(int kilos, int zone, int distance, int fragile) {
  int v = small_values(kilos * 5 + zone);
  return v + rates.base[zone & 7][(kilos / 5) & 7] * zone_factor(zone, distance) +
         surcharge(kilos, fragile);
}

/* First call fills a cache of the cheapest class per zone. */
static int best_rate(int zone) {
  static int cache[8];
  static int filled;
  if (!filled) {
    for (int z = 0; z < 8; z++) {
      int best = rates.base[z][0];
      for (int c = 1; c < 8; c++)
        if (rates.base[z][c] < best) best = rates.base[z][c];
      cache[z] = best;
    }
    filled = 1;
  }
  return cache[zone & 7];
}

/* Takes the whole table by value. */
__attribute__((noinline)) long rate_snapshot(rate_table_t t, int day) {
  long sum = 0;
  for (int z = 0; z < 8; z++) sum += t.base[z][day & 7] + (long)(t.fuel[z] * 10);
  for (int h = 0; h < t.nholidays; h++) /* 0 trips on most days */
    if (t.holidays[h] == day) sum *= 2;
  return sum + t.carrier[0];
}

__attribute__((constructor)) static void load_rates(void) {
  rate_table_t t = {{{0}}};
  for (int z = 0; z < 8; z++) {
    for (int c = 0; c < 8; c++) t.base[z][c] = 3 + z * 2 + c * (c + 1) / 2;
    t.fuel[z] = 1.05 + z * 0.01;
  }
  strcpy(t.carrier, "northwind");
  rates = t; /* struct copy */
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  if (n % 50 == 0) {
    rates.nholidays = n / 100 < 24 ? n / 100 : 24;
    for (int h = 0; h < rates.nholidays; h++) rates.holidays[h] = h * 15 % 365;
  }
  long total = 0;
  unsigned x = 2463534242u;
  for (int i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    int zone = (int)(x % 8), distance = (int)(x >> 8) % 3000;
    total += quote_letter((int)(x >> 4) % 60, zone);
    if (i % 3 == 0) total += quote_freight(40 + (int)(x >> 12) % 900 + (i % 97 == 0 ? 200 : 0), zone, distance);
    if (i % 2 == 0) total += quote_parcel((int)(x >> 16) % 40, zone, distance, (int)(x & 1));
    total += best_rate(zone);
  }
  for (int day = 0; day < n / 100; day++) total += rate_snapshot(rates, day * 15 % 365);
  /* a pluggable rule hook, here the default rule: an out-of-line call */
  int (*volatile rule)(int) = small_values;
  for (int i = 0; i < n / 40; i++) total += rule(i * 13);
  printf("%ld\n", total);
  return 0;
}
