/* The qtest protocol client: process control, line protocol, I/O helpers. */
#define _GNU_SOURCE
#include "qtest_client.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define QT_TIMEOUT_MS 60000
#define QT_MAX_ARGS 128

struct qt {
    pid_t pid;
    int fd;
    bool ok;
    char sock_path[108];
    char log_path[256];
    char err[512];
    char buf[1 << 17]; /* received bytes not yet consumed */
    size_t len;
    uint64_t irq_levels;
    char line[1 << 20];
};

static void qt_fail(struct qt *q, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(q->err, sizeof q->err, fmt, ap);
    va_end(ap);
    if (q->ok)
        fprintf(stderr, "qtest: %s\n", q->err);
    q->ok = false;
}

bool qt_ok(const struct qt *q) { return q->ok; }
const char *qt_log_path(const struct qt *q) { return q->log_path; }
const char *qt_last_error(const struct qt *q) { return q->err; }

static void spawn(struct qt *q, const char *qemu, const char *args)
{
    char *words = strdup(args ? args : "");
    char socket_arg[160];
    char *argv[QT_MAX_ARGS];
    int n = 0;
    snprintf(socket_arg, sizeof socket_arg, "unix:%s", q->sock_path);
    const char *fixed[] = {qemu, "-machine", "q35", "-accel", "qtest", "-qtest", socket_arg, 
                           "-qtest-log", "none", "-display", "none", "-nodefaults", "-m", "256M", "-L", "/usr/share/qemu",
                           "-L", "/usr/share/seabios", "-d", "guest_errors", "-D", q->log_path};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        argv[n++] = (char *)fixed[i];
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w && n < QT_MAX_ARGS - 1; w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    argv[n] = NULL;
    q->pid = fork();
    if (q->pid == 0) {
        /* QEMU has known leaks at exit; the harness looks for memory errors,
         * whatever options the test itself runs with. */
        char opts[512];
        const char *old = getenv("ASAN_OPTIONS");
        snprintf(opts, sizeof opts, "%s%sdetect_leaks=0:abort_on_error=1", old ? old : "", old && *old ? ":" : "");
        setenv("ASAN_OPTIONS", opts, 1);
        execv(qemu, argv);
        _exit(127);
    }
    free(words);
}

struct qt *qt_start(const char *qemu, const char *args, char *err, size_t err_len)
{
    static unsigned seq;
    struct qt *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    q->ok = true;
    q->fd = -1;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(q->sock_path, sizeof q->sock_path, "/tmp/ipuqt-%d-%u.sock", getpid(), seq);
    snprintf(q->log_path, sizeof q->log_path, "%s/ipuqt-%d-%u.log", tmp, getpid(), seq++);
    unlink(q->sock_path);
    unlink(q->log_path);
    int ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", q->sock_path);
    if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(ls, 1) != 0) {
        snprintf(err, err_len, "cannot listen on %s: %s", q->sock_path, strerror(errno));
        goto fail;
    }
    spawn(q, qemu, args);
    struct pollfd p = {.fd = ls, .events = POLLIN};
    if (q->pid < 0 || poll(&p, 1, QT_TIMEOUT_MS) != 1) {
        snprintf(err, err_len, "QEMU (%s) did not connect; see its stderr", qemu);
        goto fail;
    }
    q->fd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
    close(ls);
    unlink(q->sock_path);
    return q;
fail:
    if (ls >= 0)
        close(ls);
    if (q->pid > 0) {
        kill(q->pid, SIGKILL);
        waitpid(q->pid, NULL, 0);
    }
    unlink(q->sock_path);
    free(q);
    return NULL;
}

int qt_quit(struct qt *q)
{
    int status = 0, rc = -1;
    bool was_ok = q->ok;
    if (q->fd >= 0)
        close(q->fd);
    if (waitpid(q->pid, &status, WNOHANG) == 0) {
        kill(q->pid, SIGTERM);
        for (int i = 0; i < 100 && waitpid(q->pid, &status, WNOHANG) == 0; i++)
            usleep(50000);
        if (waitpid(q->pid, &status, WNOHANG) == 0) {
            fprintf(stderr, "qtest: QEMU ignores SIGTERM (hung?)\n");
            kill(q->pid, SIGKILL);
            waitpid(q->pid, &status, 0);
        } else if ((WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            rc = was_ok ? 0 : -1;
        } else {
            fprintf(stderr, "qtest: QEMU exited with status 0x%x on SIGTERM\n", status);
        }
    } else {
        fprintf(stderr, "qtest: QEMU had exited by itself (status 0x%x): a crash\n", status);
    }
    /* QEMU's -D log is read while the test runs; a clean quit removes it so tests leave nothing in the temp
     * folder, and a failed one keeps it for the person reading the failure. */
    if (rc == 0)
        unlink(q->log_path);
    else
        fprintf(stderr, "qtest: QEMU's log kept: %s\n", q->log_path);
    free(q);
    return rc;
}

/* Reads one line (without the newline) into q->line; false on timeout or EOF. */
static bool read_line(struct qt *q)
{
    for (;;) {
        char *nl = memchr(q->buf, '\n', q->len);
        if (nl) {
            size_t n = (size_t)(nl - q->buf);
            if (n >= sizeof q->line)
                n = sizeof q->line - 1;
            memcpy(q->line, q->buf, n);
            q->line[n] = 0;
            q->len -= (size_t)(nl - q->buf) + 1;
            memmove(q->buf, nl + 1, q->len);
            return true;
        }
        if (q->len == sizeof q->buf) {
            qt_fail(q, "answer line too long");
            return false;
        }
        struct pollfd p = {.fd = q->fd, .events = POLLIN};
        if (poll(&p, 1, QT_TIMEOUT_MS) != 1) {
            qt_fail(q, "no answer from QEMU within %d s: hung", QT_TIMEOUT_MS / 1000);
            return false;
        }
        ssize_t r = read(q->fd, q->buf + q->len, sizeof q->buf - q->len);
        if (r <= 0) {
            qt_fail(q, "QEMU closed the qtest socket: crashed (see its stderr)");
            return false;
        }
        q->len += (size_t)r;
    }
}

/* Sends one command and returns the text after "OK" (NULL on failure). */
static const char *command(struct qt *q, const char *fmt, ...)
{
    static char cmd[1 << 20];
    if (!q->ok)
        return NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd, sizeof cmd - 1, fmt, ap);
    va_end(ap);
    cmd[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t w = write(q->fd, cmd + off, (size_t)(n - off));
        if (w <= 0) {
            qt_fail(q, "cannot send to QEMU: %s", strerror(errno));
            return NULL;
        }
        off += (int)w;
    }
    while (read_line(q)) {
        unsigned line;
        if (sscanf(q->line, "IRQ raise %u", &line) == 1 && line < 64) {
            q->irq_levels |= 1ull << line;
        } else if (sscanf(q->line, "IRQ lower %u", &line) == 1 && line < 64) {
            q->irq_levels &= ~(1ull << line);
        } else if (strncmp(q->line, "OK", 2) == 0) {
            return q->line[2] == ' ' ? q->line + 3 : q->line + 2;
        } else {
            qt_fail(q, "QEMU refused '%.60s': %.200s", cmd, q->line);
            return NULL;
        }
    }
    return NULL;
}

static const char *size_suffix(unsigned size) { return size == 1 ? "b" : size == 2 ? "w" : size == 4 ? "l" : "q"; }

uint32_t qt_in(struct qt *q, uint16_t port, unsigned size)
{
    const char *r = command(q, "in%s 0x%x", size_suffix(size), port);
    return r ? (uint32_t)strtoul(r, NULL, 0) : ~0u;
}

void qt_out(struct qt *q, uint16_t port, unsigned size, uint32_t value)
{
    command(q, "out%s 0x%x 0x%x", size_suffix(size), port, value);
}

uint64_t qt_read(struct qt *q, uint64_t addr, unsigned size)
{
    const char *r = command(q, "read%s 0x%" PRIx64, size_suffix(size), addr);
    return r ? strtoull(r, NULL, 0) : ~0ull;
}

void qt_write(struct qt *q, uint64_t addr, unsigned size, uint64_t value)
{
    command(q, "write%s 0x%" PRIx64 " 0x%" PRIx64, size_suffix(size), addr, value);
}

void qt_memread(struct qt *q, uint64_t addr, void *buf, size_t len)
{
    const char *r = command(q, "read 0x%" PRIx64 " 0x%zx", addr, len);
    uint8_t *out = buf;
    memset(buf, 0xff, len);
    if (!r || strncmp(r, "0x", 2) != 0)
        return;
    for (size_t i = 0; i < len && r[2 + 2 * i] && r[3 + 2 * i]; i++) {
        char byte[3] = {r[2 + 2 * i], r[3 + 2 * i], 0};
        out[i] = (uint8_t)strtoul(byte, NULL, 16);
    }
}

void qt_memwrite(struct qt *q, uint64_t addr, const void *buf, size_t len)
{
    char *hex = malloc(2 * len + 1);
    const uint8_t *in = buf;
    for (size_t i = 0; i < len; i++)
        sprintf(hex + 2 * i, "%02x", in[i]);
    hex[2 * len] = 0;
    command(q, "write 0x%" PRIx64 " 0x%zx 0x%s", addr, len, hex);
    free(hex);
}

void qt_irq_intercept(struct qt *q) { command(q, "irq_intercept_in ioapic"); }

bool qt_irq_level(struct qt *q, unsigned n)
{
    /* A cheap command flushes any IRQ lines QEMU sent before it. */
    command(q, "clock_step 0");
    return n < 64 && (q->irq_levels >> n) & 1;
}
