/* The host link (driver/src/link.c) against a scripted card that misbehaves
 * (issue 36, findings 5 and 9): a card that never stops sending IRQ or DMA_REQ
 * frames cannot hold a request past its one total deadline; a duplicated answer
 * is not taken for the next request's; after a corrupted answer the link runs
 * the contract's recovery sequence and the next request gets its own value; a
 * host that was not scheduled past its deadline still takes an answer that is
 * waiting. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ipu_card/hw.h"
#include "link.h"

/* The link's request timeout in these tests, in ms. */
#define TIMEOUT_MS 300

/* The scripted card: bytes queued for the host, and how it misbehaves. */
struct card {
    uint8_t out[8192];
    size_t head, tail;
    int flood_irq;    /* every read with nothing queued gets an IRQ frame */
    int flood_dma;    /* ... a DMA_REQ frame for an address nobody mapped */
    int duplicate;    /* the next answer is sent twice */
    int corrupt;      /* the next answer is sent with a bad CHECK, then late as it should be */
    int mute;         /* requests are swallowed, never answered */
    int late_host;    /* the next answer's first byte reaches the host after the deadline, the rest waits */
    unsigned probes;  /* REG_READs of ID seen (the recovery's probes) */
};

static void queue_frame(struct card *c, uint8_t type, const uint8_t *payload, uint8_t len, int bad_check)
{
    uint8_t sum = (uint8_t)(type + len);
    c->out[c->tail++] = IPU_LINK_SOF;
    c->out[c->tail++] = type;
    c->out[c->tail++] = len;
    for (unsigned i = 0; i < len; i++) {
        c->out[c->tail++] = payload[i];
        sum = (uint8_t)(sum + payload[i]);
    }
    c->out[c->tail++] = (uint8_t)(0u - sum + (bad_check ? 1u : 0u));
}

/* What each register reads on this card: ID its magic, others 0x1000 + offset. */
static uint32_t reg_value(uint32_t offset)
{
    return offset == IPU_REG_ID ? IPU_REG_ID_RESET_VALUE : 0x1000u + offset;
}

/* Answers a request as the card would, with the misbehaviour asked for. */
static int card_write(void *ctx, const uint8_t *buf, size_t len)
{
    struct card *c = ctx;
    if (len < 4 || buf[0] != IPU_LINK_SOF || c->mute)
        return 0;
    const uint8_t type = buf[1];
    if (c->tail + 64 > sizeof c->out) {
        memmove(c->out, c->out + c->head, c->tail - c->head);
        c->tail -= c->head;
        c->head = 0;
    }
    if (type == IPU_LINK_TYPE_REG_READ) {
        const uint32_t offset = (uint32_t)buf[3] | (uint32_t)buf[4] << 8;
        if (offset == IPU_REG_ID)
            c->probes++;
        const uint32_t v = reg_value(offset);
        const uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
        if (c->corrupt) {
            c->corrupt = 0;
            queue_frame(c, IPU_LINK_TYPE_REG_DATA, p, 4, 1);
        }
        queue_frame(c, IPU_LINK_TYPE_REG_DATA, p, 4, 0);
        if (c->duplicate) {
            c->duplicate = 0;
            queue_frame(c, IPU_LINK_TYPE_REG_DATA, p, 4, 0);
        }
    } else if (type != IPU_LINK_TYPE_DMA_DATA || !c->flood_dma) {
        queue_frame(c, IPU_LINK_TYPE_ACK, NULL, 0, 0);
    }
    return 0;
}

static int card_read(void *ctx, uint8_t *buf, size_t cap, int timeout_ms)
{
    (void)timeout_ms;
    struct card *c = ctx;
    if (c->head == c->tail) {
        c->head = c->tail = 0;
        if (c->flood_irq) {
            const uint8_t lines = 1;
            queue_frame(c, IPU_LINK_TYPE_IRQ, &lines, 1, 0);
        } else if (c->flood_dma) {
            const uint8_t req[10] = {0, 0, 0, 0x40, 0, 0, 0, 0, 4, 0}; /* read 4 bytes at 0x40000000 */
            queue_frame(c, IPU_LINK_TYPE_DMA_REQ, req, sizeof req, 0);
        } else {
            return -ETIMEDOUT;
        }
    }
    size_t n = c->tail - c->head < cap ? c->tail - c->head : cap;
    if (c->late_host) {
        /* The host was not scheduled for longer than its timeout (a busy machine): it
         * gets the first byte late, and the rest of the answer is already there. */
        c->late_host = 0;
        const struct timespec pause = {0, (TIMEOUT_MS + 50) * 1000000L};
        nanosleep(&pause, NULL);
        n = 1;
    }
    memcpy(buf, c->out + c->head, n);
    c->head += n;
    return (int)n;
}

static void start(struct ipudrv_link *link, struct card *c)
{
    memset(c, 0, sizeof *c);
    struct ipudrv_link_port port = {.write = card_write, .read = card_read, .ctx = c};
    ipudrv_link_init(link, &port, TIMEOUT_MS);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A card that keeps sending IRQ frames and never answers: the request ends at
 * its one deadline with -EIO (the old link restarted its timeout on every byte
 * and looped on IRQ frames for ever). */
static void irq_flood_ends_at_the_deadline(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct card c;
    start(&link, &c);
    c.flood_irq = 1;
    c.mute = 1;
    const double t0 = now_ms();
    uint32_t v = 0;
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_STATUS, &v), -EIO);
    const double took = now_ms() - t0;
    assert_true(took >= TIMEOUT_MS - 5);
    assert_true(took < 3 * TIMEOUT_MS);
}

/* The same with DMA_REQ frames, each served (refused: no host memory there). */
static void dma_flood_ends_at_the_deadline(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct card c;
    start(&link, &c);
    c.flood_dma = 1;
    c.mute = 1;
    const double t0 = now_ms();
    uint32_t v = 0;
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_STATUS, &v), -EIO);
    assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
}

/* A wait on a card that never stops talking returns too (one frame at most). */
static void a_wait_on_a_talking_card_returns(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct card c;
    start(&link, &c);
    c.flood_irq = 1;
    const double t0 = now_ms();
    assert_int_equal(ipudrv_link_wait(&link, 50), 0);
    assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
}

/* One duplicated answer: every later read still gets its own register's value
 * (the old link took the duplicate for the next answer, shifting them all). */
static void a_duplicated_answer_is_dropped(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct card c;
    start(&link, &c);
    c.duplicate = 1;
    static const uint32_t regs[] = {IPU_REG_VERSION, IPU_REG_NUM_TILES, IPU_REG_TILE_MEM_BYTES, IPU_REG_LINK_SIZE};
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
        uint32_t v = 0;
        assert_int_equal(ipudrv_link_reg_read(&link, regs[i], &v), 0);
        assert_int_equal(v, reg_value(regs[i]));
    }
}

/* A corrupted answer followed by a late good one: the request fails (-EPROTO),
 * the link resynchronises (drops the late answer, reads ID), and the next
 * request gets its own value, not the late answer. */
static void a_framing_error_is_followed_by_the_recovery(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct card c;
    start(&link, &c);
    c.corrupt = 1;
    uint32_t v = 0;
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_VERSION, &v), -EPROTO);
    assert_true(c.probes >= 1);
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_NUM_TILES, &v), 0);
    assert_int_equal(v, reg_value(IPU_REG_NUM_TILES));
}

/* A recovery whose probes get no answer leaves the link dead, bounded in time. */
static void a_failed_recovery_kills_the_link(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct card c;
    start(&link, &c);
    c.corrupt = 1;
    c.flood_irq = 0;
    /* The corrupted answer comes, then the card falls silent. */
    uint32_t v = 0;
    const uint8_t p[4] = {1, 2, 3, 4};
    queue_frame(&c, IPU_LINK_TYPE_REG_DATA, p, 4, 1);
    c.mute = 1;
    const double t0 = now_ms();
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_VERSION, &v), -EPROTO);
    assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_VERSION, &v), -EIO);
}

/* A host that was not scheduled past its deadline in the middle of an answer:
 * the rest of the answer is waiting, so the request succeeds (before, the link
 * returned a timeout without looking, cut the frame, and the request failed). */
static void a_late_host_takes_the_waiting_answer(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct card c;
    start(&link, &c);
    c.late_host = 1;
    uint32_t v = 0;
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_NUM_TILES, &v), 0);
    assert_int_equal(v, reg_value(IPU_REG_NUM_TILES));
    assert_int_equal(c.probes, 0); /* no recovery was needed */
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_VERSION, &v), 0);
    assert_int_equal(v, reg_value(IPU_REG_VERSION));
}

/* IPU_EMU_LINK_TIMEOUT_MS sets the deadline (the link soak shortens it); a value
 * out of range or not decimal is refused by name, never taken as something else. */
static void the_link_timeout_comes_from_the_environment(void **state)
{
    (void)state;
    char err[256] = "";
    int ms = 0;
    unsetenv("IPU_EMU_LINK_TIMEOUT_MS");
    assert_int_equal(ipudrv_link_timeout(10000, &ms, err, sizeof err), 0);
    assert_int_equal(ms, 10000);
    setenv("IPU_EMU_LINK_TIMEOUT_MS", "750", 1);
    assert_int_equal(ipudrv_link_timeout(10000, &ms, err, sizeof err), 0);
    assert_int_equal(ms, 750);
    const char *bad[] = {"99", "600001", "0x400", "1e3", "-500", "500ms", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("IPU_EMU_LINK_TIMEOUT_MS", bad[i], 1);
        err[0] = 0;
        assert_int_equal(ipudrv_link_timeout(10000, &ms, err, sizeof err), -EINVAL);
        assert_non_null(strstr(err, "IPU_EMU_LINK_TIMEOUT_MS"));
        assert_int_equal(ms, 10000);
    }
    unsetenv("IPU_EMU_LINK_TIMEOUT_MS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(irq_flood_ends_at_the_deadline),
        cmocka_unit_test(dma_flood_ends_at_the_deadline),
        cmocka_unit_test(a_wait_on_a_talking_card_returns),
        cmocka_unit_test(a_duplicated_answer_is_dropped),
        cmocka_unit_test(a_framing_error_is_followed_by_the_recovery),
        cmocka_unit_test(a_failed_recovery_kills_the_link),
        cmocka_unit_test(a_late_host_takes_the_waiting_answer),
        cmocka_unit_test(the_link_timeout_comes_from_the_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
