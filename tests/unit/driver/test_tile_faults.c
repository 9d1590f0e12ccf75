/* Issue 18's tile-program findings, seen through the driver on the model card:
 * the hang report names the context that is stuck (a spinning worker used to
 * starve the others, so every context read RUNNING at the worker entry), the
 * stack guard faults with STACK_OVERFLOW, and faults whose cause is 0 or not
 * in the contract print the raw value and what it means. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ipu_card/hw.h"
#include "ipudrv/ipudrv.h"
#include "test_env.h"

#define SRAM IPU_TILE_SRAM_BASE
enum { ZERO = 0, SP = 2, T0 = 5, T1 = 6, T2 = 7 };

/* RV32I encodings of the few instructions these programs need. */
static uint32_t i_type(unsigned op, unsigned f3, unsigned rd, unsigned rs1, int32_t imm)
{
    return ((uint32_t)imm << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
static uint32_t addi(unsigned rd, unsigned rs1, int32_t imm) { return i_type(0x13, 0, rd, rs1, imm); }
static uint32_t lui(unsigned rd, uint32_t value) { return (value & 0xfffff000u) | (rd << 7) | 0x37; }
static uint32_t csrw(unsigned csr, unsigned rs1) { return i_type(0x73, 1, 0, rs1, (int32_t)csr); }
static uint32_t csrr(unsigned rd, unsigned csr) { return i_type(0x73, 2, rd, 0, (int32_t)csr); }
static uint32_t bne8(unsigned rs1, unsigned rs2) /* bne rs1, rs2, .+8 */
{
    return (4u << 8) | (1u << 12) | (rs1 << 15) | (rs2 << 20) | 0x63;
}
#define J_SELF 0x0000006fu

static int setup(void **state)
{
    test_env_setup("tiny");
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(0, 0, &dev), 0);
    *state = dev;
    return 0;
}

static int teardown(void **state)
{
    assert_int_equal(ipudrv_close(*state), 0);
    return 0;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("expected \"%s\" in \"%s\"", part, text);
}

static void run_program(ipudrv_device *dev, const uint32_t *words, size_t n, uint32_t watchdog)
{
    assert_int_equal(ipudrv_reset(dev), 0);
    assert_int_equal(ipudrv_set_watchdog(dev, watchdog), 0);
    assert_int_equal(ipudrv_tile_write(dev, 0, SRAM, words, n * 4), 0);
    assert_int_equal(ipudrv_tile_setup(dev, 0, SRAM, 0, 1), 0);
    assert_int_equal(ipudrv_start(dev), 0);
}

/* The supervisor starts workers 1..3 and joins; worker 2 spins, the others exit. */
#define WORKER_AT 0x40
static size_t spinning_worker_program(uint32_t *p)
{
    size_t n = 0;
    p[n++] = lui(T0, SRAM);
    p[n++] = addi(T0, T0, WORKER_AT);
    p[n++] = csrw(IPU_CSR_WORKER_ENTRY, T0);
    for (int w = 1; w <= 3; w++) {
        p[n++] = addi(T1, ZERO, w);
        p[n++] = csrw(IPU_CSR_WORKER_START, T1);
    }
    p[n++] = csrr(T2, IPU_CSR_WORKER_JOIN);
    p[n++] = csrw(IPU_CSR_EXIT, ZERO);
    p[n++] = J_SELF;
    assert_true(n * 4 <= WORKER_AT);
    while (n < WORKER_AT / 4)
        p[n++] = J_SELF;
    p[n++] = csrr(T0, IPU_CSR_CONTEXT_ID);
    p[n++] = addi(T1, ZERO, 2);
    p[n++] = bne8(T0, T1);
    p[n++] = J_SELF; /* worker 2 spins here */
    p[n++] = csrw(IPU_CSR_WORKER_EXIT, ZERO);
    p[n++] = J_SELF;
    return n;
}

static void test_hang_report_names_the_stuck_worker(void **state)
{
    ipudrv_device *dev = *state;
    uint32_t prog[64];
    size_t n = spinning_worker_program(prog);
    run_program(dev, prog, n, 0);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 200, &ev), -ETIMEDOUT);
    const char *msg = ipudrv_last_error(dev);
    char spin[64];
    snprintf(spin, sizeof spin, "c2:RUNNING@0x%08x", SRAM + WORKER_AT + 12);
    /* the supervisor waits in the join, workers 1 and 3 finished, worker 2 spins */
    assert_contains(msg, "c0:BLOCKED");
    assert_contains(msg, "c1:DONE");
    assert_contains(msg, spin);
    assert_contains(msg, "c3:DONE");
    assert_contains(msg, "stuck: c2 (worker 2) running at pc 0x0010004c");
    /* the first line (what gc-run prints without --verbose) names it too */
    const char *eol = strchr(msg, '\n');
    assert_non_null(eol);
    char first[512];
    snprintf(first, sizeof first, "%.*s", (int)(eol - msg), msg);
    assert_contains(first, "; stuck: tile 0 c2 (worker 2) at pc 0x0010004c; per tile");
    assert_null(strstr(msg, "stuck: c0"));
    assert_null(strstr(msg, "stuck: c1"));
    assert_null(strstr(msg, "stuck: c3"));
    struct ipudrv_tile_status st;
    assert_int_equal(ipudrv_tile_status(dev, 0, &st), 0);
    assert_int_equal(st.ctx[0].state, IPU_CTX_STATE_BLOCKED);
    assert_int_equal(st.ctx[2].state, IPU_CTX_STATE_RUNNING);
    assert_int_equal(ipudrv_halt(dev), 0);
}

static void test_watchdog_blames_the_spinning_worker(void **state)
{
    ipudrv_device *dev = *state;
    uint32_t prog[64];
    size_t n = spinning_worker_program(prog);
    run_program(dev, prog, n, 4);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 10000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_ERROR);
    struct ipudrv_error_record rec;
    size_t count = 0;
    assert_int_equal(ipudrv_error_read(dev, &rec, 1, &count), 0);
    assert_int_equal(count, 1);
    assert_int_equal(rec.cause, IPU_ERR_WATCHDOG);
    assert_int_equal(rec.context, 2);
    assert_int_equal(rec.pc, SRAM + WORKER_AT + 12);
}

static void test_stack_guard_faults_below_the_limit(void **state)
{
    ipudrv_device *dev = *state;
    const uint32_t limit = SRAM + 0x1000;
    uint32_t prog[] = {
        lui(T0, limit),
        csrw(IPU_CSR_STACK_LIMIT, T0),
        addi(SP, T0, 0x20),  /* sp = limit + 32: fine */
        addi(SP, SP, -32),   /* sp = limit: still fine */
        addi(T1, SP, -4),    /* another register may go lower */
        addi(SP, SP, -16),   /* sp below the limit: STACK_OVERFLOW */
        csrw(IPU_CSR_EXIT, ZERO),
    };
    run_program(dev, prog, sizeof prog / 4, 0);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 10000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_ERROR);
    const char *msg = ipudrv_last_error(dev);
    assert_contains(msg, "STACK_OVERFLOW at pc 0x00100014, address 0x00100ff0, info 1052672");
    assert_contains(msg, "STACK_LIMIT");
    struct ipudrv_tile_status st;
    assert_int_equal(ipudrv_tile_status(dev, 0, &st), 0);
    assert_int_equal(st.err_cause, IPU_ERR_STACK_OVERFLOW);

    /* STACK_LIMIT 0 (the reset value) checks nothing */
    prog[1] = csrw(IPU_CSR_STACK_LIMIT, ZERO);
    run_program(dev, prog, sizeof prog / 4, 0);
    assert_int_equal(ipudrv_wait(dev, 10000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_DONE);
}

static void expect_fail_cause_text(ipudrv_device *dev, uint32_t cause, const char *part)
{
    uint32_t prog[] = {addi(T0, ZERO, (int32_t)cause), csrw(IPU_CSR_FAIL, T0), J_SELF};
    run_program(dev, prog, 3, 0);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 10000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_ERROR);
    assert_contains(ipudrv_last_error(dev), part);
    char report[4096];
    assert_true(ipudrv_watchdog_report(dev, report, sizeof report) > 0);
    assert_contains(report, part);
    struct ipudrv_error_record rec;
    size_t count = 0;
    assert_int_equal(ipudrv_error_read(dev, &rec, 1, &count), 0);
    assert_int_equal(count, 1);
    char line[512];
    assert_true(ipudrv_error_format(&rec, line, sizeof line) > 0);
    assert_contains(line, part);
}

static void test_unknown_and_zero_causes_print_the_raw_value(void **state)
{
    ipudrv_device *dev = *state;
    expect_fail_cause_text(dev, 99, "UNKNOWN cause 99 (0x63: not an ERR code of contract");
    expect_fail_cause_text(dev, 0, "NONE (cause 0: the card reported an error without a cause");
    /* a known cause keeps its plain name */
    expect_fail_cause_text(dev, IPU_ERR_FIRMWARE_ABORT, "FIRMWARE_ABORT at pc");
    assert_string_equal(ipudrv_err_name(IPU_ERR_STACK_OVERFLOW), "STACK_OVERFLOW");
    assert_string_equal(ipudrv_err_name(IPU_ERR_LOCKSTEP_DIVERGENCE), "LOCKSTEP_DIVERGENCE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_hang_report_names_the_stuck_worker, setup, teardown),
        cmocka_unit_test_setup_teardown(test_watchdog_blames_the_spinning_worker, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stack_guard_faults_below_the_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_and_zero_causes_print_the_raw_value, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    test_env_cleanup();
    return rc;
}
