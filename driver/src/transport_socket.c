/* The `socket` transport: a card behind the host link protocol (contract/card.toml
 * [link], LINK_TYPE, LINK_NAK) on a Unix socket -- today ipu-board-sim, the
 * Verilated FPGA board top as its own process. IPU_EMU_DEVICES=socket:/path.
 * The framing and the operations are link.c's; this file moves the bytes. IRQ
 * frames between responses are interrupts (progress waits for them); DMA_REQ
 * frames are the card's DMA engine reaching the host memory of mem_alloc. A
 * closed socket (the simulation stopped) is -ENODEV at once, a silent card -EIO
 * after one request's timeout: an error naming the card, never a hang; a
 * restarted simulation on the same path is reached by the next open. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "internal.h"
#include "link.h"

/* How long a request may wait for its response: generous, as the card may be a
 * slow simulation on a busy machine (IPU_EMU_LINK_TIMEOUT_MS overrides it). */
#define LINK_TIMEOUT_MS 10000

struct socket_transport {
    struct ipudrv_transport base;
    struct ipudrv_link link;
    int fd;
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

static struct socket_transport *st(struct ipudrv_transport *t)
{
    return (struct socket_transport *)t;
}

static int socket_port_write(void *ctx, const uint8_t *buf, size_t len)
{
    struct socket_transport *s = ctx;
    size_t done = 0;
    while (done < len) {
        ssize_t n = send(s->fd, buf + done, len - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -ENODEV;
        done += (size_t)n;
    }
    return 0;
}

static int socket_port_read(void *ctx, uint8_t *buf, size_t cap, int timeout_ms)
{
    struct socket_transport *s = ctx;
    struct pollfd p = {.fd = s->fd, .events = POLLIN};
    int rc = poll(&p, 1, timeout_ms);
    if (rc < 0)
        return errno == EINTR ? -ETIMEDOUT : -errno;
    if (rc == 0)
        return -ETIMEDOUT;
    ssize_t n = recv(s->fd, buf, cap, 0);
    return n > 0 ? (int)n : -ENODEV; /* 0: the simulation closed the socket */
}

static int socket_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    return ipudrv_link_reg_read(&st(t)->link, offset, value);
}

static int socket_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    return ipudrv_link_reg_write(&st(t)->link, offset, value);
}

static int socket_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    return ipudrv_link_window_read(&st(t)->link, offset, buf, len);
}

static int socket_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    return ipudrv_link_window_write(&st(t)->link, offset, buf, len);
}

static int socket_mem_alloc(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus)
{
    return ipudrv_link_mem_alloc(&st(t)->link, size, va, bus);
}

static void socket_mem_free(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus)
{
    (void)size;
    (void)bus;
    ipudrv_link_mem_free(&st(t)->link, va);
}

static int socket_progress(struct ipudrv_transport *t, int max_ms)
{
    /* Waits for the card to say something (an IRQ frame) and drops it: the
     * driver reads the card's status registers after every progress call. */
    return ipudrv_link_wait(&st(t)->link, max_ms);
}

static void socket_close(struct ipudrv_transport *t)
{
    struct socket_transport *s = st(t);
    if (s->fd >= 0)
        close(s->fd);
    ipudrv_link_release(&s->link);
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
    int timeout_ms;
    int rc = ipudrv_link_timeout(LINK_TIMEOUT_MS, &timeout_ms, err, err_len);
    if (rc)
        return rc;
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
    struct ipudrv_link_port port = {.write = socket_port_write, .read = socket_port_read, .ctx = s};
    ipudrv_link_init(&s->link, &port, timeout_ms);
    *out = &s->base;
    return 0;
}

const struct ipudrv_transport_ops ipudrv_transport_socket = {
    .name = "socket",
    .window_preferred = 1,
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
