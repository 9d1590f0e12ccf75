/* Exclusive attach of shared cards: one lock file per card, keyed by what
 * identifies the card (not by its position in a discovery list, which differs
 * between processes), holding flock() and the PID and command of the holder,
 * so that others can say who has the card. Simulated cards are created inside
 * the process that opens them: nothing is shared, so nothing is locked. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static int lock_dir(char *buf, size_t len)
{
    const char *env = getenv("IPU_EMU_LOCK_DIR");
    if (env && *env)
        snprintf(buf, len, "%s", env);
    else
        snprintf(buf, len, "/tmp/ipu-emu-%u", (unsigned)getuid());
    if (mkdir(buf, 0700) != 0 && errno != EEXIST)
        return -errno;
    return 0;
}

int ipudrv_transport_is_shared(const char *transport)
{
    /* Everything not simulated in-process is a card other processes can
     * reach too (vfio, socket, usb): lock unless known private. */
    return strcmp(transport, "model") != 0 && strcmp(transport, "rtl") != 0;
}

/* Copies a location into a file name: characters other than letters, digits
 * and ".:-" become '_', so that "/dev/ttyUSB0" cannot leave the directory. */
static void file_name_part(const char *src, char *dst, size_t len)
{
    size_t i = 0;
    for (; src[i] && i + 1 < len; i++) {
        char c = src[i];
        int ok = isalnum((unsigned char)c) || c == '.' || c == ':' || c == '-';
        dst[i] = ok ? c : '_';
    }
    dst[i] = '\0';
}

int ipudrv_lock_path(const struct ipudrv_node *node, char *buf, size_t len)
{
    if (!ipudrv_transport_is_shared(node->transport))
        return -EINVAL;
    char dir[512];
    int rc = lock_dir(dir, sizeof dir);
    if (rc)
        return rc;
    char where[96];
    file_name_part(node->location, where, sizeof where);
    if (strcmp(node->transport, "vfio") == 0)
        snprintf(buf, len, "%s/pci-%s.lock", dir, where);
    else
        snprintf(buf, len, "%s/%.31s-%s.lock", dir, node->transport, where);
    return 0;
}

static void read_holder(int fd, int *pid, char *cmd, size_t cmd_len)
{
    char text[128] = {0};
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    *pid = 0;
    if (cmd_len)
        cmd[0] = '\0';
    if (n <= 0)
        return;
    char name[64] = {0};
    if (sscanf(text, "%d %63s", pid, name) >= 1 && cmd_len)
        snprintf(cmd, cmd_len, "%s", name);
}

static void own_command(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/self/comm", "r");
    if (!f)
        return;
    if (fgets(buf, (int)len, f))
        buf[strcspn(buf, "\n")] = '\0';
    fclose(f);
}

int ipudrv_lock_acquire(const struct ipudrv_node *node, unsigned policy, int *fd_out, int *holder_pid,
                        char *holder_cmd, size_t cmd_len)
{
    *fd_out = -1;
    if (!ipudrv_transport_is_shared(node->transport))
        return 0;
    char path[768];
    int rc = ipudrv_lock_path(node, path, sizeof path);
    if (rc)
        return rc;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -errno;
    /* flock() belongs to the open file description: a second open() of the
     * same file in this process conflicts too, so a card is attached once. */
    while ((rc = flock(fd, policy == IPUDRV_LOCK_WAIT ? LOCK_EX : LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
        if (rc == -EBUSY)
            read_holder(fd, holder_pid, holder_cmd, cmd_len);
        close(fd);
        return rc;
    }
    char cmd[64];
    own_command(cmd, sizeof cmd);
    char text[128];
    int n = snprintf(text, sizeof text, "%d %s\n", (int)getpid(), cmd);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)n, 0) != n) {
        rc = -errno;
        close(fd);
        return rc;
    }
    *fd_out = fd;
    return 0;
}

int ipudrv_lock_query(const struct ipudrv_node *node, int *holder_pid, char *holder_cmd, size_t cmd_len)
{
    char path[768];
    *holder_pid = 0;
    if (cmd_len)
        holder_cmd[0] = '\0';
    if (!ipudrv_transport_is_shared(node->transport) || ipudrv_lock_path(node, path, sizeof path))
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0; /* never attached */
    if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
        flock(fd, LOCK_UN); /* free: the PID in the file is stale */
    } else {
        read_holder(fd, holder_pid, holder_cmd, cmd_len);
        if (*holder_pid == 0)
            *holder_pid = -1; /* held, holder not yet written */
    }
    close(fd);
    return 0;
}

void ipudrv_lock_release(int fd)
{
    if (fd >= 0) {
        if (ftruncate(fd, 0) != 0) {
            /* The lock still goes away with the descriptor. */
        }
        flock(fd, LOCK_UN);
        close(fd);
    }
}
