/* Run control, event wait with timeout, host-sync release and the watchdog
 * report a timed-out wait carries. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

uint64_t ipudrv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int ipudrv_progress(ipudrv_device *dev, int max_ms)
{
    int rc = dev->t->ops->progress(dev->t, max_ms);
    if (rc)
        return ipudrv_fail_transport(dev, rc, "waiting for the card");
    return 0;
}

static int read64(ipudrv_device *dev, uint32_t lo_reg, uint32_t hi_reg, uint64_t *out)
{
    uint32_t lo = 0, hi = 0, hi2 = 0;
    int rc;
    /* Re-read when the high word changed under us. */
    do {
        if ((rc = ipudrv_rd(dev, hi_reg, &hi)) || (rc = ipudrv_rd(dev, lo_reg, &lo)) ||
            (rc = ipudrv_rd(dev, hi_reg, &hi2)))
            return rc;
    } while (hi != hi2);
    *out = ((uint64_t)hi << 32) | lo;
    return 0;
}

/* A growing string for reports. */
struct text {
    char *s;
    size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !t->s)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->cap + (size_t)n + 1) * 2;
        char *p = realloc(t->s, cap);
        if (!p)
            return;
        t->s = p;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* The contexts still issuing instructions on a running tile are the stuck
 * ones: a supervisor waiting in a worker join or a sync reads BLOCKED, and
 * workers that finished read DONE. */
static int is_stuck(const struct ipudrv_tile_status *st, unsigned c)
{
    return st->state == IPU_TILE_STATE_RUNNING && st->ctx[c].state == IPU_CTX_STATE_RUNNING;
}

static const char *context_role(unsigned c, char *buf, size_t len)
{
    if (c == 0)
        return "supervisor";
    snprintf(buf, len, "worker %u", c);
    return buf;
}

/* On a HOST_SERVICE card, a request still pending after the wait serviced it
 * (it reads STATUS through ipudrv_status) is why the tiles do not move on:
 * name it. */
static void waiting_request(ipudrv_device *dev, struct text *t)
{
    uint32_t req = 0, tile = 0;
    if (!(dev->caps & IPU_REG_CAPS_HOST_SERVICE_MASK) || ipudrv_rd(dev, IPU_REG_SVC_REQ, &req) ||
        !(req & IPU_REG_SVC_REQ_PENDING_MASK) || ipudrv_rd(dev, IPU_REG_SVC_TILE, &tile))
        return;
    const uint32_t kind = (req & IPU_REG_SVC_REQ_KIND_MASK) >> IPU_REG_SVC_REQ_KIND_SHIFT;
    if (kind == IPU_SVC_KIND_LAND)
        text_add(t, "; every tile waits for the host to land the exchanges (SVC_REQ 0x%08x unserviced)", req);
    else
        text_add(t, "; tile %u waits for the host to service its %s request (SVC_REQ 0x%08x unserviced)", tile,
                 ipudrv_svc_kind_name(kind), req);
}

/* Names at most this many stuck contexts on the report's first line (the
 * line gc-run prints without --verbose); the per-tile lines name them all. */
#define STUCK_IN_HEADLINE 4

char *ipudrv_report_alloc(ipudrv_device *dev, const char *headline)
{
    struct text t = {calloc(1, 256), 0, 256};
    struct ipudrv_tile_status *tiles = calloc(dev->num_tiles ? dev->num_tiles : 1, sizeof *tiles);
    int *readable = calloc(dev->num_tiles ? dev->num_tiles : 1, sizeof *readable);
    if (!tiles || !readable) {
        free(tiles);
        free(readable);
        free(t.s);
        return NULL;
    }
    uint32_t state = 0;
    uint64_t cycles = 0;
    ipudrv_card_state(dev, &state);
    read64(dev, IPU_REG_CARD_CYCLES_LO, IPU_REG_CARD_CYCLES_HI, &cycles);
    text_add(&t, "%s%scard %s after %llu cycles", headline ? headline : "", headline ? "; " : "",
             ipudrv_card_state_name(state), (unsigned long long)cycles);
    unsigned stuck = 0;
    char role[24];
    for (unsigned i = 0; i < dev->num_tiles; i++) {
        readable[i] = ipudrv_tile_status_locked(dev, i, &tiles[i]) == 0;
        for (unsigned c = 0; readable[i] && c < tiles[i].num_contexts; c++) {
            if (!is_stuck(&tiles[i], c))
                continue;
            if (stuck < STUCK_IN_HEADLINE)
                text_add(&t, "%s tile %u c%u (%s) at pc 0x%08x", stuck ? "," : "; stuck:", i, c,
                         context_role(c, role, sizeof role), tiles[i].ctx[c].pc);
            stuck++;
        }
    }
    if (stuck > STUCK_IN_HEADLINE)
        text_add(&t, " and %u more", stuck - STUCK_IN_HEADLINE);
    waiting_request(dev, &t);
    text_add(&t, "; per tile (context: state@pc):");
    for (unsigned i = 0; i < dev->num_tiles; i++) {
        const struct ipudrv_tile_status *st = &tiles[i];
        if (!readable[i]) {
            text_add(&t, "\n  tile %u: unreadable", i);
            continue;
        }
        text_add(&t, "\n  tile %u: %s", i, ipudrv_tile_state_name(st->state));
        for (unsigned c = 0; c < st->num_contexts; c++)
            text_add(&t, " c%u:%s@0x%08x", c, ipudrv_ctx_state_name(st->ctx[c].state), st->ctx[c].pc);
        for (unsigned c = 0; c < st->num_contexts; c++)
            if (is_stuck(st, c))
                text_add(&t, "; stuck: c%u (%s) running at pc 0x%08x, %u instructions retired", c,
                         context_role(c, role, sizeof role), st->ctx[c].pc, st->ctx[c].instret);
        if (st->state == IPU_TILE_STATE_ERROR) {
            char cause[IPUDRV_CAUSE_TEXT_MAX];
            text_add(&t, " fault %s at pc 0x%08x addr 0x%08x", ipudrv_err_describe(st->err_cause, cause, sizeof cause),
                     st->err_pc, st->err_addr);
        }
    }
    free(tiles);
    free(readable);
    return t.s;
}

int ipudrv_watchdog_report(ipudrv_device *dev, char *buf, size_t len)
{
    int rc = ipudrv_enter(dev, "ipudrv_watchdog_report");
    if (rc)
        return rc;
    if (!buf && len) {
        ipudrv_leave(dev);
        return ipudrv_fail(dev, -EINVAL, "ipudrv_watchdog_report: buf is NULL");
    }
    char *r = ipudrv_report_alloc(dev, NULL);
    if (!r)
        rc = ipudrv_fail(dev, -ENOMEM, "ipudrv_watchdog_report: out of memory for the report");
    ipudrv_leave(dev);
    if (!r)
        return rc;
    int n = snprintf(buf, len, "%s", r);
    free(r);
    return n;
}

int ipudrv_tile_setup(ipudrv_device *dev, unsigned tile, uint32_t entry, uint32_t boot_arg, int enable)
{
    int rc = ipudrv_enter(dev, "ipudrv_tile_setup");
    if (rc)
        return rc;
    uint32_t state = 0;
    if (tile >= dev->num_tiles)
        rc = ipudrv_fail(dev, -EINVAL, "ipudrv_tile_setup: tile %u does not exist; the card has tiles 0..%u", tile,
                         dev->num_tiles - 1);
    else if (!(rc = ipudrv_card_state(dev, &state)) &&
             (state == IPU_CARD_STATE_RUNNING || state == IPU_CARD_STATE_HOST_SYNC))
        rc = ipudrv_fail(dev, -EBUSY, "ipudrv_tile_setup: the card is %s; set tiles up before ipudrv_start",
                         ipudrv_card_state_name(state));
    if (!rc && !(rc = ipudrv_wr(dev, IPU_REG_TILE_SEL, tile)) && !(rc = ipudrv_wr(dev, IPU_REG_TILE_ENTRY, entry)) &&
        !(rc = ipudrv_wr(dev, IPU_REG_TILE_BOOT_ARG, boot_arg)))
        rc = ipudrv_wr(dev, IPU_REG_TILE_CTRL, enable ? IPU_REG_TILE_CTRL_ENABLE_MASK : 0);
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_set_watchdog(ipudrv_device *dev, uint32_t kilo_insns)
{
    int rc = ipudrv_enter(dev, "ipudrv_set_watchdog");
    if (rc)
        return rc;
    rc = ipudrv_wr(dev, IPU_REG_WATCHDOG_INSNS, kilo_insns);
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_start(ipudrv_device *dev)
{
    int rc = ipudrv_enter(dev, "ipudrv_start");
    if (rc)
        return rc;
    uint32_t state = 0;
    if (!(rc = ipudrv_card_state(dev, &state))) {
        if (state == IPU_CARD_STATE_RUNNING || state == IPU_CARD_STATE_HOST_SYNC)
            rc = ipudrv_fail(dev, -EBUSY, "ipudrv_start: the card is already %s; wait for it or halt it",
                             ipudrv_card_state_name(state));
        else if (state == IPU_CARD_STATE_ERROR)
            rc = ipudrv_fail(dev, -EIO, "ipudrv_start: the card is in ERROR; read the error records, then reset it "
                             "(ipudrv_reset)");
        else
            rc = ipudrv_wr(dev, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    }
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_halt(ipudrv_device *dev)
{
    int rc = ipudrv_enter(dev, "ipudrv_halt");
    if (rc)
        return rc;
    rc = ipudrv_wr(dev, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_HALT_MASK);
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_host_sync_release(ipudrv_device *dev)
{
    int rc = ipudrv_enter(dev, "ipudrv_host_sync_release");
    if (rc)
        return rc;
    uint32_t pending = 0;
    if (!(rc = ipudrv_rd(dev, IPU_REG_HSYNC_STATUS, &pending))) {
        if (!(pending & IPU_REG_HSYNC_STATUS_PENDING_MASK))
            rc = ipudrv_fail(dev, -EAGAIN, "ipudrv_host_sync_release: no host sync is pending; wait for an "
                             "IPUDRV_EVENT_HOST_SYNC first");
        else if (!(rc = ipudrv_wr(dev, IPU_REG_IRQ_STATUS, IPU_REG_IRQ_STATUS_HOST_SYNC_MASK)))
            rc = ipudrv_wr(dev, IPU_REG_HSYNC_RELEASE, 1);
    }
    ipudrv_leave(dev);
    return rc;
}

/* Maps the card's state to an event; 0 while it still runs. */
static int classify(ipudrv_device *dev, uint32_t state, struct ipudrv_event *ev)
{
    switch (state) {
    case IPU_CARD_STATE_RUNNING: return 0;
    case IPU_CARD_STATE_HOST_SYNC: {
        ev->kind = IPUDRV_EVENT_HOST_SYNC;
        /* The read's own code: a dead link stays -ENOLINK, not a card error. */
        const int rc = ipudrv_rd(dev, IPU_REG_HSYNC_ID, &ev->sync_id);
        return rc ? rc : 1;
    }
    case IPU_CARD_STATE_DONE: ev->kind = IPUDRV_EVENT_DONE; return 1;
    case IPU_CARD_STATE_ERROR: ev->kind = IPUDRV_EVENT_ERROR; return 1;
    default: ev->kind = IPUDRV_EVENT_IDLE; return 1;
    }
}

int ipudrv_wait(ipudrv_device *dev, int timeout_ms, struct ipudrv_event *ev)
{
    if (!ev) {
        /* The handle's own text too, when it is live: callers read
         * ipudrv_last_error(dev) after a failing call on dev. */
        int rc = ipudrv_enter(dev, "ipudrv_wait");
        if (rc)
            return rc;
        rc = ipudrv_fail(dev, -EINVAL, "ipudrv_wait: ev is NULL; pass a struct ipudrv_event to receive the event");
        ipudrv_leave(dev);
        return rc;
    }
    memset(ev, 0, sizeof *ev);
    uint64_t start = ipudrv_now_ms();
    uint64_t deadline = timeout_ms < 0 ? UINT64_MAX : start + (uint64_t)timeout_ms;
    for (;;) {
        /* One slice per turn, unlocking in between, so that other threads
         * (a stream service releasing syncs) get the device. */
        int rc = ipudrv_enter(dev, "ipudrv_wait");
        if (rc)
            return rc;
        uint32_t state = 0;
        rc = ipudrv_card_state(dev, &state);
        if (!rc)
            rc = classify(dev, state, ev);
        if (rc) {
            int status = rc < 0 ? rc : 0;
            if (status == 0)
                read64(dev, IPU_REG_CARD_CYCLES_LO, IPU_REG_CARD_CYCLES_HI, &ev->card_cycles);
            /* Acknowledge the interrupt causes this event stands for, so that
             * edge-triggered MSI-X fires again next time. */
            if (status == 0 && (ev->kind == IPUDRV_EVENT_DONE || ev->kind == IPUDRV_EVENT_ERROR))
                ipudrv_wr(dev, IPU_REG_IRQ_STATUS, IPU_REG_IRQ_STATUS_DONE_MASK | IPU_REG_IRQ_STATUS_ERROR_MASK);
            if (status == 0 && ev->kind == IPUDRV_EVENT_ERROR) {
                struct ipudrv_error_record rec;
                char line[512] = "no error record";
                if (ipudrv_error_peek(dev, &rec) == 0)
                    ipudrv_error_format(&rec, line, sizeof line);
                ipudrv_fail(dev, 0, "the card stopped in ERROR: %s", line);
            }
            ipudrv_leave(dev);
            return status;
        }
        uint64_t now = ipudrv_now_ms();
        if (now >= deadline) {
            char head[160];
            snprintf(head, sizeof head, "wait timed out after %d ms with the tiles still running (a tile may be "
                     "hung: see its PC below; raise the timeout or set a watchdog)", timeout_ms);
            read64(dev, IPU_REG_CARD_CYCLES_LO, IPU_REG_CARD_CYCLES_HI, &ev->card_cycles);
            ev->kind = IPUDRV_EVENT_TIMEOUT;
            char *report = ipudrv_report_alloc(dev, head);
            rc = report ? ipudrv_fail_text(dev, -ETIMEDOUT, report) : ipudrv_fail(dev, -ETIMEDOUT, "%s", head);
            free(report);
            ipudrv_leave(dev);
            return rc;
        }
        uint64_t left = deadline - now;
        rc = ipudrv_progress(dev, left > 50 ? 50 : (int)left);
        ipudrv_leave(dev);
        if (rc)
            return rc;
        sched_yield();
    }
}
