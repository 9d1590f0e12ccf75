/* Tutorial 3 through the driver's rtl transport: the DeviceManager variant of
 * the tutorial (tests/tutorials/tut3/tut3_ipu_hardware.cpp) runs on the RTL
 * card (rtl-tiny, rv32im, so the codelets are compiled soft-float) and on the
 * functional model of the same board, and the two outputs must be identical
 * and hold every line of tests/tutorials/tut3/expected.txt; so must the RTL
 * run in lock-step with the model. Prints the wall times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "rtl_test_env.h"

#define OUTPUT_MAX 65536

static int group_setup(void **state)
{
    (void)state;
    return rtl_test_env_setup();
}

static int group_teardown(void **state)
{
    (void)state;
    return rtl_test_env_teardown();
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs the tutorial on the card IPU_EMU_DEVICES=`devices` names; returns its
 * output (stdout and stderr) in out and its wall time in *seconds. */
static void run_tut3(const char *devices, char *out, size_t out_len, double *seconds)
{
    setenv("IPU_EMU_DEVICES", devices, 1);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' '%s' 2>&1", TUT3_PROGRAM, TUT3_CODELETS);
    double t0 = now_s();
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, out_len - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    *seconds = now_s() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("tutorial 3 on %s failed (status 0x%x):\n%s", devices, status, out);
}

static void test_tut3_rtl_matches_model(void **state)
{
    (void)state;
    static char model[OUTPUT_MAX], rtl[OUTPUT_MAX];
    double model_s = 0, rtl_s = 0;
    run_tut3("model:rtl-tiny", model, sizeof model, &model_s);
    run_tut3("rtl-tiny", rtl, sizeof rtl, &rtl_s);
    printf("tutorial 3: model %.2f s, rtl %.2f s (wall, codelets compiled or cached included)\n", model_s, rtl_s);
    assert_string_equal(rtl, model);
    /* Again in lock-step: a divergence from the model would halt the card
     * and fail the run. */
    static char lockstep[OUTPUT_MAX];
    double lockstep_s = 0;
    setenv("IPU_EMU_RTL_LOCKSTEP", "1", 1);
    run_tut3("rtl-tiny", lockstep, sizeof lockstep, &lockstep_s);
    unsetenv("IPU_EMU_RTL_LOCKSTEP");
    printf("tutorial 3: rtl in lock-step with the model %.2f s\n", lockstep_s);
    assert_string_equal(lockstep, model);

    /* Every expected line of the tutorial, as run_tutorial.sh checks it. */
    FILE *f = fopen(TUT3_EXPECTED, "r");
    assert_non_null(f);
    char line[512];
    unsigned checked = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0])
            continue;
        char *hit = strstr(rtl, line);
        if (!hit || (hit != rtl && hit[-1] != '\n') || (hit[strlen(line)] != '\n' && hit[strlen(line)] != '\0'))
            fail_msg("missing expected line '%s' in:\n%s", line, rtl);
        checked++;
    }
    fclose(f);
    assert_true(checked > 0);
    assert_non_null(strstr(rtl, "Running program\n"));
    assert_non_null(strstr(rtl, "Program complete\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tut3_rtl_matches_model),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
