/* Eleventh MC/DC workload (role of mcdc_demo.c), with decisions far past the
 * six conditions of clang 18: clang 19 and 22 take up to 32,767 conditions
 * and 2**31-2 test vectors per decision.  chain300() is ONE decision of 300
 * conditions joined by && (301 test vectors, a bitmap of 38 bytes, 599
 * counters); pairs16() and pairs19() are single decisions of 16 and 19
 * (a || b) pairs joined by && (bitmaps of 16 KiB and 128 KiB in one
 * function: more than 255 and more than 65,535 bitmap bytes; clang 19's and
 * 22's text reader counts bitmap bytes in a uint8_t, so they refuse the
 * text files their own merge --text writes of these), evaluated on data
 * that reaches thousands of distinct test vectors; mixed() has decisions of
 * 12 to 20 conditions mixing &&, || and ! (clang 19 leaves out the one
 * holding a negated sub-decision, with a warning; clang 22 takes it);
 * decisions built entirely inside macros (a macro whose body is the
 * decision, a macro whose arguments are decisions, a macro that expands to
 * an if statement), evaluated in loops; three pthreads evaluating the
 * same decisions in lock-step turns (bitmap bytes updated from each thread,
 * deterministic); a decision in a function called once and one in a
 * function no run calls.  argv: COUNT. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

int chain300(const int *v) {
  return v[0] != 1 && v[1] != 2 && v[2] != 3 && v[3] != 4 && v[4] != 5 && v[5] != 1 &&
         v[6] != 2 && v[7] != 3 && v[8] != 4 && v[9] != 5 && v[10] != 1 && v[11] != 2 &&
         v[12] != 3 && v[13] != 4 && v[14] != 5 && v[15] != 1 && v[16] != 2 && v[17] != 3 &&
         v[18] != 4 && v[19] != 5 && v[20] != 1 && v[21] != 2 && v[22] != 3 && v[23] != 4 &&
         v[24] != 5 && v[25] != 1 && v[26] != 2 && v[27] != 3 && v[28] != 4 && v[29] != 5 &&
         v[30] != 1 && v[31] != 2 && v[32] != 3 && v[33] != 4 && v[34] != 5 && v[35] != 1 &&
         v[36] != 2 && v[37] != 3 && v[38] != 4 && v[39] != 5 && v[40] != 1 && v[41] != 2 &&
         v[42] != 3 && v[43] != 4 && v[44] != 5 && v[45] != 1 && v[46] != 2 && v[47] != 3 &&
         v[48] != 4 && v[49] != 5 && v[50] != 1 && v[51] != 2 && v[52] != 3 && v[53] != 4 &&
         v[54] != 5 && v[55] != 1 && v[56] != 2 && v[57] != 3 && v[58] != 4 && v[59] != 5 &&
         v[60] != 1 && v[61] != 2 && v[62] != 3 && v[63] != 4 && v[64] != 5 && v[65] != 1 &&
         v[66] != 2 && v[67] != 3 && v[68] != 4 && v[69] != 5 && v[70] != 1 && v[71] != 2 &&
         v[72] != 3 && v[73] != 4 && v[74] != 5 && v[75] != 1 && v[76] != 2 && v[77] != 3 &&
         v[78] != 4 && v[79] != 5 && v[80] != 1 && v[81] != 2 && v[82] != 3 && v[83] != 4 &&
         v[84] != 5 && v[85] != 1 && v[86] != 2 && v[87] != 3 && v[88] != 4 && v[89] != 5 &&
         v[90] != 1 && v[91] != 2 && v[92] != 3 && v[93] != 4 && v[94] != 5 && v[95] != 1 &&
         v[96] != 2 && v[97] != 3 && v[98] != 4 && v[99] != 5 && v[100] != 1 && v[101] != 2 &&
         v[102] != 3 && v[103] != 4 && v[104] != 5 && v[105] != 1 && v[106] != 2 && v[107] != 3 &&
         v[108] != 4 && v[109] != 5 && v[110] != 1 && v[111] != 2 && v[112] != 3 && v[113] != 4 &&
         v[114] != 5 && v[115] != 1 && v[116] != 2 && v[117] != 3 && v[118] != 4 && v[119] != 5 &&
         v[120] != 1 && v[121] != 2 && v[122] != 3 && v[123] != 4 && v[124] != 5 && v[125] != 1 &&
         v[126] != 2 && v[127] != 3 && v[128] != 4 && v[129] != 5 && v[130] != 1 && v[131] != 2 &&
         v[132] != 3 && v[133] != 4 && v[134] != 5 && v[135] != 1 && v[136] != 2 && v[137] != 3 &&
         v[138] != 4 && v[139] != 5 && v[140] != 1 && v[141] != 2 && v[142] != 3 && v[143] != 4 &&
         v[144] != 5 && v[145] != 1 && v[146] != 2 && v[147] != 3 && v[148] != 4 && v[149] != 5 &&
         v[150] != 1 && v[151] != 2 && v[152] != 3 && v[153] != 4 && v[154] != 5 && v[155] != 1 &&
         v[156] != 2 && v[157] != 3 && v[158] != 4 && v[159] != 5 && v[160] != 1 && v[161] != 2 &&
         v[162] != 3 && v[163] != 4 && v[164] != 5 && v[165] != 1 && v[166] != 2 && v[167] != 3 &&
         v[168] != 4 && v[169] != 5 && v[170] != 1 && v[171] != 2 && v[172] != 3 && v[173] != 4 &&
         v[174] != 5 && v[175] != 1 && v[176] != 2 && v[177] != 3 && v[178] != 4 && v[179] != 5 &&
         v[180] != 1 && v[181] != 2 && v[182] != 3 && v[183] != 4 && v[184] != 5 && v[185] != 1 &&
         v[186] != 2 && v[187] != 3 && v[188] != 4 && v[189] != 5 && v[190] != 1 && v[191] != 2 &&
         v[192] != 3 && v[193] != 4 && v[194] != 5 && v[195] != 1 && v[196] != 2 && v[197] != 3 &&
         v[198] != 4 && v[199] != 5 && v[200] != 1 && v[201] != 2 && v[202] != 3 && v[203] != 4 &&
         v[204] != 5 && v[205] != 1 && v[206] != 2 && v[207] != 3 && v[208] != 4 && v[209] != 5 &&
         v[210] != 1 && v[211] != 2 && v[212] != 3 && v[213] != 4 && v[214] != 5 && v[215] != 1 &&
         v[216] != 2 && v[217] != 3 && v[218] != 4 && v[219] != 5 && v[220] != 1 && v[221] != 2 &&
         v[222] != 3 && v[223] != 4 && v[224] != 5 && v[225] != 1 && v[226] != 2 && v[227] != 3 &&
         v[228] != 4 && v[229] != 5 && v[230] != 1 && v[231] != 2 && v[232] != 3 && v[233] != 4 &&
         v[234] != 5 && v[235] != 1 && v[236] != 2 && v[237] != 3 && v[238] != 4 && v[239] != 5 &&
         v[240] != 1 && v[241] != 2 && v[242] != 3 && v[243] != 4 && v[244] != 5 && v[245] != 1 &&
         v[246] != 2 && v[247] != 3 && v[248] != 4 && v[249] != 5 && v[250] != 1 && v[251] != 2 &&
         v[252] != 3 && v[253] != 4 && v[254] != 5 && v[255] != 1 && v[256] != 2 && v[257] != 3 &&
         v[258] != 4 && v[259] != 5 && v[260] != 1 && v[261] != 2 && v[262] != 3 && v[263] != 4 &&
         v[264] != 5 && v[265] != 1 && v[266] != 2 && v[267] != 3 && v[268] != 4 && v[269] != 5 &&
         v[270] != 1 && v[271] != 2 && v[272] != 3 && v[273] != 4 && v[274] != 5 && v[275] != 1 &&
         v[276] != 2 && v[277] != 3 && v[278] != 4 && v[279] != 5 && v[280] != 1 && v[281] != 2 &&
         v[282] != 3 && v[283] != 4 && v[284] != 5 && v[285] != 1 && v[286] != 2 && v[287] != 3 &&
         v[288] != 4 && v[289] != 5 && v[290] != 1 && v[291] != 2 && v[292] != 3 && v[293] != 4 &&
         v[294] != 5 && v[295] != 1 && v[296] != 2 && v[297] != 3 && v[298] != 4 && v[299] != 5;
}

int pairs16(const int *v) {
  return (v[0] > 1 || v[1] < 3) &&
         (v[2] > 1 || v[3] < 3) &&
         (v[4] > 1 || v[5] < 3) &&
         (v[6] > 1 || v[7] < 3) &&
         (v[8] > 1 || v[9] < 3) &&
         (v[10] > 1 || v[11] < 3) &&
         (v[12] > 1 || v[13] < 3) &&
         (v[14] > 1 || v[15] < 3) &&
         (v[16] > 1 || v[17] < 3) &&
         (v[18] > 1 || v[19] < 3) &&
         (v[20] > 1 || v[21] < 3) &&
         (v[22] > 1 || v[23] < 3) &&
         (v[24] > 1 || v[25] < 3) &&
         (v[26] > 1 || v[27] < 3) &&
         (v[28] > 1 || v[29] < 3) &&
         (v[30] > 1 || v[31] < 3);
}

int pairs19(const int *v) {
  return (v[0] > 1 || v[1] < 3) &&
         (v[2] > 1 || v[3] < 3) &&
         (v[4] > 1 || v[5] < 3) &&
         (v[6] > 1 || v[7] < 3) &&
         (v[8] > 1 || v[9] < 3) &&
         (v[10] > 1 || v[11] < 3) &&
         (v[12] > 1 || v[13] < 3) &&
         (v[14] > 1 || v[15] < 3) &&
         (v[16] > 1 || v[17] < 3) &&
         (v[18] > 1 || v[19] < 3) &&
         (v[20] > 1 || v[21] < 3) &&
         (v[22] > 1 || v[23] < 3) &&
         (v[24] > 1 || v[25] < 3) &&
         (v[26] > 1 || v[27] < 3) &&
         (v[28] > 1 || v[29] < 3) &&
         (v[30] > 1 || v[31] < 3) &&
         (v[32] > 1 || v[33] < 3) &&
         (v[34] > 1 || v[35] < 3) &&
         (v[36] > 1 || v[37] < 3);
}

int mixed(const int *v, int k) {
  int r = 0;
  if ((v[0] > k && v[1] < k) || (!(v[2] == k) && v[3] != 0) || (v[4] > 2 && v[5] > 2 && v[6] > 2) ||
      (v[7] < 1 && !v[8]) || (v[9] == 4 && v[10] == 4 && v[11] == 4))
    r++;
  if ((v[0] | v[1]) && (v[2] || v[3] || v[4] || v[5]) && !(v[6] && v[7] && v[8] && v[9]) &&
      (v[10] > 3 || v[11] > 3 || v[12] > 3 || v[13] > 3) && (v[14] != k || v[15] != k) &&
      (v[16] || !v[17]) && (v[18] < 4 || v[19] < 4))
    r += 2;
  return r;
}

/* Decisions inside macros. */
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))
#define BOTH_OR_NEITHER(p, q) (((p) && (q)) || (!(p) && !(q)))
#define CHECK_ALL(a, b, c, d) if ((a) && (b) && ((c) || (d))) hits++
#define VALID(p) ((p) != 0 && (p)[0] > 0 && (p)[1] > 0 && (p)[0] + (p)[1] < 12)

int macro_decisions(const int *v, int n) {
  int hits = 0;
  for (int i = 0; i + 3 < n; i++) {
    if (IN_RANGE(v[i], 2, 6) && IN_RANGE(v[i + 1], 1, 3)) hits++;
    if (BOTH_OR_NEITHER(v[i] > 3, v[i + 2] > 3)) hits += 2;
    CHECK_ALL(v[i] != 0, v[i + 1] != 0, v[i + 2] > 4, v[i + 3] > 4);
    if (VALID(v + i) || (v[i] == 7 && v[i + 3] == 7)) hits += 3;
  }
  return hits;
}

int called_once(const int *v) { return v[0] > 0 && v[1] > 0 && v[2] > 0 && v[3] > 0 && v[4] > 0 && v[5] > 0 && v[6] > 0; }
int never_called(const int *v) { return (v[0] || v[1]) && (v[2] || v[3]) && (v[4] || v[5]) && (v[6] || v[7]); }

static unsigned rng(unsigned *s) { *s = *s * 1664525u + 1013904223u; return *s >> 9; }
static void fill(int *v, int n, unsigned *s) {
  for (int i = 0; i < n; i++) v[i] = (int)(rng(s) % 9);
}

/* Lock-step threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int turn, rounds;
static int results[3];

static void *worker(void *arg) {
  int me = (int)(long)arg;
  unsigned seed = 77u + (unsigned)me;
  int v[300];
  for (int r = 0; r < rounds; r++) {
    fill(v, 300, &seed);
    pthread_mutex_lock(&lock);
    while (turn % 3 != me) pthread_cond_wait(&cond, &lock);
    results[me] += pairs16(v) + mixed(v, me + 2) + macro_decisions(v, 40) + chain300(v);
    turn++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
  }
  return 0;
}

int main(int argc, char **argv) {
  int count = argc > 1 ? atoi(argv[1]) : 1;
  unsigned seed = (unsigned)count;
  int v[300];
  int acc = 0;
  for (int i = 0; i < count * 4096; i++) {
    for (int k = 0; k < 32; k++) v[k] = (int)(rng(&seed) % 4);
    acc += pairs16(v);
    for (int k = 32; k < 38; k++) v[k] = (int)(rng(&seed) % 4);
    acc += pairs19(v);
    if (i % 16 == 0) acc += mixed(v, i % 5);
  }
  for (int i = 0; i < 300; i++) v[i] = i % 5 + 2;
  for (int i = 0; i < 300; i += 7) {
    v[i] = i % 5 + 1; /* make condition i false */
    acc += chain300(v);
    v[i] = i % 5 + 2;
  }
  acc += chain300(v);
  for (int i = 0; i < count * 8; i++) {
    fill(v, 60, &seed);
    acc += macro_decisions(v, 60);
  }
  acc += called_once(v);
  rounds = count * 4;
  pthread_t th[3];
  for (long t = 0; t < 3; t++) pthread_create(&th[t], 0, worker, (void *)t);
  for (int t = 0; t < 3; t++) pthread_join(th[t], 0);
  sink = acc;
  printf("%d %d %d %d\n", acc, results[0], results[1], results[2]);
  return 0;
}
