/* Unit test of the host stages' thread choice
 * (kernels/backend/host/threads.h, docs/design/host-threads.md):
 * gl_host_chase_threads, gl_host_values_threads, the schedule and
 * gl_host_products_threads (stage 1's products), from a
 * host context's tuning (gl_tune_snapshot), under the settings and the
 * tune file's host-threads lines.  The
 * configuration is read once per process, so each case runs this program
 * again (argv[1] = "child") with its environment and reads the choices it
 * prints.
 *
 *   built-in     no file: at most the CPUs, one per 4 steps of a sweep
 *                (n / 4b) for the chase, one per 256 rows for the values;
 *                split schedule, balanced (1); below 32 rows the
 *                system's ?sterf (0);
 *                stage 1's products on all CPUs
 *   lines        host-threads lines cap the threads from their n on (the
 *                line of the largest n not above the call's)
 *   malformed    a bad host-threads line: the whole file ignored
 *   settings     GPULAPACK_HOST_THREADS overrides the lines;
 *                GPULAPACK_HOST_VALUES=lapack: 0 (the system's);
 *                GPULAPACK_HOST_CHASE=sweeps: the sweeps schedule (0),
 *                even: the split one with equal ranges (2)
 *
 * And the teams of stage 1's runs of products (runtime/parallel.h
 * gl_team): every item of a loop runs once on 1-4 threads and item
 * counts 1-9, a failing item fails the loop and no other; a team's items
 * run at once (each waits for all of its loop's); a loop inside an item
 * completes; and the loops reuse the team's threads (the Linux thread ids
 * of 200 loops' items are at most the team's threads, where each loop
 * that starts its own has new ones).
 *
 * One line per case, "PASS unit/host-threads/<case>" or "FAIL ...". */
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "parallel.h"
#include "tune.h"
#include "../kernels/backend/host/threads.h"

static int failed;

static void child(void)
{
    gl_tuning t;
    gl_tune_snapshot(NULL, &t);   /* a host context's */
    printf("%d %d %d %d %d %d %d %d\n", gl_host_chase_threads(&t, 4000, 64, 1),
           gl_host_chase_threads(&t, 1000, 16, 1),
           gl_host_chase_threads(&t, 200, 64, 1),
           gl_host_values_threads(&t, 4000), gl_host_values_threads(&t, 16),
           t.chase_schedule, gl_host_products_threads(&t, 4000),
           gl_host_products_threads(&t, 1000));
}

/* Runs the child with env (NAME=VALUE, space-free, NULL-terminated) and
 * compares its eight choices with want. */
enum { CHOICES = 8 };
static void expect(const char *self, const char *name, const char **env,
                   const int want[CHOICES])
{
    int fd[2];
    if (pipe(fd) != 0) {
        printf("FAIL unit/host-threads/%s: no pipe\n", name);
        failed++;
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        unsetenv("GPULAPACK_HOST_THREADS");
        unsetenv("GPULAPACK_HOST_VALUES");
        unsetenv("GPULAPACK_HOST_CHASE");
        unsetenv("GPULAPACK_TUNE_FILE");
        for (int i = 0; env[i]; i++)
            putenv((char *)env[i]);
        execl(self, self, "child", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char buf[256] = {0};
    ssize_t got = read(fd[0], buf, sizeof buf - 1);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    int have[CHOICES] = {-1, -1, -1, -1, -1, -1, -1, -1};
    int fields = got > 0 ? sscanf(buf, "%d %d %d %d %d %d %d %d", &have[0],
                                  &have[1], &have[2], &have[3], &have[4],
                                  &have[5], &have[6], &have[7])
                         : 0;
    int ok = fields == CHOICES && WIFEXITED(status) &&
             WEXITSTATUS(status) == 0;
    char have_s[64] = "", want_s[64] = "";
    for (int i = 0; i < CHOICES; i++) {
        ok = ok && have[i] == want[i];
        snprintf(have_s + strlen(have_s), sizeof have_s - strlen(have_s),
                 " %d", have[i]);
        snprintf(want_s + strlen(want_s), sizeof want_s - strlen(want_s),
                 " %d", want[i]);
    }
    printf("%s unit/host-threads/%s (chase 4000/b64, 1000/b16, 200/b64, "
           "values 4000, 16, schedule, products 4000, 1000:%s; want%s)\n",
           ok ? "PASS" : "FAIL", name, have_s, want_s);
    failed += !ok;
}

static int write_tune(const char *path, const char *lines)
{
    char host[200];
    gl_tune_host_identity(host, sizeof host);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "gpulapack-tune 1 host=%s\n%s", host, lines);
    return fclose(f);
}

/* ---- teams ------------------------------------------------------------ */

enum { MOST_ITEMS = 16, MOST_TIDS = 64 };

typedef struct team_loop {
    long count, fail_at; /* fail_at: the item that returns 1, or -1 */
    int together;        /* each item waits for all of the loop's */
    int slow;            /* each item takes 2 ms */
    atomic_int runs[MOST_ITEMS], arrived, timed_out;
    atomic_long tids[MOST_TIDS];
    gl_team *team; /* nested: each item runs a loop of its own */
} team_loop;

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* keeps each distinct thread id once (0: a free slot) */
static void note_tid(team_loop *l)
{
    long tid = (long)syscall(SYS_gettid);
    for (int k = 0; k < MOST_TIDS; k++) {
        long seen = 0;
        if (atomic_compare_exchange_strong(&l->tids[k], &seen, tid) ||
            seen == tid)
            return;
    }
}

static int team_item(void *arg, long i)
{
    team_loop *l = arg;
    atomic_fetch_add(&l->runs[i], 1);
    note_tid(l);
    if (l->together) {
        atomic_fetch_add(&l->arrived, 1);
        for (double t0 = seconds(); atomic_load(&l->arrived) < l->count;)
            if (seconds() - t0 > 5) {
                atomic_store(&l->timed_out, 1);
                break;
            } else
                sched_yield();
    }
    if (l->slow)
        nanosleep(&(struct timespec){0, 2000000}, NULL);
    return i == l->fail_at;
}

static int nested_item(void *arg, long i)
{
    team_loop *outer = arg, inner = {.count = 5, .fail_at = -1};
    atomic_fetch_add(&outer->runs[i], 1);
    int rc = gl_team_run(outer->team, inner.count, 3, team_item, &inner);
    for (long k = 0; k < inner.count; k++)
        rc |= atomic_load(&inner.runs[k]) != 1;
    return rc != 0;
}

/* a loop of count items on threads; 1 where it was not as it should */
static int team_loop_wrong(gl_team *team, long count, int threads,
                           long fail_at, int together)
{
    team_loop l = {.count = count, .fail_at = fail_at, .together = together};
    int rc = gl_team_run(team, count, threads, team_item, &l);
    int wrong = rc != (fail_at >= 0 && fail_at < count ? -1 : 0) ||
                atomic_load(&l.timed_out);
    for (long k = 0; k < count; k++)
        wrong |= atomic_load(&l.runs[k]) != 1;
    return wrong;
}

static long distinct_tids(const team_loop *l)
{
    long n = 0;
    while (n < MOST_TIDS && atomic_load(&l->tids[n]) != 0)
        n++;
    return n;
}

static void check(const char *name, int ok, const char *detail)
{
    printf("%s unit/host-threads/team/%s (%s)\n", ok ? "PASS" : "FAIL", name,
           detail);
    failed += !ok;
}

static void check_teams(void)
{
    int wrong = 0, loops = 0, together_wrong = 0, nested_wrong = 0;
    for (int threads = 1; threads <= 4; threads++) {
        gl_team *team = gl_team_start(threads);
        wrong += (team == NULL) != (threads == 1);
        for (long count = 1; count <= 9; count++)
            for (int asked = 1; asked <= threads + 1; asked++, loops++)
                wrong += team_loop_wrong(team, count, asked, count / 2, 0) +
                         team_loop_wrong(team, count, asked, -1, 0);
        /* all of a loop's items at once: threads items on threads */
        together_wrong += team_loop_wrong(team, threads, threads, -1, 1);
        /* 8 slow items asked of 2 threads: only 2 take part */
        team_loop slow = {.count = 8, .fail_at = -1, .slow = 1};
        wrong += gl_team_run(team, slow.count, 2, team_item, &slow) != 0 ||
                 distinct_tids(&slow) > 2;
        team_loop outer = {.count = 3, .fail_at = -1, .team = team};
        nested_wrong +=
            gl_team_run(team, 3, threads, nested_item, &outer) != 0;
        for (int k = 0; k < 3; k++)
            nested_wrong += atomic_load(&outer.runs[k]) != 1;
        gl_team_stop(team);
    }
    char detail[120];
    snprintf(detail, sizeof detail,
             "%d loops of 1-9 items on 1-4 threads, one failing and none; 8 "
             "slow items on at most the 2 threads asked",
             loops);
    check("items", wrong == 0, detail);
    check("together", together_wrong == 0,
          "each loop's items wait for all of them");
    check("nested", nested_wrong == 0, "a loop of 5 items inside each of 3");

    /* the same threads for every loop, where each loop of its own starts
     * new ones */
    team_loop own = {.count = 3, .fail_at = -1}, kept = own;
    gl_team *team = gl_team_start(3);
    double own_s = 0, kept_s = 0; /* (informative: not checked) */
    for (int k = 0; k < 200; k++) {
        for (int i = 0; i < 3; i++)
            atomic_store(&own.runs[i], 0), atomic_store(&kept.runs[i], 0);
        own.together = kept.together = 1;
        atomic_store(&own.arrived, 0), atomic_store(&kept.arrived, 0);
        double t0 = seconds();
        gl_parallel_run(3, 3, team_item, &own);
        double t1 = seconds();
        gl_team_run(team, 3, 3, team_item, &kept);
        own_s += t1 - t0, kept_s += seconds() - t1;
    }
    gl_team_stop(team);
    snprintf(detail, sizeof detail,
             "200 loops of 3 items: %ld thread ids with a team of 3, %ld "
             "without; %.0f us a loop against %.0f",
             distinct_tids(&kept), distinct_tids(&own), kept_s / 200 * 1e6,
             own_s / 200 * 1e6);
    check("reused",
          team && distinct_tids(&kept) == 3 && distinct_tids(&own) > 3 &&
              !atomic_load(&kept.timed_out),
          detail);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        child();
        return 0;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int c = (int)(cpus > 64 ? 64 : cpus < 1 ? 1 : cpus);
#define CAP(x) ((x) < c ? (x) : c)
    char dir[] = "/tmp/gl-host-threads-XXXXXX", good[64], bad[64];
    if (!mkdtemp(dir)) {
        printf("FAIL unit/host-threads/setup: no temporary directory\n");
        return 0;
    }
    snprintf(good, sizeof good, "%s/good.txt", dir);
    snprintf(bad, sizeof bad, "%s/bad.txt", dir);
    if (write_tune(good, "host-threads chase 2000 1\n"
                         "host-threads chase 4000 3\n"
                         "host-threads values 1000 1\n"
                         "host-threads products 3000 1\n") ||
        write_tune(bad, "host-threads chase 2000 1\nhost-threads chase x 1\n")) {
        printf("FAIL unit/host-threads/setup: cannot write %s\n", dir);
        return 0;
    }
    char good_env[96], bad_env[96];
    snprintf(good_env, sizeof good_env, "GPULAPACK_TUNE_FILE=%s", good);
    snprintf(bad_env, sizeof bad_env, "GPULAPACK_TUNE_FILE=%s", bad);

    const char *none[] = {"GPULAPACK_TUNE_FILE=/nonexistent/tune.txt", NULL};
    /* 4000/64: 62 steps, 15 ranges of 4; 1000/16: 15; 200/64: one range;
     * values: 4000 / 256 = 15, 16 rows: ?sterf */
    int builtin[CHOICES] = {CAP(15), CAP(15), 1, CAP(15), 0, 1, c, c};
    expect(argv[0], "built-in", none, builtin);

    const char *lines[] = {good_env, NULL};
    int capped[CHOICES] = {CAP(3), CAP(15), 1, 1, 0, 1, 1, c};
    expect(argv[0], "lines", lines, capped);

    const char *malformed[] = {bad_env, NULL};
    expect(argv[0], "malformed", malformed, builtin);

    const char *threads[] = {good_env, "GPULAPACK_HOST_THREADS=5", NULL};
    int five[CHOICES] = {5, 5, 1, 5, 0, 1, 5, 5};
    expect(argv[0], "settings/threads", threads, five);

    const char *lapack[] = {"GPULAPACK_HOST_VALUES=lapack",
                            "GPULAPACK_HOST_CHASE=sweeps",
                            "GPULAPACK_HOST_THREADS=4", NULL};
    /* (the child asks for the split schedule's count whatever the
     * setting: the choice of schedule is the last field) */
    int sweeps[CHOICES] = {4, 4, 1, 0, 0, 0, 4, 4};
    expect(argv[0], "settings/lapack-sweeps", lapack, sweeps);

    const char *even[] = {"GPULAPACK_HOST_CHASE=even",
                          "GPULAPACK_HOST_THREADS=4", NULL};
    int even_cuts[CHOICES] = {4, 4, 1, 4, 0, GL_SCHEDULE_EVEN, 4, 4};
    expect(argv[0], "settings/even", even, even_cuts);

    unlink(good);
    unlink(bad);
    rmdir(dir);
    check_teams();
    return 0;
}
