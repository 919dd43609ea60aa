/* Sixth temporal workload: before the phases run, main forks a child that
 * calls a block of functions and leaves with _exit (so those functions get
 * no timestamp and no counts in the parent's profile, which is the only one
 * written), phases dispatched from the digits of argv[1] through a
 * computed-goto table, phases with UTF-8 names and one with a name of more
 * than 1,000 characters, a phase that recurses 300 frames deep through two
 * functions, a helper first reached from a different phase depending on the
 * digit order, and functions that only the child or nobody calls.
 * argv: DIGITS. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define LONGNAME phase_alpha_stage_bravo_stage_charlie_stage_delta_stage_echo_stage_foxtrot_stage_golf_stage_hotel_stage_india_stage_juliett_stage_kilo_stage_lima_stage_mike_stage_november_stage_oscar_stage_papa_stage_quebec_stage_romeo_stage_sierra_stage_tango_stage_uniform_stage_victor_stage_whiskey_stage_xray_stage_yankee_stage_zulu_stage_alpha_stage_bravo_stage_charlie_stage_delta_stage_echo_stage_foxtrot_stage_golf_stage_hotel_stage_india_stage_juliett_stage_kilo_stage_lima_stage_mike_stage_november_stage_oscar_stage_papa_stage_quebec_stage_romeo_stage_sierra_stage_tango_stage_uniform_stage_victor_stage_whiskey_stage_xray_stage_yankee_stage_zulu_stage_alpha_stage_bravo_stage_charlie_stage_delta_stage_echo_stage_foxtrot_stage_golf_stage_hotel_stage_india_stage_juliett_stage_kilo_stage_lima_stage_mike_stage_november_stage_oscar_stage_papa_stage_quebec_stage_romeo_stage_sierra_stage_tango_stage_uniform_stage_victor_stage_whiskey_stage_xray_stage_yankee_stage_zulu_stage_end_and_the_rest_of_the_itinerary
#define N __attribute__((noinline))

volatile long g_sink;

N static long shared_helper(long x) { return x * 7 % 10007; }
N long late_helper(long x) { return x + 3; }

N long phase_zero(long x) { return shared_helper(x) + 1; }
N static long phase_ünï(long x) { return late_helper(x) * 2; }
N long phase_δεύτερη(long x) { return shared_helper(x + 2) - late_helper(x); }
N long LONGNAME(long x) { return x ^ 0x55; }

N static long ping(int d, long x);
N static long pong(int d, long x) { return d ? ping(d - 1, x + 1) : x; }
N static long ping(int d, long x) { return d ? pong(d - 1, x * 3 % 10007) : x; }
N long phase_deep(long x) { return ping(300, x); }

N static long child_a(long x) { return x - 1; }
N long child_b(long x) { return child_a(x) * 5; }
N long child_c(long x) { return child_b(x) + shared_helper(x); }
N long nobody(long x) { return child_c(x) + 1; }
long (*keep_nobody)(long) = nobody;

N static int in_child(int k) {
  pid_t pid = fork();
  if (pid == 0) {
    g_sink = child_c(k) + child_a(k);
    _exit(0);
  }
  int status = 0;
  if (pid > 0)
    waitpid(pid, &status, 0);
  return pid > 0 ? 0 : -1;
}

int main(int argc, char **argv) {
  const char *digits = argc > 1 ? argv[1] : "0";
  static void *phase[] = {&&p0, &&p1, &&p2, &&p3, &&p4, &&p5, &&p6, &&p7, &&p8, &&p9};
  long acc = in_child((int)digits[0]);
  const char *p = digits;
next:
  if (!*p)
    goto done;
  goto *phase[(*p++ - '0') % 10];
p0:
  acc = phase_zero(acc);
  goto next;
p1:
  acc = phase_ünï(acc);
  goto next;
p2:
  acc = phase_δεύτερη(acc);
  goto next;
p3:
  acc = LONGNAME(acc);
  goto next;
p4:
  acc = phase_deep(acc);
  goto next;
p5:
p6:
p7:
p8:
p9:
  acc = late_helper(acc) + shared_helper(acc);
  goto next;
done:
  printf("%ld\n", acc);
  return 0;
}
