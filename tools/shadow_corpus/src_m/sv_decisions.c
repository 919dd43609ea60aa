/* Thirteenth-set MC/DC workload (role of mcdc_demo.c): an elevator
 * controller for a bank of three cars.  Its interlocks are decisions of
 * exactly one, two, six and seven conditions: can_move() is a 7-condition
 * `if`, the door-closing loop a 6-condition `while` condition, the travel
 * loop a 2-condition `for` condition, dispatch scoring uses nested
 * ternaries whose conditions are 2-condition decisions, SAFE() and
 * IDLE_AT() are macros expanding into compound conditions inside larger
 * ones, and FIRE_SERVICE / TRACE_STEPS are compile-time constants folded
 * into some decisions (one of them makes a whole decision constant).
 * triple() is the dispatcher's three-way verdict (nested ternaries).  The
 * request stream, faults (obstructions, overloads, a power dip, an
 * emergency stop) and the number of ticks come from argv[1].  argv: N. */
#include <stdio.h>
#include <stdlib.h>

#define NCARS 3
#define NFLOORS 12
#define MAX_LOAD 8
#define FIRE_SERVICE 0
#define TRACE_STEPS 1

enum mode { AUTO, SERVICE, PARKED };

typedef struct {
  int floor, target;
  int door_open, overload, estop, power_ok;
  int load;
  enum mode mode;
  int moves, door_cycles, refused;
} car_t;

#define SAFE(c) ((c)->power_ok && !(c)->estop)
#define IDLE_AT(c, f) ((c)->floor == (f) && (c)->target == (c)->floor)

static unsigned rng_state;
static unsigned rng(void) {
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 10) & 0xffff;
}

/* Seven conditions. */
int can_move(const car_t *c) {
  if (!c->door_open && !c->overload && c->power_ok && c->target != c->floor && !c->estop &&
      (c->mode == AUTO || c->mode == SERVICE))
    return 1;
  return 0;
}

static int obstructed(int tick) { return rng() % 11 == 0 || tick % 17 == 16; }

/* Six conditions in a while condition. */
static int close_door(car_t *c, int tick) {
  int t = 0;
  while (t < 6 && !obstructed(tick + t) && (c->load < MAX_LOAD || c->mode == SERVICE) && SAFE(c)) {
    if (++t >= 2) {
      c->door_open = 0;
      break;
    }
  }
  c->door_cycles++;
  return t;
}

/* Two conditions in a for condition; one-condition ifs inside. */
static int travel(car_t *c) {
  int steps = 0;
  for (; c->floor != c->target && steps < NFLOORS; steps++) {
    if (c->target > c->floor) c->floor++;
    else c->floor--;
    if (TRACE_STEPS) c->moves++; /* constant condition */
  }
  return steps;
}

/* The dispatcher's verdict: nested ternaries over 2-condition decisions. */
int triple(int x, int y, int z) {
  return (x > 0 && y > 0) ? (z > 0 ? 3 : 2) : (x > 0 || z > 0) ? 1 : 0;
}

static int score(const car_t *c, int floor) {
  int dist = c->floor > floor ? c->floor - floor : floor - c->floor;
  int idle = IDLE_AT(c, c->floor) && c->mode == AUTO;
  int v = triple(idle, SAFE(c), NFLOORS - dist);
  return (c->overload || c->mode == PARKED) ? -1
         : (idle && dist == 0)              ? 100
         : (FIRE_SERVICE && c->mode == SERVICE) ? 90 /* folded */
                                            : v * 10 - dist;
}

static int pick_car(car_t *cars, int floor) {
  int best = -1, best_score = -1;
  for (int i = 0; i < NCARS; i++) {
    int s = score(&cars[i], floor);
    if (s > best_score || (s == best_score && best >= 0 && cars[i].moves < cars[best].moves)) {
      best = i;
      best_score = s;
    }
  }
  return best;
}

/* A decision whose folded condition decides it: FIRE_SERVICE is 0. */
static int fire_recall(car_t *c) {
  if (FIRE_SERVICE && c->mode != PARKED) {
    c->target = 0;
    return 1;
  }
  return 0;
}

static void tick_car(car_t *c, int tick) {
  if (c->estop || FIRE_SERVICE || (c->overload && c->mode != SERVICE)) { /* one folded of four */
    c->refused++;
    if (c->overload && rng() % 3 == 0) c->overload = 0, c->load = MAX_LOAD - 1;
    if (c->estop && tick % 5 == 0) c->estop = 0;
    return;
  }
  if (c->door_open) close_door(c, tick);
  if (can_move(c)) {
    travel(c);
    c->door_open = 1;
    c->load = (c->load + (int)(rng() % 5) - 2);
    if (c->load < 0) c->load = 0;
    c->overload = c->load > MAX_LOAD;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  rng_state = (unsigned)n * 2654435761u;
  car_t cars[NCARS] = {{0, 0, 0, 0, 0, 1, 0, AUTO, 0, 0, 0},
                       {5, 5, 1, 0, 0, 1, 2, AUTO, 0, 0, 0},
                       {11, 11, 0, 0, 0, 1, 0, n % 2 ? SERVICE : AUTO, 0, 0, 0}};
  int unserved = 0, recalls = 0;
  for (int tick = 0; tick < n * 10; tick++) {
    if (tick == n * 3) cars[1].estop = 1;
    if (tick == n * 4 && n > 8) cars[2].power_ok = 0;
    if (tick == n * 6) cars[2].power_ok = 1;
    if (tick % 23 == 7) cars[0].load = MAX_LOAD + 1, cars[0].overload = 1;
    if (tick % 3 == 0) {
      int floor = (int)(rng() % NFLOORS);
      int k = pick_car(cars, floor);
      if (k < 0) unserved++;
      else cars[k].target = floor;
    }
    for (int i = 0; i < NCARS; i++) {
      recalls += fire_recall(&cars[i]);
      tick_car(&cars[i], tick);
    }
  }
  int verdicts = 0;
  for (int x = -1; x <= 1; x++)
    for (int z = -1; z <= 1; z++) verdicts = verdicts * 4 + triple(x, n % 3 - 1, z);
  for (int i = 0; i < NCARS; i++)
    printf("car%d f=%d m=%d d=%d r=%d ", i, cars[i].floor, cars[i].moves, cars[i].door_cycles,
           cars[i].refused);
  printf("u=%d rc=%d v=%d\n", unserved, recalls, verdicts);
  return 0;
}
