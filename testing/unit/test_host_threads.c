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
 *                split schedule; below 32 rows the system's ?sterf (0);
 *                stage 1's products on all CPUs
 *   lines        host-threads lines cap the threads from their n on (the
 *                line of the largest n not above the call's)
 *   malformed    a bad host-threads line: the whole file ignored
 *   settings     GPULAPACK_HOST_THREADS overrides the lines;
 *                GPULAPACK_HOST_VALUES=lapack: 0 (the system's);
 *                GPULAPACK_HOST_CHASE=sweeps: the sweeps schedule
 *
 * One line per case, "PASS unit/host-threads/<case>" or "FAIL ...". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
           t.chase_split, gl_host_products_threads(&t, 4000),
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
           "values 4000, 16, split, products 4000, 1000:%s; want%s)\n",
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

    unlink(good);
    unlink(bad);
    rmdir(dir);
    return 0;
}
