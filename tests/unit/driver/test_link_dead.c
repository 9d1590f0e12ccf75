/* The host link (driver/src/link.c) when its card goes away or falls silent, on a
 * scripted port: a request without an answer is -EIO (not -ETIMEDOUT, which the
 * core's waits take for an idle slice), a gone peer is -ENODEV, and after either
 * every later call fails at once without touching the port, so a pulled cable
 * costs one timeout, never a string of them. Silence in a wait (an idle card)
 * is not death: the next request is answered. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ipu_card/hw.h"
#include "link.h"

/* The port: what every read returns, and how often the link used it. */
struct script {
    int read_rc;            /* returned by every read when no answer is queued */
    uint8_t answer[16];     /* one frame, read once after the next request is written */
    size_t answer_len, armed_len;
    unsigned reads, writes;
};

static int script_write(void *ctx, const uint8_t *buf, size_t len)
{
    (void)buf, (void)len;
    struct script *s = ctx;
    s->writes++;
    s->answer_len = s->armed_len; /* the card answers a request, never before it */
    s->armed_len = 0;
    return s->read_rc == -ENODEV ? -ENODEV : 0;
}

static int script_read(void *ctx, uint8_t *buf, size_t cap, int timeout_ms)
{
    (void)timeout_ms;
    struct script *s = ctx;
    s->reads++;
    if (s->answer_len) {
        size_t n = s->answer_len < cap ? s->answer_len : cap;
        memcpy(buf, s->answer, n);
        s->answer_len = 0;
        return (int)n;
    }
    return s->read_rc;
}

static void start(struct ipudrv_link *link, struct script *s, int read_rc)
{
    memset(s, 0, sizeof *s);
    s->read_rc = read_rc;
    struct ipudrv_link_port port = {.write = script_write, .read = script_read, .ctx = s};
    ipudrv_link_init(link, &port, 50);
}

/* A REG_DATA answer carrying `value`, sent once the next request is written. */
static void queue_reg_data(struct script *s, uint32_t value)
{
    const uint8_t payload[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
                                (uint8_t)(value >> 24)};
    uint8_t sum = (uint8_t)(IPU_LINK_TYPE_REG_DATA + 4);
    s->answer[0] = IPU_LINK_SOF;
    s->answer[1] = IPU_LINK_TYPE_REG_DATA;
    s->answer[2] = 4;
    for (int i = 0; i < 4; i++) {
        s->answer[3 + i] = payload[i];
        sum = (uint8_t)(sum + payload[i]);
    }
    s->answer[7] = (uint8_t)(0u - sum);
    s->armed_len = 8;
}

static void a_silent_card_is_eio_then_fails_at_once(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct script s;
    start(&link, &s, -ETIMEDOUT);
    uint32_t v = 0;
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_STATUS, &v), -EIO);
    const unsigned reads = s.reads, writes = s.writes;
    assert_int_equal(ipudrv_link_reg_write(&link, IPU_REG_STATUS, 1), -EIO);
    uint8_t buf[8];
    assert_int_equal(ipudrv_link_window_read(&link, 0, buf, sizeof buf), -EIO);
    assert_int_equal(ipudrv_link_wait(&link, 10), -EIO);
    /* The dead link did not send or wait again. */
    assert_int_equal(s.reads, reads);
    assert_int_equal(s.writes, writes);
}

static void a_gone_peer_is_enodev_then_fails_at_once(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct script s;
    start(&link, &s, -ENODEV);
    uint32_t v = 0;
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_STATUS, &v), -ENODEV);
    const unsigned writes = s.writes;
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_STATUS, &v), -ENODEV);
    assert_int_equal(ipudrv_link_wait(&link, 10), -ENODEV);
    assert_int_equal(s.writes, writes);
}

/* A wait that sees the peer go (a closed socket while the card runs) kills the link too. */
static void a_wait_that_sees_the_peer_go_kills_the_link(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct script s;
    start(&link, &s, -ENODEV);
    assert_int_equal(ipudrv_link_wait(&link, 10), -ENODEV);
    uint32_t v = 0;
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_STATUS, &v), -ENODEV);
    assert_int_equal(s.writes, 0);
}

/* Silence in a wait is an idle card, not a dead link: the next request is answered. */
static void silence_in_a_wait_is_not_death(void **state)
{
    (void)state;
    struct ipudrv_link link;
    struct script s;
    start(&link, &s, -ETIMEDOUT);
    assert_int_equal(ipudrv_link_wait(&link, 10), 0);
    queue_reg_data(&s, 0x12345678u);
    uint32_t v = 0;
    assert_int_equal(ipudrv_link_reg_read(&link, IPU_REG_STATUS, &v), 0);
    assert_int_equal(v, 0x12345678u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_silent_card_is_eio_then_fails_at_once),
        cmocka_unit_test(a_gone_peer_is_enodev_then_fails_at_once),
        cmocka_unit_test(a_wait_that_sees_the_peer_go_kills_the_link),
        cmocka_unit_test(silence_in_a_wait_is_not_death),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
