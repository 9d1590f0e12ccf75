/* The host link protocol (contract/card.toml [link], LINK_TYPE, LINK_NAK) over
 * any byte stream: framing, checksums, request/response, IRQ frames, and the
 * register and tile-window operations every link transport needs. The socket
 * transport (ipu-board-sim on a Unix socket) and the usb transport (an FTDI
 * UART over libusb) differ only in how bytes move: their `ipudrv_link_port`.
 * The card's DMA engine reaches host memory through the link too: it asks with
 * DMA_REQ, the host answers with DMA_DATA from the blocks of ipudrv_link_mem_alloc. */
#ifndef IPUDRV_LINK_H
#define IPUDRV_LINK_H

#include <stddef.h>
#include <stdint.h>

/* How bytes move. Both calls return negative errno codes on failure; a gone
 * peer (closed socket, unplugged cable) is -ENODEV so that callers can say so. */
struct ipudrv_link_port {
    /* Writes all `len` bytes: 0 or a negative code. */
    int (*write)(void *ctx, const uint8_t *buf, size_t len);
    /* Reads 1..cap bytes waiting at most timeout_ms: the count, -ETIMEDOUT, or a negative code. */
    int (*read)(void *ctx, uint8_t *buf, size_t cap, int timeout_ms);
    void *ctx;
};

/* Host memory the card reaches through DMA_REQ: one block per mem_alloc. */
struct ipudrv_link_mem {
    struct ipudrv_link_mem *next;
    uint8_t *va;
    size_t size;
    uint64_t bus;
};

struct ipudrv_link {
    struct ipudrv_link_port port;
    /* How long one request may take in all (sending, the card's IRQ and DMA_REQ
     * frames meanwhile, its answer), in ms: a total deadline, not per byte. */
    int timeout_ms;
    /* When the current request's time is up (CLOCK_MONOTONIC, ms). */
    int64_t deadline_ms;
    /* The deadline whose last look has been taken: once a deadline has passed, the
     * bytes already waiting are read once more (see read_byte in link.c). */
    int64_t looked_late_ms;
    /* Set during ipudrv_link_wait: a frame that starts gets one timeout to finish. */
    int in_wait;
    /* Bytes read from the port and not yet consumed. */
    uint8_t rx[512];
    size_t rx_pos, rx_len;
    /* Cleared when the card answers BLOCK_READ/BLOCK_WRITE with NAK TYPE: the
     * link then moves tile memory one word per frame. */
    int blocks_ok;
    /* Host memory for the card's DMA engine, and the next bus address to give out. */
    struct ipudrv_link_mem *mem;
    uint64_t next_bus;
    /* DMA_DATA frames sent whose ACK has not come yet. */
    unsigned acks_owed;
    /* 0, or why the link is dead: -ENODEV (the peer went away: a pulled cable, a
     * stopped simulation) or -EIO (a request failed, got no answer within
     * timeout_ms or a malformed one, and the recovery sequence of the contract
     * could not bring the link back in step, so a late answer could be taken
     * for the next one's). Every later call returns it
     * at once: one failure bounded by the timeout, never a string of them. */
    int dead;
};

/* The link timeout, one request's total deadline in ms: IPU_EMU_LINK_TIMEOUT_MS
 * when set (100 to 600000; a soak through a fault-injecting proxy shortens it so
 * that a lost answer costs a second, not ten), else `default_ms`. A bad value is
 * -EINVAL with a message in err. */
int ipudrv_link_timeout(int default_ms, int *timeout_ms, char *err, size_t err_len);

/* Starts a link on `port` (no bytes are exchanged). */
void ipudrv_link_init(struct ipudrv_link *link, const struct ipudrv_link_port *port, int timeout_ms);

/* BAR0 register access: 0 or a negative code (-EPROTO for a malformed or
 * unexpected answer, after which the link has been resynchronised, -EREMOTEIO for a NAK, -EIO for a card that did not answer
 * within timeout_ms, -ENODEV for a gone peer; the last two are final, see
 * `dead`). A write of RESET with the key returns once the tiles have cleared
 * their SRAM. */
int ipudrv_link_reg_read(struct ipudrv_link *link, uint32_t offset, uint32_t *value);
int ipudrv_link_reg_write(struct ipudrv_link *link, uint32_t offset, uint32_t value);

/* The window tile's SRAM at byte `offset`: block frames where the card has
 * them, whole words otherwise; partial words are read, merged and written. */
int ipudrv_link_window_read(struct ipudrv_link *link, uint32_t offset, void *buf, size_t len);
int ipudrv_link_window_write(struct ipudrv_link *link, uint32_t offset, const void *buf, size_t len);

/* Host memory for the card: page-aligned, zeroed, at a bus address of its own
 * (above 4 GiB, so that a card truncating addresses misses). The card reads and
 * writes it through DMA_REQ frames, which every call above serves. */
int ipudrv_link_mem_alloc(struct ipudrv_link *link, size_t size, void **va, uint64_t *bus);
void ipudrv_link_mem_free(struct ipudrv_link *link, void *va);
/* Frees what is left (the transport is closing). */
void ipudrv_link_release(struct ipudrv_link *link);

/* Waits up to max_ms for the card to send anything (an IRQ frame): 0 after a
 * frame or the time, a negative code when the link is gone. */
int ipudrv_link_wait(struct ipudrv_link *link, int max_ms);

#endif
