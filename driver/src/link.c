/* The host link protocol over a byte stream (see link.h). */
#include "link.h"

#include <errno.h>
#include <string.h>

#include "ipu_card/hw.h"

/* Words per BLOCK_READ/BLOCK_WRITE frame (the contract allows 1..63). */
#define BLOCK_WORDS 63u
/* How often a request the card refused as corrupted (NAK CHECK) is sent again. */
#define CHECK_RETRIES 3

void ipudrv_link_init(struct ipudrv_link *link, const struct ipudrv_link_port *port, int timeout_ms)
{
    memset(link, 0, sizeof *link);
    link->port = *port;
    link->timeout_ms = timeout_ms;
    link->blocks_ok = 1;
}

static int send_frame(struct ipudrv_link *link, uint8_t type, const uint8_t *payload, uint8_t len)
{
    uint8_t buf[4 + 255];
    uint8_t sum = (uint8_t)(type + len);
    buf[0] = IPU_LINK_SOF;
    buf[1] = type;
    buf[2] = len;
    for (unsigned i = 0; i < len; i++) {
        buf[3 + i] = payload[i];
        sum = (uint8_t)(sum + payload[i]);
    }
    buf[3 + len] = (uint8_t)(0u - sum);
    return link->port.write(link->port.ctx, buf, 4u + len);
}

/* One byte, waiting at most timeout_ms. */
static int read_byte(struct ipudrv_link *link, uint8_t *b, int timeout_ms)
{
    if (link->rx_pos == link->rx_len) {
        int n = link->port.read(link->port.ctx, link->rx, sizeof link->rx, timeout_ms);
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

/* The next frame. Bytes before SOF are dropped (resynchronisation); the first
 * byte may take `first_ms`, the rest of a started frame the request timeout. */
static int recv_frame(struct ipudrv_link *link, uint8_t *type, uint8_t *payload, uint8_t *len, int first_ms)
{
    uint8_t b = 0, n = 0, check = 0;
    int rc;
    do {
        if ((rc = read_byte(link, &b, first_ms)))
            return rc;
    } while (b != IPU_LINK_SOF);
    if ((rc = read_byte(link, type, link->timeout_ms)) || (rc = read_byte(link, &n, link->timeout_ms)))
        return rc;
    uint8_t sum = (uint8_t)(*type + n);
    for (unsigned i = 0; i < n; i++) {
        if ((rc = read_byte(link, &payload[i], link->timeout_ms)))
            return rc;
        sum = (uint8_t)(sum + payload[i]);
    }
    if ((rc = read_byte(link, &check, link->timeout_ms)))
        return rc;
    if ((uint8_t)(sum + check) != 0)
        return -EPROTO;
    *len = n;
    return 0;
}

/* Sends a request and waits for its answer of type `want` with `want_len`
 * payload bytes. IRQ frames on the way are noted, a NAK is -EREMOTEIO with the
 * reason in *nak (a corrupted request, NAK CHECK, is sent again first). */
static int transact(struct ipudrv_link *link, uint8_t type, const uint8_t *req, uint8_t req_len, uint8_t want,
                    uint8_t *resp, uint8_t want_len, uint8_t *nak)
{
    for (int attempt = 0;; attempt++) {
        int rc = send_frame(link, type, req, req_len);
        if (rc)
            return rc;
        uint8_t got, len, payload[255];
        for (;;) {
            if ((rc = recv_frame(link, &got, payload, &len, link->timeout_ms)))
                return rc;
            if (got != IPU_LINK_TYPE_IRQ)
                break;
            if (len == 1)
                link->irq_lines |= payload[0];
        }
        if (got == IPU_LINK_TYPE_NAK && len == 1) {
            if (nak)
                *nak = payload[0];
            if (payload[0] == IPU_LINK_NAK_CHECK && attempt < CHECK_RETRIES)
                continue;
            return -EREMOTEIO;
        }
        if (got != want || len != want_len)
            return -EPROTO;
        if (want_len)
            memcpy(resp, payload, want_len);
        return 0;
    }
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
    return transact(link, IPU_LINK_TYPE_REG_WRITE, req, sizeof req, IPU_LINK_TYPE_ACK, NULL, 0, NULL);
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
        uint32_t n = count < BLOCK_WORDS ? count : BLOCK_WORDS;
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

int ipudrv_link_wait(struct ipudrv_link *link, int max_ms)
{
    uint8_t type, len, payload[255];
    int rc = recv_frame(link, &type, payload, &len, max_ms);
    if (rc == 0 && type == IPU_LINK_TYPE_IRQ && len == 1)
        link->irq_lines |= payload[0];
    /* Silence is fine (the driver polls the card's status after this); a
     * corrupted stray frame is dropped like line noise. */
    return rc == -ETIMEDOUT || rc == -EPROTO ? 0 : rc;
}
