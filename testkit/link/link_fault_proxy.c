/* ipu-link-fault-proxy: a host link (contract/card.toml [link]) with faults in it.
 *
 * It listens on a Unix socket in place of a socket card (IPU_EMU_DEVICES=socket:LISTEN)
 * and relays every client, one at a time, to the card's socket (ipu-board-sim
 * --socket CARD), reading the frames both ways. Each client connection gets at
 * most one fault, chosen from the seed and the connection's number, so that a
 * soak can tell which request met which fault and that the next one met none:
 *
 *   drop           a frame of the card's is not passed on (the answer is lost)
 *   drop-host      a frame of the host's is not passed on (the request is lost)
 *   dup            a frame of the card's is passed on twice
 *   truncate       only the first bytes of a frame of the card's are passed on
 *   truncate-host  only the first bytes of a frame of the host's are passed on
 *   noise          1..16 random bytes (SOF among them) before a frame of the card's
 *   flood          20..400 unsolicited IRQ and DMA_REQ frames before a frame of the card's
 *   chatter        from a frame of the card's on, the card never stops talking
 *                  (IRQ frames, DMA_REQs and noise until the client goes away)
 *
 * The proxy's DMA_REQs read host memory at bus addresses below any the driver
 * hands out (it refuses them: status 1); the host's DMA_DATA answers to them
 * are taken here and ACKed, the card never sees them (a card's own DMA_REQs,
 * which come before the proxy's in no particular order, are not told apart:
 * use a card whose requests need no DMA, e.g. gc-info, and gc-run of the bare
 * console program or of hello).
 *
 * Usage: ipu-link-fault-proxy --listen PATH --card PATH [--seed N] [--rate R]
 *          [--faults K,K,...] [--window N] [--plan K@F,...] [--log FILE]
 *   --rate R     the share of connections that get a fault (0..1, default 0.5)
 *   --faults     the kinds to choose from (default: all of the above)
 *   --window N   the fault hits frame 0..N-1 of its direction (default 24); a
 *                connection that ends before that frame met no fault
 *   --plan       connection i gets the i-th entry, K@F (kind K at frame F) or
 *                none, instead of a random choice; connections past the list
 *                get none. It replays a soak's fault sequence (the soak's log
 *                names each connection's fault and frame).
 *   --log FILE   one line per connection when it ends: "conn C fault K frame F hit H"
 *                (K none when it got none; H 1 when the fault happened)
 * It runs until SIGTERM or SIGINT. */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ipu_card/hw.h"
#include "ipu_card/link_frame.h"

enum fault { F_NONE, F_DROP, F_DROP_HOST, F_DUP, F_TRUNCATE, F_TRUNCATE_HOST, F_NOISE, F_FLOOD, F_CHATTER, F_COUNT };
static const char *const fault_names[F_COUNT] = {"none",  "drop",          "drop-host", "dup",    "truncate",
                                                 "truncate-host", "noise", "flood", "chatter"};

static volatile sig_atomic_t g_stop;
static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
}

/* splitmix64: a small generator whose state is one word, so a connection's
 * faults follow from (seed, connection) alone. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned below(uint64_t *s, unsigned n)
{
    return n ? (unsigned)(next_random(s) % n) : 0;
}

/* Bytes waiting to go out on one socket (non-blocking: a client that stops
 * reading cannot stall the proxy; chatter is made only while this is short). */
struct outq {
    uint8_t *buf;
    size_t len, cap;
};

static void put(struct outq *q, const uint8_t *p, size_t n)
{
    if (q->len + n > q->cap) {
        size_t cap = q->cap ? q->cap : 4096;
        while (cap < q->len + n)
            cap *= 2;
        uint8_t *b = realloc(q->buf, cap);
        if (!b) {
            fprintf(stderr, "ipu-link-fault-proxy: out of memory\n");
            exit(1);
        }
        q->buf = b;
        q->cap = cap;
    }
    memcpy(q->buf + q->len, p, n);
    q->len += n;
}

/* Sends what the socket takes now; -1 when the peer has gone. */
static int flush(int fd, struct outq *q)
{
    while (q->len) {
        ssize_t n = send(fd, q->buf, q->len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        if (n <= 0)
            return -1;
        memmove(q->buf, q->buf + n, q->len - (size_t)n);
        q->len -= (size_t)n;
    }
    return 0;
}

static void put_frame(struct outq *q, uint8_t type, const uint8_t *payload, uint8_t len)
{
    uint8_t buf[IPU_LINK_FRAME_MAX];
    put(q, buf, ipu_link_frame_encode(buf, type, payload, len));
}

/* One connection: its fault and what it has seen. */
struct conn {
    unsigned id;
    enum fault fault;
    unsigned at;           /* the frame (of the fault's direction) it hits */
    unsigned card_frames;  /* frames of the card's seen */
    unsigned host_frames;  /* frames of the host's seen */
    unsigned dma_owed;     /* DMA_DATA answers owed for the proxy's DMA_REQs */
    int hit, chattering;
    uint64_t rng;
    struct ipu_link_framer from_card, from_host;
    struct outq to_card, to_host;
};

/* An unsolicited card message: an IRQ (lines 0..7) or a DMA_REQ the driver refuses. */
static void put_unsolicited(struct conn *c)
{
    if (below(&c->rng, 4)) {
        uint8_t lines = (uint8_t)(1u << below(&c->rng, 8));
        put_frame(&c->to_host, IPU_LINK_TYPE_IRQ, &lines, 1);
        return;
    }
    uint8_t req[14] = {0};
    const uint64_t bus = (uint64_t)below(&c->rng, 1u << 20) * 4u; /* below 4 GiB: no driver block is there */
    for (int i = 0; i < 8; i++)
        req[i] = (uint8_t)(bus >> (8 * i));
    const int to_host = (int)below(&c->rng, 2);
    req[8] = 4;
    req[9] = (uint8_t)to_host;
    if (to_host)
        for (int i = 0; i < 4; i++)
            req[10 + i] = (uint8_t)next_random(&c->rng);
    put_frame(&c->to_host, IPU_LINK_TYPE_DMA_REQ, req, (uint8_t)(to_host ? 14 : 10));
    c->dma_owed++;
}

static void put_noise(struct conn *c, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint8_t b = below(&c->rng, 4) ? (uint8_t)next_random(&c->rng) : (uint8_t)IPU_LINK_SOF;
        put(&c->to_host, &b, 1);
    }
}

/* A whole frame of the card's, on its way to the host. */
static void card_frame(struct conn *c, const uint8_t *f, size_t n)
{
    const unsigned k = c->card_frames++;
    if (c->hit || k != c->at) {
        put(&c->to_host, f, n);
        return;
    }
    switch (c->fault) {
    case F_DROP:
        c->hit = 1;
        return;
    case F_DUP:
        put(&c->to_host, f, n);
        put(&c->to_host, f, n);
        c->hit = 1;
        return;
    case F_TRUNCATE:
        put(&c->to_host, f, 1 + below(&c->rng, (unsigned)n - 1));
        c->hit = 1;
        return;
    case F_NOISE:
        put_noise(c, 1 + below(&c->rng, 16));
        c->hit = 1;
        break;
    case F_FLOOD:
        for (unsigned i = 20 + below(&c->rng, 381); i; i--)
            put_unsolicited(c);
        c->hit = 1;
        break;
    case F_CHATTER:
        c->hit = c->chattering = 1;
        break;
    default:
        break;
    }
    put(&c->to_host, f, n);
}

/* A whole frame of the host's, on its way to the card. */
static void host_frame(struct conn *c, const uint8_t *f, size_t n)
{
    /* The answer to one of the proxy's DMA_REQs: the card did not ask. */
    if (f[1] == IPU_LINK_TYPE_DMA_DATA && c->dma_owed) {
        c->dma_owed--;
        put_frame(&c->to_host, IPU_LINK_TYPE_ACK, NULL, 0);
        return;
    }
    const unsigned k = c->host_frames++;
    if (!c->hit && k == c->at && c->fault == F_DROP_HOST) {
        c->hit = 1;
        return;
    }
    if (!c->hit && k == c->at && c->fault == F_TRUNCATE_HOST) {
        put(&c->to_card, f, 1 + below(&c->rng, (unsigned)n - 1));
        c->hit = 1;
        return;
    }
    put(&c->to_card, f, n);
}

static int connect_card(const char *path)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    memcpy(a.sun_path, path, strlen(path) + 1);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
        return fd;
    fprintf(stderr, "ipu-link-fault-proxy: cannot connect to the card at %s: %s\n", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

/* Relays one client until either side goes away (or a signal). */
static void relay(int cfd, int kfd, struct conn *c)
{
    while (!g_stop) {
        if (c->chattering && c->to_host.len < 4096) {
            for (int i = 0; i < 16; i++)
                put_unsolicited(c);
            put_noise(c, below(&c->rng, 8));
        }
        struct pollfd p[2] = {{cfd, POLLIN | (c->to_host.len ? POLLOUT : 0), 0},
                              {kfd, POLLIN | (c->to_card.len ? POLLOUT : 0), 0}};
        if (poll(p, 2, c->chattering ? 1 : 100) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        uint8_t buf[4096];
        for (int side = 0; side < 2; side++) {
            if (!(p[side].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = recv(p[side].fd, buf, sizeof buf, MSG_DONTWAIT);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (n <= 0)
                return;
            struct ipu_link_framer *f = side == 0 ? &c->from_host : &c->from_card;
            for (ssize_t i = 0; i < n; i++) {
                int r = ipu_link_framer_byte(f, buf[i]);
                if (r == IPU_LINK_FRAMER_OUTSIDE)
                    put(side == 0 ? &c->to_card : &c->to_host, &buf[i], 1);
                else if (r != IPU_LINK_FRAMER_MORE) { /* relayed whatever its CHECK: the far side judges it */
                    if (side == 0)
                        host_frame(c, f->frame, f->len);
                    else
                        card_frame(c, f->frame, f->len);
                }
            }
        }
        if (flush(cfd, &c->to_host) || flush(kfd, &c->to_card))
            return;
    }
}

static int listen_on(const char *path)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    struct stat st;
    if (strlen(path) >= sizeof a.sun_path) {
        fprintf(stderr, "ipu-link-fault-proxy: %s is too long for a socket path\n", path);
        return -1;
    }
    if (lstat(path, &st) == 0 && !S_ISSOCK(st.st_mode)) {
        fprintf(stderr, "ipu-link-fault-proxy: %s exists and is not a socket\n", path);
        return -1;
    }
    unlink(path);
    memcpy(a.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 8) != 0) {
        fprintf(stderr, "ipu-link-fault-proxy: cannot listen on %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

static int parse_faults(const char *text, unsigned *mask)
{
    char copy[256];
    if (strlen(text) >= sizeof copy)
        return -1;
    strcpy(copy, text);
    *mask = 0;
    for (char *save = NULL, *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int f = 1; f < F_COUNT; f++)
            if (strcmp(k, fault_names[f]) == 0) {
                *mask |= 1u << f;
                found = 1;
            }
        if (!found)
            return -1;
    }
    return *mask ? 0 : -1;
}

/* The --plan list: one fault and frame per connection, in order. */
#define PLAN_MAX 64
struct plan {
    unsigned n;
    enum fault fault[PLAN_MAX];
    unsigned at[PLAN_MAX];
};

static int parse_plan(const char *text, struct plan *plan)
{
    char copy[1024];
    if (strlen(text) >= sizeof copy)
        return -1;
    strcpy(copy, text);
    plan->n = 0;
    for (char *save = NULL, *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        if (plan->n == PLAN_MAX)
            return -1;
        char *at = strchr(k, '@'), *end = NULL;
        if (at)
            *at++ = 0;
        int found = -1;
        for (int f = 0; f < F_COUNT; f++)
            if (strcmp(k, fault_names[f]) == 0)
                found = f;
        /* none takes no frame; every other kind needs one */
        if (found < 0 || (found == F_NONE) != (at == NULL))
            return -1;
        unsigned long frame = 0;
        if (at) {
            frame = strtoul(at, &end, 10);
            if (!*at || *end || frame > 100000)
                return -1;
        }
        plan->fault[plan->n] = (enum fault)found;
        plan->at[plan->n++] = (unsigned)frame;
    }
    return plan->n ? 0 : -1;
}

static void usage(void)
{
    fprintf(stderr, "usage: ipu-link-fault-proxy --listen PATH --card PATH [--seed N] [--rate R] [--faults K,...] "
                    "[--window N] [--plan K@F,...] [--log FILE]\n  kinds:");
    for (int f = 1; f < F_COUNT; f++)
        fprintf(stderr, " %s", fault_names[f]);
    fprintf(stderr, "\n  --plan: one entry per connection, KIND@FRAME (a kind above at a frame number) or none, "
                    "at most %d, e.g. drop@13,none\n", PLAN_MAX);
}

int main(int argc, char **argv)
{
    const char *listen_path = NULL, *card_path = NULL, *log_path = NULL;
    unsigned long long seed = 1;
    double rate = 0.5;
    unsigned window = 24, mask = (1u << F_COUNT) - 2u;
    struct plan plan = {.n = 0};
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        int ok = 1;
        if (!v)
            ok = 0;
        else if (strcmp(a, "--listen") == 0)
            listen_path = v;
        else if (strcmp(a, "--card") == 0)
            card_path = v;
        else if (strcmp(a, "--log") == 0)
            log_path = v;
        else if (strcmp(a, "--seed") == 0) {
            seed = strtoull(v, &end, 0);
            ok = *v && !*end;
        } else if (strcmp(a, "--rate") == 0) {
            rate = strtod(v, &end);
            ok = *v && !*end && rate >= 0 && rate <= 1;
        } else if (strcmp(a, "--window") == 0) {
            window = (unsigned)strtoul(v, &end, 10);
            ok = *v && !*end && window > 0;
        } else if (strcmp(a, "--faults") == 0)
            ok = parse_faults(v, &mask) == 0;
        else if (strcmp(a, "--plan") == 0)
            ok = parse_plan(v, &plan) == 0;
        else
            ok = 0;
        if (!ok) {
            fprintf(stderr, "ipu-link-fault-proxy: bad option %s %s\n", a, v ? v : "(no value)");
            usage();
            return 2;
        }
    }
    if (!listen_path || !card_path) {
        usage();
        return 2;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int lfd = listen_on(listen_path);
    if (lfd < 0)
        return 1;
    FILE *log = log_path ? fopen(log_path, "a") : NULL;
    if (log_path && !log) {
        fprintf(stderr, "ipu-link-fault-proxy: cannot open %s: %s\n", log_path, strerror(errno));
        return 1;
    }
    enum fault kinds[F_COUNT];
    unsigned nkinds = 0;
    for (int f = 1; f < F_COUNT; f++)
        if (mask & (1u << f))
            kinds[nkinds++] = (enum fault)f;
    for (unsigned id = 0; !g_stop; id++) {
        int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (cfd < 0) {
            if (errno == EINTR)
                continue;
            perror("ipu-link-fault-proxy: accept");
            break;
        }
        int kfd = connect_card(card_path);
        if (kfd < 0) {
            close(cfd);
            continue;
        }
        struct conn c = {.id = id, .rng = seed * 0x100000001b3ull ^ ((uint64_t)id << 20)};
        next_random(&c.rng);
        if (plan.n) {
            if (id < plan.n) {
                c.fault = plan.fault[id];
                c.at = plan.at[id];
            }
        } else if ((double)(next_random(&c.rng) >> 11) / 9007199254740992.0 < rate) {
            c.fault = kinds[below(&c.rng, nkinds)];
            c.at = below(&c.rng, window);
        }
        relay(cfd, kfd, &c);
        close(cfd);
        close(kfd);
        if (log) {
            fprintf(log, "conn %u fault %s frame %u hit %d\n", id, fault_names[c.fault], c.at, c.hit);
            fflush(log);
        }
        free(c.to_card.buf);
        free(c.to_host.buf);
    }
    close(lfd);
    unlink(listen_path);
    return 0;
}
