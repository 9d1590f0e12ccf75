/* The `socket` transport: a card behind the host link protocol (contract/card.toml
 * [link], LINK_TYPE, LINK_NAK) on a Unix socket -- today ipu-board-sim, the
 * Verilated FPGA board top as its own process. IPU_EMU_DEVICES=socket:/path.
 * Every register and window access is one request frame and its response; IRQ
 * frames between responses are interrupts (progress waits for them). The link
 * carries no DMA yet: mem_alloc says so. A closed socket or a silent card gives
 * an error naming the socket, never a hang. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "internal.h"

/* How long a request may wait for its response: generous, as the card may be a
 * slow simulation on a busy machine. */
#define LINK_TIMEOUT_MS 10000

struct socket_transport {
    struct ipudrv_transport base;
    int fd;
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

static struct socket_transport *st(struct ipudrv_transport *t)
{
    return (struct socket_transport *)t;
}

static int send_frame(struct socket_transport *s, uint8_t type, const uint8_t *payload, uint8_t len)
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
    size_t done = 0, total = 4u + len;
    while (done < total) {
        ssize_t n = send(s->fd, buf + done, total - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -EIO;
        done += (size_t)n;
    }
    return 0;
}

/* One byte, waiting at most timeout_ms: 0, -ETIMEDOUT, or -EIO when the socket closed. */
static int read_byte(struct socket_transport *s, uint8_t *b, int timeout_ms)
{
    struct pollfd p = {.fd = s->fd, .events = POLLIN};
    int rc = poll(&p, 1, timeout_ms);
    if (rc < 0)
        return errno == EINTR ? -ETIMEDOUT : -errno;
    if (rc == 0)
        return -ETIMEDOUT;
    ssize_t n = recv(s->fd, b, 1, 0);
    return n == 1 ? 0 : -EIO;
}

/* The next frame: its type, payload and length. IRQ frames are returned too
 * (the caller skips them). Bytes before SOF are dropped. */
static int recv_frame(struct socket_transport *s, uint8_t *type, uint8_t *payload, uint8_t *len, int timeout_ms)
{
    uint8_t b = 0, n = 0, check = 0;
    int rc;
    do {
        if ((rc = read_byte(s, &b, timeout_ms)))
            return rc;
    } while (b != IPU_LINK_SOF);
    if ((rc = read_byte(s, type, LINK_TIMEOUT_MS)) || (rc = read_byte(s, &n, LINK_TIMEOUT_MS)))
        return rc;
    uint8_t sum = (uint8_t)(*type + n);
    for (unsigned i = 0; i < n; i++) {
        if ((rc = read_byte(s, &payload[i], LINK_TIMEOUT_MS)))
            return rc;
        sum = (uint8_t)(sum + payload[i]);
    }
    if ((rc = read_byte(s, &check, LINK_TIMEOUT_MS)))
        return rc;
    if ((uint8_t)(sum + check) != 0)
        return -EPROTO;
    *len = n;
    return 0;
}

/* Sends a request and waits for its answer of type `want` with `want_len` payload bytes. */
static int transact(struct socket_transport *s, uint8_t type, const uint8_t *req, uint8_t req_len, uint8_t want,
                    uint8_t *resp, uint8_t want_len)
{
    int rc = send_frame(s, type, req, req_len);
    if (rc)
        return rc;
    for (;;) {
        uint8_t got, len, payload[255];
        if ((rc = recv_frame(s, &got, payload, &len, LINK_TIMEOUT_MS)))
            return rc;
        if (got == IPU_LINK_TYPE_IRQ)
            continue; /* an interrupt between responses: the driver polls the card's status anyway */
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

static int socket_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    uint8_t req[2] = {(uint8_t)offset, (uint8_t)(offset >> 8)}, resp[4];
    int rc = transact(st(t), IPU_LINK_TYPE_REG_READ, req, sizeof req, IPU_LINK_TYPE_REG_DATA, resp, 4);
    if (rc == 0)
        *value = get32(resp);
    return rc;
}

static int socket_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    uint8_t req[6] = {(uint8_t)offset, (uint8_t)(offset >> 8)};
    put32(req + 2, value);
    return transact(st(t), IPU_LINK_TYPE_REG_WRITE, req, sizeof req, IPU_LINK_TYPE_ACK, NULL, 0);
}

static int word_read(struct socket_transport *s, uint32_t word, uint32_t *value)
{
    uint8_t req[4], resp[4];
    put32(req, word);
    int rc = transact(s, IPU_LINK_TYPE_MEM_READ, req, sizeof req, IPU_LINK_TYPE_MEM_DATA, resp, 4);
    if (rc == 0)
        *value = get32(resp);
    return rc;
}

static int word_write(struct socket_transport *s, uint32_t word, uint32_t value)
{
    uint8_t req[8];
    put32(req, word);
    put32(req + 4, value);
    return transact(s, IPU_LINK_TYPE_MEM_WRITE, req, sizeof req, IPU_LINK_TYPE_ACK, NULL, 0);
}

static int socket_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    uint8_t *out = buf;
    while (len) {
        uint32_t word, skip = offset & 3u;
        size_t n = 4u - skip < len ? 4u - skip : len;
        int rc = word_read(st(t), offset >> 2, &word);
        if (rc)
            return rc;
        uint8_t bytes[4];
        put32(bytes, word);
        memcpy(out, bytes + skip, n);
        out += n;
        offset += (uint32_t)n;
        len -= n;
    }
    return 0;
}

static int socket_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    const uint8_t *in = buf;
    while (len) {
        uint32_t word = 0, skip = offset & 3u;
        size_t n = 4u - skip < len ? 4u - skip : len;
        int rc;
        /* The link writes whole words: a partial word is read, merged and written. */
        if (n != 4 && (rc = word_read(st(t), offset >> 2, &word)))
            return rc;
        uint8_t bytes[4];
        put32(bytes, word);
        memcpy(bytes + skip, in, n);
        if ((rc = word_write(st(t), offset >> 2, get32(bytes))))
            return rc;
        in += n;
        offset += (uint32_t)n;
        len -= n;
    }
    return 0;
}

static int socket_mem_alloc(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus)
{
    (void)t;
    (void)size;
    (void)va;
    (void)bus;
    return -ENOTSUP; /* DMA_REQ/DMA_DATA are in the contract; no bridge implements them yet */
}

static void socket_mem_free(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus)
{
    (void)t;
    (void)va;
    (void)size;
    (void)bus;
}

static int socket_progress(struct ipudrv_transport *t, int max_ms)
{
    /* Waits for the card to say something (an IRQ frame) and drops it: the
     * driver reads the card's status registers after every progress call. */
    struct socket_transport *s = st(t);
    uint8_t type, len, payload[255];
    int rc = recv_frame(s, &type, payload, &len, max_ms);
    return rc == -ETIMEDOUT ? 0 : rc;
}

static void socket_close(struct ipudrv_transport *t)
{
    struct socket_transport *s = st(t);
    if (s->fd >= 0)
        close(s->fd);
    free(s);
}

static int socket_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                       char *err, size_t err_len)
{
    (void)board;
    const char *path = node->location;
    if (strncmp(path, "socket:", 7) == 0)
        path += 7;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (!path[0] || strlen(path) >= sizeof addr.sun_path) {
        snprintf(err, err_len, "socket card '%s': name the board simulation's Unix socket, e.g. "
                 "IPU_EMU_DEVICES=socket:/tmp/ipu-board.sock (at most %zu characters)", path,
                 sizeof addr.sun_path - 1);
        return -EINVAL;
    }
    struct socket_transport *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    s->base.ops = &ipudrv_transport_socket;
    /* The length was checked against sun_path above; s->path is as large. */
    memcpy(s->path, path, strlen(path) + 1);
    memcpy(addr.sun_path, path, strlen(path) + 1);
    s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        int e = errno;
        snprintf(err, err_len, "socket card %s: cannot connect (%s); start the board simulation first: "
                 "ipu-board-sim --socket %s", path, strerror(e), path);
        socket_close(&s->base);
        return -e;
    }
    *out = &s->base;
    return 0;
}

const struct ipudrv_transport_ops ipudrv_transport_socket = {
    .name = "socket",
    .open = socket_open,
    .close = socket_close,
    .reg_read = socket_reg_read,
    .reg_write = socket_reg_write,
    .window_read = socket_window_read,
    .window_write = socket_window_write,
    .mem_alloc = socket_mem_alloc,
    .mem_free = socket_mem_free,
    .progress = socket_progress,
};
