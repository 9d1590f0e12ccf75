/* ipu-board-sim over its Unix socket: the link protocol of contract/card.toml
 * ([link], LINK_TYPE, LINK_NAK) against the Verilated board top (the card behind
 * the UART host bridge of rtl/fpga). Registers read their reset values and take
 * writes, tile memory round-trips through the BAR2 window word by word and in
 * blocks (BLOCK_WRITE, BLOCK_READ), and bad frames (a
 * wrong check byte, an unknown type, a wrong length) are refused with the
 * reason while the link keeps working. */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ipu_card/hw.h"
#include "ipu_card/link_frame.h"

#define REPLY_TIMEOUT_MS 20000

static pid_t g_sim = -1;
static int g_fd = -1;
static char g_dir[] = "/tmp/ipu-board-sim-XXXXXX";
static char g_path[96]; /* fits sockaddr_un.sun_path (108) */

/* Sends one frame: SOF, type, len, payload, check. */
static void send_frame(uint8_t type, const uint8_t *payload, uint8_t len, int corrupt_check)
{
    uint8_t buf[IPU_LINK_FRAME_MAX];
    const size_t n = ipu_link_frame_encode(buf, type, payload, len);
    buf[n - 1] = (uint8_t)(buf[n - 1] + (corrupt_check ? 1u : 0u));
    assert_int_equal(write(g_fd, buf, n), n);
}

static int read_byte(uint8_t *b)
{
    struct pollfd p = {.fd = g_fd, .events = POLLIN};
    if (poll(&p, 1, REPLY_TIMEOUT_MS) != 1)
        return -ETIMEDOUT;
    return read(g_fd, b, 1) == 1 ? 0 : -EIO;
}

/* Receives the next response frame (IRQ messages are skipped); checks its
 * framing and check byte. Returns the type; *len and payload[] its payload. */
static uint8_t recv_frame(uint8_t *payload, uint8_t *len)
{
    for (;;) {
        struct ipu_link_framer f = {.len = 0};
        uint8_t b = 0;
        int r;
        do {
            assert_int_equal(read_byte(&b), 0);
        } while ((r = ipu_link_framer_byte(&f, b)) == IPU_LINK_FRAMER_OUTSIDE);
        while (r == IPU_LINK_FRAMER_MORE) {
            assert_int_equal(read_byte(&b), 0);
            r = ipu_link_framer_byte(&f, b);
        }
        assert_int_equal(r, IPU_LINK_FRAMER_FRAME);
        const uint8_t type = f.frame[1];
        *len = f.frame[2];
        memcpy(payload, f.frame + 3, *len);
        if (type != IPU_LINK_TYPE_IRQ)
            return type;
    }
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t reg_read(uint16_t offset)
{
    uint8_t req[2] = {(uint8_t)offset, (uint8_t)(offset >> 8)}, resp[255], len;
    send_frame(IPU_LINK_TYPE_REG_READ, req, sizeof req, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_REG_DATA);
    assert_int_equal(len, 4);
    return le32(resp);
}

static void reg_write(uint16_t offset, uint32_t value)
{
    uint8_t req[6] = {(uint8_t)offset, (uint8_t)(offset >> 8)}, resp[255], len;
    put32(req + 2, value);
    send_frame(IPU_LINK_TYPE_REG_WRITE, req, sizeof req, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_ACK);
    assert_int_equal(len, 0);
}

static int connect_client(void);

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(g_dir))
        return -1;
    snprintf(g_path, sizeof g_path, "%s/link", g_dir);
    g_sim = fork();
    if (g_sim == 0) {
        execl(IPU_BOARD_SIM, IPU_BOARD_SIM, "--socket", g_path, (char *)NULL);
        _exit(127);
    }
    return connect_client();
}

/* Connects g_fd to the simulation, waiting up to 30 s for it to listen. */
static int connect_client(void)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", g_path);
    for (int i = 0; i < 600; i++) {
        g_fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (connect(g_fd, (struct sockaddr *)&addr, sizeof addr) == 0)
            return 0;
        close(g_fd);
        g_fd = -1;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    fprintf(stderr, "ipu-board-sim did not listen on %s within 30 s\n", g_path);
    return -1;
}

/* Runs ipu-board-sim with `args` (shell words), its output in `out`; returns its exit status. */
static int run_sim(const char *args, char *out, size_t out_len)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", IPU_BOARD_SIM, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, out_len - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Issue 36: --socket FILE deleted a regular file, a second simulation took a
 * live socket's path, --cycles abc was accepted as 0. */
static void command_line_refusals(void **state)
{
    (void)state;
    char out[1024], args[256], file[128];
    snprintf(file, sizeof file, "%s/precious.txt", g_dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("keep me\n", f);
    fclose(f);
    snprintf(args, sizeof args, "--socket %s --cycles 1", file);
    assert_int_equal(run_sim(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "exists and is not a socket"));
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    assert_true(S_ISREG(st.st_mode) && st.st_size == 8);
    unlink(file);
    snprintf(args, sizeof args, "--socket %s --cycles 1", g_path); /* the group's simulation listens there */
    assert_int_equal(run_sim(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "another simulation is listening"));
    assert_int_equal(stat(g_path, &st), 0);
    assert_true(S_ISSOCK(st.st_mode));
    snprintf(args, sizeof args, "--socket %s/other --cycles abc", g_dir);
    assert_int_equal(run_sim(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "--cycles 'abc' is not a number"));
    /* The group's simulation still answers on its socket. */
    assert_int_equal(reg_read(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
}

static int group_teardown(void **state)
{
    (void)state;
    if (g_fd >= 0)
        close(g_fd);
    if (g_sim > 0) {
        kill(g_sim, SIGTERM);
        waitpid(g_sim, NULL, 0);
    }
    unlink(g_path);
    rmdir(g_dir);
    return 0;
}

static void registers_read_reset_values_and_take_writes(void **state)
{
    (void)state;
    assert_int_equal(reg_read(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
    assert_int_equal(reg_read(IPU_REG_VERSION), IPU_REG_VERSION_RESET_VALUE);
    assert_int_equal(reg_read(IPU_REG_IRQ_MASK), IPU_REG_IRQ_MASK_RESET_VALUE);
    reg_write(IPU_REG_IRQ_MASK, 0x5);
    assert_int_equal(reg_read(IPU_REG_IRQ_MASK), 0x5);
    reg_write(IPU_REG_IRQ_MASK, 0);
}

static void tile_memory_round_trips_through_the_window(void **state)
{
    (void)state;
    static const uint32_t words[] = {16, 17, 1000, 16383};
    for (unsigned i = 0; i < sizeof words / sizeof words[0]; i++) {
        uint8_t req[8], resp[255], len;
        put32(req, words[i]);
        put32(req + 4, 0xc0de0000u + words[i]);
        send_frame(IPU_LINK_TYPE_MEM_WRITE, req, 8, 0);
        assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_ACK);
    }
    for (unsigned i = 0; i < sizeof words / sizeof words[0]; i++) {
        uint8_t req[4], resp[255], len;
        put32(req, words[i]);
        send_frame(IPU_LINK_TYPE_MEM_READ, req, 4, 0);
        assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_MEM_DATA);
        assert_int_equal(len, 4);
        assert_int_equal(le32(resp), 0xc0de0000u + words[i]);
    }
}

static void bad_frames_are_refused_with_the_reason(void **state)
{
    (void)state;
    uint8_t req[8] = {0}, resp[255], len;
    send_frame(IPU_LINK_TYPE_REG_READ, req, 2, 1);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_NAK);
    assert_int_equal(len, 1);
    assert_int_equal(resp[0], IPU_LINK_NAK_CHECK);

    send_frame(0x7e, req, 2, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_NAK);
    assert_int_equal(resp[0], IPU_LINK_NAK_TYPE);

    send_frame(IPU_LINK_TYPE_REG_READ, req, 3, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_NAK);
    assert_int_equal(resp[0], IPU_LINK_NAK_LENGTH);

    /* Garbage between frames is skipped; the link still works. */
    const uint8_t noise[3] = {0x00, 0x13, 0x37};
    assert_int_equal(write(g_fd, noise, sizeof noise), 3);
    assert_int_equal(reg_read(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
}

static void expect_nak(uint8_t reason)
{
    uint8_t resp[255], len;
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_NAK);
    assert_int_equal(len, 1);
    assert_int_equal(resp[0], reason);
}

static uint32_t mem_read(uint32_t word)
{
    uint8_t req[4], resp[255], len;
    put32(req, word);
    send_frame(IPU_LINK_TYPE_MEM_READ, req, 4, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_MEM_DATA);
    return le32(resp);
}

/* Issue 36, finding 10: addresses the card does not have are refused with NAK
 * RANGE and touch nothing. The window used to wrap (a MEM_WRITE at word 0x4000
 * was ACKed and landed on word 0) and BAR0 offsets past the registers read 0
 * with writes ACKed. */
static void addresses_past_the_card_are_refused(void **state)
{
    (void)state;
    const uint32_t last = 16383; /* the window's last word: 64 KiB of tile SRAM */
    uint8_t req[255], resp[255], len;
    static const uint32_t keep[] = {0, 1, 16381, 16382, 16383};
    for (unsigned i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        put32(req, keep[i]);
        put32(req + 4, 0x5afe0000u + keep[i]);
        send_frame(IPU_LINK_TYPE_MEM_WRITE, req, 8, 0);
        assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_ACK);
    }
    static const uint32_t outside[] = {last + 1, last + 2, 0x80000000u, 0xffffffffu};
    for (unsigned i = 0; i < sizeof outside / sizeof outside[0]; i++) {
        put32(req, outside[i]);
        put32(req + 4, 0xbad0bad0u);
        send_frame(IPU_LINK_TYPE_MEM_WRITE, req, 8, 0);
        expect_nak(IPU_LINK_NAK_RANGE);
        send_frame(IPU_LINK_TYPE_MEM_READ, req, 4, 0);
        expect_nak(IPU_LINK_NAK_RANGE);
    }
    /* Blocks: the last word is in (N = 1 from the last word, 3 ending on it),
     * one more word is out. */
    put32(req, last);
    req[4] = 1;
    send_frame(IPU_LINK_TYPE_BLOCK_READ, req, 5, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_MEM_DATA);
    assert_int_equal(le32(resp), 0x5afe0000u + last);
    put32(req, last - 2);
    req[4] = 3;
    send_frame(IPU_LINK_TYPE_BLOCK_READ, req, 5, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_MEM_DATA);
    assert_int_equal(len, 12);
    put32(req, last - 1);
    req[4] = 3;
    send_frame(IPU_LINK_TYPE_BLOCK_READ, req, 5, 0);
    expect_nak(IPU_LINK_NAK_RANGE);
    put32(req, last - 1);
    for (unsigned i = 0; i < 3; i++)
        put32(req + 4 + 4 * i, 0xbad1bad1u);
    send_frame(IPU_LINK_TYPE_BLOCK_WRITE, req, 4 + 4 * 3, 0);
    expect_nak(IPU_LINK_NAK_RANGE);
    put32(req, 0xffffffffu);
    send_frame(IPU_LINK_TYPE_BLOCK_WRITE, req, 4 + 4 * 1, 0);
    expect_nak(IPU_LINK_NAK_RANGE);
    for (unsigned i = 0; i < sizeof keep / sizeof keep[0]; i++)
        assert_int_equal(mem_read(keep[i]), 0x5afe0000u + keep[i]);

    /* Registers: past the map, and not 4-aligned. */
    static const uint16_t bad_regs[] = {IPU_REGS_END, 0xfffc, IPU_REG_IRQ_MASK + 2};
    for (unsigned i = 0; i < sizeof bad_regs / sizeof bad_regs[0]; i++) {
        uint8_t r[6] = {(uint8_t)bad_regs[i], (uint8_t)(bad_regs[i] >> 8)};
        send_frame(IPU_LINK_TYPE_REG_READ, r, 2, 0);
        expect_nak(IPU_LINK_NAK_RANGE);
        put32(r + 2, 0x7);
        send_frame(IPU_LINK_TYPE_REG_WRITE, r, 6, 0);
        expect_nak(IPU_LINK_NAK_RANGE);
    }
    assert_int_equal(reg_read(IPU_REG_IRQ_MASK), IPU_REG_IRQ_MASK_RESET_VALUE);
    (void)reg_read(IPU_REGS_END - 4); /* the map's last word is answered (reg_read asserts REG_DATA) */
    assert_int_equal(reg_read(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
}

/* A client that sends half a frame and goes away (issue 36, finding 6): the
 * next client's requests are answered, not swallowed into the old frame. */
static void a_half_frame_goes_with_its_client(void **state)
{
    (void)state;
    const uint8_t half[2] = {IPU_LINK_SOF, IPU_LINK_TYPE_BLOCK_WRITE};
    assert_int_equal(write(g_fd, half, sizeof half), 2);
    close(g_fd);
    g_fd = -1;
    /* Let the simulation see the hang-up before the next client connects. */
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    assert_int_equal(connect_client(), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(reg_read(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
}

/* A client that sends forty whole requests and leaves at once (issue 36): the
 * card still answers them, and none of those answers reaches the client that
 * connects next, which asks another register and must get that one's value. */
static void answers_to_a_gone_client_go_nowhere(void **state)
{
    (void)state;
    const uint32_t mask = reg_read(IPU_REG_IRQ_MASK);
    assert_int_not_equal(mask, IPU_REG_ID_RESET_VALUE);
    uint8_t frames[40 * 6];
    size_t n = 0;
    for (int i = 0; i < 40; i++) {
        const uint8_t req[2] = {(uint8_t)IPU_REG_ID, (uint8_t)(IPU_REG_ID >> 8)};
        n += ipu_link_frame_encode(frames + n, IPU_LINK_TYPE_REG_READ, req, sizeof req);
    }
    assert_int_equal(write(g_fd, frames, n), (ssize_t)n);
    close(g_fd);
    g_fd = -1;
    assert_int_equal(connect_client(), 0);
    assert_int_equal(reg_read(IPU_REG_IRQ_MASK), mask);
    assert_int_equal(reg_read(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
}

/* Block transfers: 62 words written in one BLOCK_WRITE and read back in one
 * BLOCK_READ (streamed, one MEM_DATA of 4N bytes); a single-word block; a
 * BLOCK_WRITE whose LEN is not 4 + 4N and a BLOCK_READ of 0 or 64 words are
 * refused with NAK LENGTH and write nothing. */
static void block_transfers_round_trip(void **state)
{
    (void)state;
    uint8_t req[255], resp[255], len;
    const uint32_t base = 0x200;
    put32(req, base);
    for (unsigned i = 0; i < 62; i++)
        put32(req + 4 + 4 * i, 0xb10c0000u + i * 0x01010101u);
    send_frame(IPU_LINK_TYPE_BLOCK_WRITE, req, 4 + 4 * 62, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_ACK);
    put32(req, base);
    req[4] = 62;
    send_frame(IPU_LINK_TYPE_BLOCK_READ, req, 5, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_MEM_DATA);
    assert_int_equal(len, 4 * 62);
    for (unsigned i = 0; i < 62; i++)
        assert_int_equal(le32(resp + 4 * i), 0xb10c0000u + i * 0x01010101u);
    put32(req, base + 61);
    req[4] = 1;
    send_frame(IPU_LINK_TYPE_BLOCK_READ, req, 5, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_MEM_DATA);
    assert_int_equal(len, 4);
    assert_int_equal(le32(resp), 0xb10c0000u + 61 * 0x01010101u);

    /* A ragged block (index and 5 bytes) is taken in and refused, unwritten. */
    put32(req, base);
    memset(req + 4, 0xee, 5);
    send_frame(IPU_LINK_TYPE_BLOCK_WRITE, req, 9, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_NAK);
    assert_int_equal(resp[0], IPU_LINK_NAK_LENGTH);
    for (unsigned n = 0; n <= 64; n += 64) {
        put32(req, base);
        req[4] = (uint8_t)n;
        send_frame(IPU_LINK_TYPE_BLOCK_READ, req, 5, 0);
        assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_NAK);
        assert_int_equal(resp[0], IPU_LINK_NAK_LENGTH);
    }
    put32(req, base);
    req[4] = 1;
    send_frame(IPU_LINK_TYPE_BLOCK_READ, req, 5, 0);
    assert_int_equal(recv_frame(resp, &len), IPU_LINK_TYPE_MEM_DATA);
    assert_int_equal(le32(resp), 0xb10c0000u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registers_read_reset_values_and_take_writes),
        cmocka_unit_test(tile_memory_round_trips_through_the_window),
        cmocka_unit_test(bad_frames_are_refused_with_the_reason),
        cmocka_unit_test(block_transfers_round_trip),
        cmocka_unit_test(addresses_past_the_card_are_refused),
        cmocka_unit_test(a_half_frame_goes_with_its_client),
        cmocka_unit_test(answers_to_a_gone_client_go_nowhere),
        cmocka_unit_test(command_line_refusals),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
