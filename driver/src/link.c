/* The host link protocol over a byte stream (see link.h). */
#include "link.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ipu_card/hw.h"
#include "ipu_card/link_frame.h"

/* Words per BLOCK_READ answer (MEM_DATA: 4N <= 255 bytes) and BLOCK_WRITE
 * request (word index and 4N bytes <= 255): the contract's limits. */
#define BLOCK_WORDS 63u
#define BLOCK_WRITE_WORDS 62u
/* How often a request the card refused as corrupted (NAK CHECK) is sent again. */
#define CHECK_RETRIES 3

int ipudrv_link_timeout(int default_ms, int *timeout_ms, char *err, size_t err_len)
{
    const char *text = getenv("IPU_EMU_LINK_TIMEOUT_MS");
    *timeout_ms = default_ms;
    if (!text || !*text)
        return 0;
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (*end || text[0] < '0' || text[0] > '9' || errno || v < 100 || v > 600000) {
        snprintf(err, err_len, "IPU_EMU_LINK_TIMEOUT_MS='%s': expected milliseconds from 100 to 600000 (decimal); "
                 "unset it for the default %d", text, default_ms);
        return -EINVAL;
    }
    *timeout_ms = (int)v;
    return 0;
}

void ipudrv_link_init(struct ipudrv_link *link, const struct ipudrv_link_port *port, int timeout_ms)
{
    memset(link, 0, sizeof *link);
    link->port = *port;
    link->timeout_ms = timeout_ms;
    link->blocks_ok = 1;
    link->next_bus = 0x100000000ull;
}

static int send_frame(struct ipudrv_link *link, uint8_t type, const uint8_t *payload, uint8_t len)
{
    uint8_t buf[IPU_LINK_FRAME_MAX];
    const size_t n = ipu_link_frame_encode(buf, type, payload, len);
    return link->port.write(link->port.ctx, buf, n);
}

/* Now on the monotonic clock, in ms. */
static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What is left of the current deadline, in ms (0 when it has passed). */
static int left_ms(const struct ipudrv_link *link)
{
    int64_t left = link->deadline_ms - now_ms();
    return left > 0 ? (left > INT32_MAX ? INT32_MAX : (int)left) : 0;
}

/* One byte before the current deadline: -ETIMEDOUT once it has passed, however
 * many bytes came before (a card that keeps talking cannot hold a request).
 * When the deadline has passed, what has already arrived is read once more: a
 * host that was not scheduled for a while (a busy machine, a stopped process)
 * finds the card's answer waiting and must not call the card dead. One such
 * look per deadline, so it cannot lengthen a request without bound. */
static int read_byte(struct ipudrv_link *link, uint8_t *b)
{
    if (link->rx_pos == link->rx_len) {
        /* Checked here too: a port with bytes waiting returns at once whatever its timeout. */
        const int left = left_ms(link);
        if (left == 0 && link->looked_late_ms == link->deadline_ms)
            return -ETIMEDOUT;
        if (left == 0)
            link->looked_late_ms = link->deadline_ms;
        int n = link->port.read(link->port.ctx, link->rx, sizeof link->rx, left);
        if (n < 0)
            return n;
        if (n == 0)
            return -ETIMEDOUT;
        link->rx_pos = 0;
        link->rx_len = (size_t)n;
    }
    *b = link->rx[link->rx_pos++];
    return 0;
}

/* The next frame before the current deadline. Bytes before SOF are dropped
 * (resynchronisation). A bad CHECK is -EPROTO; a frame cut short by the
 * deadline -EBADMSG; no frame at all -ETIMEDOUT. */
static int recv_frame(struct ipudrv_link *link, uint8_t *type, uint8_t *payload, uint8_t *len)
{
    struct ipu_link_framer f = {.len = 0};
    uint8_t b = 0;
    int rc, r;
    do {
        if ((rc = read_byte(link, &b)))
            return rc;
    } while ((r = ipu_link_framer_byte(&f, b)) == IPU_LINK_FRAMER_OUTSIDE);
    /* In a wait, a frame that has started gets one link timeout to finish. */
    if (link->in_wait) {
        const int64_t end = now_ms() + link->timeout_ms;
        if (end > link->deadline_ms)
            link->deadline_ms = end;
    }
    /* From here a timeout cuts a started frame: a framing error, not silence. */
    while (r == IPU_LINK_FRAMER_MORE) {
        if ((rc = read_byte(link, &b)))
            return rc == -ETIMEDOUT ? -EBADMSG : rc;
        r = ipu_link_framer_byte(&f, b);
    }
    if (r == IPU_LINK_FRAMER_BAD_CHECK)
        return -EPROTO;
    *type = f.frame[1];
    *len = f.frame[2];
    memcpy(payload, f.frame + 3, *len);
    return 0;
}

/* The host memory block holding [bus, bus + len), or NULL. */
static struct ipudrv_link_mem *find_mem(struct ipudrv_link *link, uint64_t bus, size_t len)
{
    for (struct ipudrv_link_mem *m = link->mem; m; m = m->next)
        if (bus >= m->bus && bus - m->bus <= m->size && len <= m->size - (bus - m->bus))
            return m;
    return NULL;
}

/* Answers the card's DMA_REQ with DMA_DATA: status 0 and the bytes read, or
 * status 1 when no host memory is at that address (the card records a miss). */
static int serve_dma(struct ipudrv_link *link, const uint8_t *p, uint8_t len)
{
    if (len < 10)
        return -EPROTO;
    uint64_t bus = 0;
    for (int i = 7; i >= 0; i--)
        bus = bus << 8 | p[i];
    const uint8_t n = p[8], to_host = p[9];
    if ((n != 1 && n != 4) || to_host > 1 || len != 10 + (to_host ? n : 0))
        return -EPROTO;
    uint8_t answer[5] = {1, 0, 0, 0, 0};
    struct ipudrv_link_mem *m = find_mem(link, bus, n);
    if (m) {
        answer[0] = 0;
        if (to_host)
            memcpy(m->va + (bus - m->bus), p + 10, n);
        else
            memcpy(answer + 1, m->va + (bus - m->bus), n);
    }
    int rc = send_frame(link, IPU_LINK_TYPE_DMA_DATA, answer, (uint8_t)(to_host ? 1 : 1 + n));
    if (rc == 0)
        link->acks_owed++;
    return rc;
}

/* Frames the card sends on its own: IRQ (a wake-up only) and DMA_REQ (served). Returns
 * 1 when the frame was one of those, 0 when it is an answer, or a negative code. */
static int card_message(struct ipudrv_link *link, uint8_t type, const uint8_t *payload, uint8_t len)
{
    if (type == IPU_LINK_TYPE_IRQ)
        return 1; /* the driver reads the card's status registers after every wait: the lines need no copy */
    if (type == IPU_LINK_TYPE_DMA_REQ) {
        int rc = serve_dma(link, payload, len);
        return rc ? rc : 1;
    }
    return 0;
}

/* Takes the ACK of every DMA_DATA sent (serving the card's messages on the
 * way), so that the next answer belongs to the next request. */
static int drain_acks(struct ipudrv_link *link)
{
    while (link->acks_owed) {
        uint8_t type, len, payload[255];
        int rc = recv_frame(link, &type, payload, &len);
        if (rc)
            return rc;
        if ((rc = card_message(link, type, payload, len)) < 0)
            return rc;
        if (rc)
            continue;
        if (type != IPU_LINK_TYPE_ACK && type != IPU_LINK_TYPE_NAK)
            return -EPROTO;
        link->acks_owed--; /* a NAK (UNEXPECTED: the card was reset) ends the exchange too */
    }
    return 0;
}

/* Takes every frame that is already waiting before a request goes out: the
 * card's messages are served, answers nobody asked for (a duplicated frame,
 * a late answer) are dropped, so that they cannot be taken for this request's.
 * The bytes of a frame in flight get the rest of the deadline. */
static int take_waiting(struct ipudrv_link *link)
{
    for (;;) {
        int rc = drain_acks(link);
        if (rc)
            return rc;
        if (left_ms(link) == 0)
            return -ETIMEDOUT; /* a card that never stops talking */
        if (link->rx_pos == link->rx_len) {
            int n = link->port.read(link->port.ctx, link->rx, sizeof link->rx, 0);
            if (n == -ETIMEDOUT || n == 0)
                return 0;
            if (n < 0)
                return n;
            link->rx_pos = 0;
            link->rx_len = (size_t)n;
        }
        uint8_t type, len, payload[255];
        if ((rc = recv_frame(link, &type, payload, &len)) || (rc = card_message(link, type, payload, len)) < 0)
            return rc;
    }
}

/* The recovery after a framing error (contract [link] desc): drop bytes until
 * the card has been silent for RESYNC_QUIET_MS (serving whole DMA_REQs), then
 * read ID and expect its reset value; up to RESYNC_PROBES rounds within one more
 * link timeout. 0 when the link is in step again, -EIO when it is not. */
static int resync(struct ipudrv_link *link)
{
    link->deadline_ms = now_ms() + link->timeout_ms;
    link->acks_owed = 0; /* ACKs lost in the error are not waited for */
    for (unsigned probe = 0; probe < IPU_LINK_RESYNC_PROBES; probe++) {
        for (;;) {
            const int64_t quiet_end = now_ms() + IPU_LINK_RESYNC_QUIET_MS;
            if (quiet_end > link->deadline_ms)
                return -EIO;
            if (link->rx_pos == link->rx_len) {
                int n = link->port.read(link->port.ctx, link->rx, sizeof link->rx, IPU_LINK_RESYNC_QUIET_MS);
                if (n == -ETIMEDOUT || n == 0)
                    break; /* silent long enough */
                if (n < 0)
                    return n;
                link->rx_pos = 0;
                link->rx_len = (size_t)n;
            }
            /* Whole DMA_REQs are served (the card's engine waits for them); the rest is dropped. */
            uint8_t type, len, payload[255];
            int rc = recv_frame(link, &type, payload, &len);
            if (rc == -ENODEV)
                return rc;
            if (rc == 0 && type == IPU_LINK_TYPE_DMA_REQ && serve_dma(link, payload, len) == -ENODEV)
                return -ENODEV;
        }
        link->acks_owed = 0;
        const uint8_t req[2] = {(uint8_t)IPU_REG_ID, (uint8_t)(IPU_REG_ID >> 8)};
        int rc = send_frame(link, IPU_LINK_TYPE_REG_READ, req, sizeof req);
        if (rc)
            return rc;
        uint8_t type, len, payload[255];
        do
            rc = recv_frame(link, &type, payload, &len);
        while (rc == 0 && (type == IPU_LINK_TYPE_IRQ || type == IPU_LINK_TYPE_DMA_REQ || type == IPU_LINK_TYPE_ACK));
        if (rc == -ENODEV)
            return rc;
        if (rc == 0 && type == IPU_LINK_TYPE_REG_DATA && len == 4 &&
            ((uint32_t)payload[0] | (uint32_t)payload[1] << 8 | (uint32_t)payload[2] << 16 |
             (uint32_t)payload[3] << 24) == IPU_REG_ID_RESET_VALUE)
            return 0;
    }
    return -EIO;
}

/* A failure after which the link cannot be trusted is recorded (see link->dead).
 * A request left without an answer is -EIO, "the card stopped answering":
 * -ETIMEDOUT is what the core's waits return for an idle slice, and a runtime
 * taking a dead link for an idle card would poll it until its own timeout.
 * A framing error (a bad CHECK, an unexpected answer, a frame cut short) is
 * followed by the recovery sequence; the request fails with -EPROTO either
 * way, and the link dies when the recovery fails. */
static int note_failure(struct ipudrv_link *link, int rc)
{
    if (rc == -ETIMEDOUT)
        rc = -EIO;
    if (rc == -EPROTO || rc == -EBADMSG) {
        int r = resync(link);
        if (r)
            link->dead = r == -ENODEV ? r : -EIO;
        return -EPROTO;
    }
    if (rc == -ENODEV || rc == -EIO)
        link->dead = rc;
    return rc;
}

/* One request and its answer (see transact), all before link->deadline_ms. */
static int exchange(struct ipudrv_link *link, uint8_t type, const uint8_t *req, uint8_t req_len, uint8_t want,
                    uint8_t *resp, uint8_t want_len, uint8_t *nak)
{
    for (int attempt = 0;; attempt++) {
        int rc = take_waiting(link);
        if (rc || (rc = send_frame(link, type, req, req_len)))
            return rc;
        uint8_t got, len, payload[255];
        /* The card may ask for host memory (DMA_REQ) before it answers: the
         * answer still comes first among the answers, as the card takes
         * frames in order and this request went out before any DMA_DATA.
         * However many such frames come, the deadline bounds the loop. */
        do {
            if ((rc = recv_frame(link, &got, payload, &len)))
                return rc;
        } while ((rc = card_message(link, got, payload, len)) == 1);
        if (rc < 0)
            return rc;
        if (got == IPU_LINK_TYPE_NAK && len == 1) {
            if (nak)
                *nak = payload[0];
            if (payload[0] == IPU_LINK_NAK_CHECK && attempt < CHECK_RETRIES)
                continue;
            /* An address the card does not have: the caller's mistake, as a
             * BAR access past its end is on the other backends. */
            if (payload[0] == IPU_LINK_NAK_RANGE)
                return -EINVAL;
            return -EREMOTEIO;
        }
        if (got != want || len != want_len)
            return -EPROTO;
        if (want_len)
            memcpy(resp, payload, want_len);
        return drain_acks(link);
    }
}

/* Sends a request and waits for its answer of type `want` with `want_len`
 * payload bytes, all within one link timeout. IRQ frames on the way are noted,
 * a NAK is -EREMOTEIO with the reason in *nak (a corrupted request, NAK CHECK,
 * is sent again first; NAK RANGE is -EINVAL). A dead link fails at once. */
static int transact(struct ipudrv_link *link, uint8_t type, const uint8_t *req, uint8_t req_len, uint8_t want,
                    uint8_t *resp, uint8_t want_len, uint8_t *nak)
{
    if (link->dead)
        return link->dead;
    link->deadline_ms = now_ms() + link->timeout_ms;
    return note_failure(link, exchange(link, type, req, req_len, want, resp, want_len, nak));
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int ipudrv_link_reg_read(struct ipudrv_link *link, uint32_t offset, uint32_t *value)
{
    uint8_t req[2] = {(uint8_t)offset, (uint8_t)(offset >> 8)}, resp[4];
    int rc = transact(link, IPU_LINK_TYPE_REG_READ, req, sizeof req, IPU_LINK_TYPE_REG_DATA, resp, 4, NULL);
    if (rc == 0)
        *value = get32(resp);
    return rc;
}

int ipudrv_link_reg_write(struct ipudrv_link *link, uint32_t offset, uint32_t value)
{
    uint8_t req[6] = {(uint8_t)offset, (uint8_t)(offset >> 8)};
    put32(req + 2, value);
    int rc = transact(link, IPU_LINK_TYPE_REG_WRITE, req, sizeof req, IPU_LINK_TYPE_ACK, NULL, 0, NULL);
    if (rc || offset != IPU_REG_RESET || value != IPU_RESET_KEY)
        return rc;
    /* After a reset the tiles clear their SRAM (a word per cycle), and the
     * window waits for that. A BLOCK_WRITE is written as its bytes arrive and a
     * UART has no flow control, so the bytes of one sent during the clear would
     * overflow the board's queue and be lost. A one-word read of the window
     * (tile 0 after the reset; every tile clears in the same cycles) is answered
     * when the clear is over. */
    uint8_t word[4] = {0}, data[4];
    return transact(link, IPU_LINK_TYPE_MEM_READ, word, sizeof word, IPU_LINK_TYPE_MEM_DATA, data, sizeof data, NULL);
}

/* `count` whole words from word index `word` into words[]. */
static int read_words(struct ipudrv_link *link, uint32_t word, uint32_t *words, uint32_t count)
{
    while (count) {
        uint32_t n = count < BLOCK_WORDS ? count : BLOCK_WORDS;
        uint8_t req[5], resp[4 * BLOCK_WORDS], nak = 0;
        put32(req, word);
        int rc = -EREMOTEIO;
        if (link->blocks_ok && n > 1) {
            req[4] = (uint8_t)n;
            rc = transact(link, IPU_LINK_TYPE_BLOCK_READ, req, 5, IPU_LINK_TYPE_MEM_DATA, resp, (uint8_t)(4 * n), &nak);
            if (rc == -EREMOTEIO && nak == IPU_LINK_NAK_TYPE)
                link->blocks_ok = 0;
            else if (rc)
                return rc;
        }
        if (rc) {
            n = 1;
            if ((rc = transact(link, IPU_LINK_TYPE_MEM_READ, req, 4, IPU_LINK_TYPE_MEM_DATA, resp, 4, NULL)))
                return rc;
        }
        for (uint32_t i = 0; i < n; i++)
            words[i] = get32(resp + 4 * i);
        words += n;
        word += n;
        count -= n;
    }
    return 0;
}

static int write_words(struct ipudrv_link *link, uint32_t word, const uint32_t *words, uint32_t count)
{
    while (count) {
        uint32_t n = count < BLOCK_WRITE_WORDS ? count : BLOCK_WRITE_WORDS;
        uint8_t req[4 + 4 * BLOCK_WORDS], nak = 0;
        put32(req, word);
        int rc = -EREMOTEIO;
        if (link->blocks_ok && n > 1) {
            for (uint32_t i = 0; i < n; i++)
                put32(req + 4 + 4 * i, words[i]);
            rc = transact(link, IPU_LINK_TYPE_BLOCK_WRITE, req, (uint8_t)(4 + 4 * n), IPU_LINK_TYPE_ACK, NULL, 0,
                          &nak);
            if (rc == -EREMOTEIO && nak == IPU_LINK_NAK_TYPE)
                link->blocks_ok = 0;
            else if (rc)
                return rc;
        }
        if (rc) {
            n = 1;
            put32(req + 4, words[0]);
            if ((rc = transact(link, IPU_LINK_TYPE_MEM_WRITE, req, 8, IPU_LINK_TYPE_ACK, NULL, 0, NULL)))
                return rc;
        }
        words += n;
        word += n;
        count -= n;
    }
    return 0;
}

int ipudrv_link_window_read(struct ipudrv_link *link, uint32_t offset, void *buf, size_t len)
{
    uint8_t *out = buf;
    while (len) {
        uint32_t words[BLOCK_WORDS], skip = offset & 3u;
        size_t span = skip + len, count = (span + 3) / 4;
        if (count > BLOCK_WORDS)
            count = BLOCK_WORDS;
        int rc = read_words(link, offset >> 2, words, (uint32_t)count);
        if (rc)
            return rc;
        uint8_t bytes[4 * BLOCK_WORDS];
        for (size_t i = 0; i < count; i++)
            put32(bytes + 4 * i, words[i]);
        size_t n = 4 * count - skip < len ? 4 * count - skip : len;
        memcpy(out, bytes + skip, n);
        out += n;
        offset += (uint32_t)n;
        len -= n;
    }
    return 0;
}

int ipudrv_link_window_write(struct ipudrv_link *link, uint32_t offset, const void *buf, size_t len)
{
    const uint8_t *in = buf;
    while (len) {
        uint32_t words[BLOCK_WORDS], skip = offset & 3u;
        size_t span = skip + len, count = (span + 3) / 4;
        if (count > BLOCK_WORDS)
            count = BLOCK_WORDS;
        size_t n = 4 * count - skip < len ? 4 * count - skip : len;
        uint8_t bytes[4 * BLOCK_WORDS];
        int rc;
        /* The link writes whole words: the partial words at either end are
         * read first and merged. */
        if (skip && (rc = read_words(link, offset >> 2, &words[0], 1)))
            return rc;
        if ((skip + n) % 4 && (count > 1 || !skip) &&
            (rc = read_words(link, (uint32_t)((offset >> 2) + count - 1), &words[count - 1], 1)))
            return rc;
        for (size_t i = 0; i < count; i++)
            put32(bytes + 4 * i, words[i]);
        memcpy(bytes + skip, in, n);
        for (size_t i = 0; i < count; i++)
            words[i] = get32(bytes + 4 * i);
        if ((rc = write_words(link, offset >> 2, words, (uint32_t)count)))
            return rc;
        in += n;
        offset += (uint32_t)n;
        len -= n;
    }
    return 0;
}

int ipudrv_link_mem_alloc(struct ipudrv_link *link, size_t size, void **va, uint64_t *bus)
{
    const size_t page = 4096;
    if (size == 0 || size > ((size_t)1 << 40))
        return -EINVAL;
    size_t rounded = (size + page - 1) / page * page;
    struct ipudrv_link_mem *m = calloc(1, sizeof *m);
    void *p = NULL;
    if (!m || posix_memalign(&p, page, rounded) != 0) {
        free(m);
        return -ENOMEM;
    }
    memset(p, 0, rounded);
    m->va = p;
    m->size = rounded;
    m->bus = link->next_bus;
    /* A page of nothing between blocks: a transfer running off one misses. */
    link->next_bus += rounded + page;
    m->next = link->mem;
    link->mem = m;
    *va = p;
    *bus = m->bus;
    return 0;
}

void ipudrv_link_mem_free(struct ipudrv_link *link, void *va)
{
    for (struct ipudrv_link_mem **pm = &link->mem; *pm; pm = &(*pm)->next)
        if ((*pm)->va == va) {
            struct ipudrv_link_mem *m = *pm;
            *pm = m->next;
            free(m->va);
            free(m);
            return;
        }
}

void ipudrv_link_release(struct ipudrv_link *link)
{
    while (link->mem)
        ipudrv_link_mem_free(link, link->mem->va);
}

int ipudrv_link_wait(struct ipudrv_link *link, int max_ms)
{
    if (link->dead)
        return link->dead;
    uint8_t type, len, payload[255];
    /* The first frame may take max_ms to start; one that has started gets one link timeout. */
    link->deadline_ms = now_ms() + (max_ms > 0 ? max_ms : 0);
    link->in_wait = 1;
    int rc = recv_frame(link, &type, payload, &len);
    link->in_wait = 0;
    /* Anything but the card's own messages is stray (an answer nobody waits for): dropped. */
    if (rc == 0 && (rc = card_message(link, type, payload, len)) >= 0) {
        link->deadline_ms = now_ms() + link->timeout_ms;
        rc = drain_acks(link);
    }
    if (rc == -ETIMEDOUT && link->acks_owed == 0)
        return 0; /* silence is fine: the driver polls the card's status after this */
    if (rc == -ENODEV) {
        link->dead = rc;
        return rc;
    }
    /* A corrupted or cut frame: the link is resynchronised before the next request. */
    if (rc < 0)
        note_failure(link, rc);
    return link->dead ? link->dead : 0;
}
