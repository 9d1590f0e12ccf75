/* libipudrv: the userspace driver of the ipu-emu card (public C11 API).
 *
 * One opaque handle per attached card. Every function returns 0 or a negative
 * errno-style code (-EINVAL, -EBUSY, ...) unless documented otherwise; after a
 * failure, ipudrv_last_error(dev) (or ipudrv_last_error(NULL) for calls without
 * a handle) gives a one-line message naming the problem and the fix.
 *
 * A dead card: any call that talks to an attached card may return -ENOLINK,
 * "the card stopped answering over its transport" (a link request past its
 * deadline, or a link the recovery sequence of contract/card.toml [link] could
 * not bring back in step). The handle is then dead: every later call fails the
 * same way, a reset cannot help; close it and open the card again. -ENODEV on
 * an attached card is the other final code (the card went away). -EIO stays a
 * card that answered with an error (a DMA failure, a card in ERROR).
 *
 * Device ids: simulated cards named by $IPU_EMU_DEVICES come first ("tiny,ipu2"
 * or "model:tiny,model:ipu2"; default "ipu2,ipu2x2,ipu2x4,ipu2x8,ipu2x16", the
 * Mk2 shapes of the SDK's devices), numbered 0..n-1 in that order,
 * then PCI cards (1234:11e9, vfio transport) in sysfs order. ipudrv_open_with
 * opens a card from parameters instead (no environment, in-memory boards).
 *
 * Sharing: simulated cards (model, rtl) are private to the handle that
 * created them; shared cards (vfio) are attached exclusively, machine-wide.
 *
 * Addresses: "tile addresses" are tile-local (SRAM starts at
 * IPU_TILE_SRAM_BASE); "device addresses" are the 32-bit addresses the card
 * uses for host memory, translated by its translation table (see ipudrv_map).
 *
 * Threading: calls on one handle are serialised by the library; a handle may be
 * shared between threads (e.g. a stream thread releasing host syncs while the
 * main thread waits). */
#ifndef IPUDRV_IPUDRV_H
#define IPUDRV_IPUDRV_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_board.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPUDRV_VERSION_MAJOR 0
#define IPUDRV_VERSION_MINOR 1
#define IPUDRV_VERSION_PATCH 0
#define IPUDRV_VERSION_STRING "0.1.0"

#define IPUDRV_NAME_MAX 32
#define IPUDRV_LOCATION_MAX 288
#define IPUDRV_BOARD_SPEC_MAX 256 /* a board name or path in $IPU_EMU_DEVICES */
#define IPUDRV_CONTEXTS_MAX 7 /* supervisor + up to 6 workers (IPU_TILE_CONTEXTS_MAX) */

/* An attached card (opaque). */
typedef struct ipudrv_device ipudrv_device;
/* A DMA buffer: host memory the card can reach once mapped (opaque). */
typedef struct ipudrv_buffer ipudrv_buffer;

/* ---- library ------------------------------------------------------------ */

/* The library version, IPUDRV_VERSION_STRING. Never NULL. */
const char *ipudrv_version(void);

/* A short description of a (negative or positive) error code in this
 * library's terms, e.g. -EBUSY -> "device in use by another process". Never NULL. */
const char *ipudrv_strerror(int code);

/* The last error message of `dev`, or with dev == NULL of the calling thread's
 * last failing call (open, enumerate, ...). "" when there was none. The string
 * stays valid until the next failing call on the same handle/thread. */
const char *ipudrv_last_error(const ipudrv_device *dev);

/* ---- discovery ---------------------------------------------------------- */

/* A card as seen without attaching to it. */
struct ipudrv_device_desc {
    unsigned id;                           /* stable device id (see above) */
    char transport[IPUDRV_NAME_MAX];       /* "model", "vfio", "rtl", ... */
    char board[IPUDRV_NAME_MAX];           /* board name; "" when only known once attached */
    char location[IPUDRV_LOCATION_MAX];    /* "model:tiny" or a PCI slot "0000:00:04.0" */
    int available;                         /* 1 if this build has the transport */
    int holder_pid;                        /* shared cards: PID of the process attached to it,
                                              0 if free, -1 if held by a process not yet
                                              identified; always 0 for simulated cards */
    char holder_command[IPUDRV_NAME_MAX];  /* that process's command name, "" if free */
};

/* Counts the cards. Returns 0 and sets *count (may be 0), or -EINVAL
 * (NULL count, malformed $IPU_EMU_DEVICES: the message names the entry). */
int ipudrv_device_count(unsigned *count);

/* Describes card `id` without attaching. Returns 0, -ENODEV (no such id),
 * -EINVAL (NULL out, malformed $IPU_EMU_DEVICES). */
int ipudrv_describe(unsigned id, struct ipudrv_device_desc *out);

/* ---- attach ------------------------------------------------------------- */

/* Attaches to card `id` of the discovery list and sets *out: discovery turns
 * the id into open parameters (transport, board, PCI slot, and
 * $IPU_EMU_HOST_THREADS / $IPU_EMU_TRACE) and the card is opened exactly as by
 * ipudrv_open_with. `flags` must be 0. A model card is created fresh (reset
 * state); a PCI card keeps its state (tile status stays readable after a
 * crashed run) but its translation table is cleared. Returns 0, -ENODEV (no
 * such id), -EBUSY (a shared card that another handle or process holds: the
 * message names the PID and command), -ENOTSUP (transport not built in),
 * -EACCES (no permission on the lock or VFIO files), -ENOENT (board file
 * missing), -EIO (the card does not answer), -EINVAL (NULL out, bad flags),
 * -ENOMEM. */
int ipudrv_open(unsigned id, unsigned flags, ipudrv_device **out);

/* What to do when a shared card is held by another handle or process.
 * Simulated cards (model, rtl) live inside the calling process: they are
 * private to it, take no lock, and any number of them may be open at once. */
#define IPUDRV_LOCK_TRY 0u  /* fail with -EBUSY at once (the default) */
#define IPUDRV_LOCK_WAIT 1u /* block until the holder closes the card */

/* The largest ipudrv_open_params.host_threads. */
#define IPUDRV_HOST_THREADS_MAX 1024u

/* The id that ipudrv_get_info reports for a card opened by ipudrv_open_with:
 * such a card is not one of the discovery list. */
#define IPUDRV_ID_NONE 0xffffffffu

/* Everything that names and configures one card, for ipudrv_open_with. Zero
 * (or NULL) fields take their defaults, so callers write
 *   struct ipudrv_open_params p = {.size = sizeof p, .board = "tiny"};
 * The library reads the struct and the strings only during the call. */
struct ipudrv_open_params {
    size_t size;                          /* sizeof(struct ipudrv_open_params) as the caller
                                             was compiled: lets later versions add fields */
    const char *transport;                /* "model", "rtl" (simulated, in this process) or
                                             "vfio" (a PCI card); NULL: the board's own
                                             `transport` key ("model" for most boards) */
    const char *board;                    /* simulated cards: a board name ("tiny") or the
                                             path of a board file; NULL with board_values */
    const struct ipu_board *board_values; /* simulated cards: the board in memory (no file
                                             is read or written); NULL with board */
    const char *location;                 /* shared cards: what identifies the card, the PCI
                                             slot "0000:00:04.0" for vfio; NULL otherwise */
    unsigned lock_policy;                 /* IPUDRV_LOCK_TRY or IPUDRV_LOCK_WAIT */
    unsigned host_threads;                /* simulated cards: host threads stepping tiles,
                                             0 = one per core */
    int trace;                            /* simulated cards: 1 prints a per-instruction
                                             trace to stderr, 0 does not */
};

/* The smallest `size` ipudrv_open_with accepts: the first version of the struct. */
#define IPUDRV_OPEN_PARAMS_SIZE_V1 (offsetof(struct ipudrv_open_params, trace) + sizeof(int))

/* Opens the card that `params` describe and sets *out, without reading the
 * environment for what the parameters say (the lock directory,
 * $IPU_EMU_LOCK_DIR, and $IPU_EMU_PCI_ROOT still apply to shared cards). A
 * simulated card is created fresh and belongs to this handle alone; a shared
 * card (vfio) is attached exclusively, keyed by its location: a second open
 * of the same location, from this or another process, gets -EBUSY (or waits,
 * with IPUDRV_LOCK_WAIT). Every field is checked first; returns 0, -EINVAL
 * (NULL params or out, size smaller than IPUDRV_OPEN_PARAMS_SIZE_V1, both or
 * neither of board and board_values for a simulated card, a board or location
 * where the transport takes none, bad lock_policy, trace not 0 or 1,
 * host_threads above IPUDRV_HOST_THREADS_MAX, board_values that no card can have), -ENOTSUP
 * (unknown transport, or a larger size whose extra bytes are not zero: fields
 * this library does not know), and otherwise as ipudrv_open. */
int ipudrv_open_with(const struct ipudrv_open_params *params, ipudrv_device **out);

/* Detaches and frees every DMA buffer and mapping of the handle. Returns 0,
 * or -EBADF when `dev` is NULL, already closed or was never returned by
 * ipudrv_open (detected without touching freed memory). */
int ipudrv_close(ipudrv_device *dev);

/* Every function below returns -EBADF for a NULL, closed or unknown handle. */

/* ---- attributes ---------------------------------------------------------- */

/* ipudrv_info.flags: how the driver reaches the card (the transport's
 * properties, not the card's registers; CAPS has those). */
/* Bulk tile-memory transfers are fastest through the BAR2 window, one tile at
 * a time: set for cards behind the host link (socket, usb), where each DMA word
 * is a round trip on the link. Clear where the DMA engine pays (model, rtl,
 * vfio): a loader then broadcasts by DMA. */
#define IPUDRV_INFO_WINDOW_PREFERRED (1u << 0)

struct ipudrv_info {
    unsigned id;
    char transport[IPUDRV_NAME_MAX];
    char location[IPUDRV_LOCATION_MAX];      /* PCI slot or "model:<board>" */
    struct ipu_board board;                  /* every board value (Target attributes) */
    uint32_t num_tiles;                      /* NUM_TILES register */
    uint32_t tile_mem_bytes;                 /* TILE_MEM_BYTES register */
    uint32_t num_workers;                    /* NUM_WORKERS register */
    uint32_t caps;                           /* CAPS register (IPU_REG_CAPS_*_MASK; HOST_SERVICE: the
                                                driver services the tiles' host exchanges and exchanges) */
    uint32_t tile_clock_khz;                 /* TILE_CLOCK_KHZ register */
    uint32_t xlat_entries;                   /* XLAT_ENTRIES register */
    uint32_t xlat_used;                      /* translation entries mapped by this handle */
    char driver_version[IPUDRV_NAME_MAX];    /* IPUDRV_VERSION_STRING */
    char firmware_version[IPUDRV_NAME_MAX];  /* the card's contract version, "1.0" */
    uint32_t state;                          /* STATUS.STATE, an IPU_CARD_STATE_* value */
    uint32_t error_count;                    /* ERR_COUNT: error records waiting */
    uint32_t errors_lost;                    /* ERR_LOST */
    uint32_t console_lost;                   /* CONSOLE_LOST */
    uint64_t dma_bytes;                      /* DMA_BYTES since reset */
    uint64_t card_cycles;                    /* CARD_CYCLES of the current or last run */
    uint32_t flags;                          /* IPUDRV_INFO_* bits */
};

/* Fills *out. Returns 0, -EBADF, -EINVAL (NULL out), -EIO (card gone). */
int ipudrv_get_info(ipudrv_device *dev, struct ipudrv_info *out);

/* Names of contract enumerations; "UNKNOWN" for values out of range. Never NULL. */
const char *ipudrv_card_state_name(uint32_t state); /* IPU_CARD_STATE_* -> "IDLE" ... */
const char *ipudrv_tile_state_name(uint32_t state); /* IPU_TILE_STATE_* -> "OFF" ... */
const char *ipudrv_ctx_state_name(uint32_t state);  /* IPU_CTX_STATE_*  -> "IDLE" ... */
const char *ipudrv_err_name(uint32_t cause);        /* IPU_ERR_* -> "XLAT_PERMISSION" ... */

/* ---- reset and registers ------------------------------------------------- */

/* Resets the card (tiles stop, tile memory, error records, console, DMA and
 * interrupts clear) and then re-installs this handle's translation entries,
 * so device addresses returned by ipudrv_map stay valid. DMA buffers are kept.
 * Returns 0, -EBADF, -EIO (the card did not come back IDLE). */
int ipudrv_reset(ipudrv_device *dev);

/* 32-bit access to BAR0 at `offset` (an IPU_REG_* value). Returns 0, -EBADF,
 * -EINVAL (offset not 4-byte aligned or beyond BAR0, NULL value), -EIO.
 * On a CAPS.HOST_SERVICE card (no DMA engine or exchange unit: the driver does
 * their work) a read of STATUS first services the tile requests the card shows
 * (STATUS.SVC_PENDING, SVC_REQ) and returns STATUS as it is after them, so a
 * loop that polls STATUS lets the card make progress, as every wait of this
 * library does; it may then fail as the service's transport calls do
 * (-EIO, -ENODEV). Writes of RESET and RUN_CTRL.START/HALT drop the exchange
 * sends such a card's tiles asked for and that have not landed, and XLAT
 * writes are remembered for the service's translation; other cards see only
 * the register access. */
int ipudrv_reg_read(ipudrv_device *dev, uint32_t offset, uint32_t *value);
int ipudrv_reg_write(ipudrv_device *dev, uint32_t offset, uint32_t value);

/* ---- tile memory ---------------------------------------------------------- */

/* Copies `len` bytes between the caller's memory and tile `tile` at tile
 * address `tile_addr`. Small transfers go through the BAR2 window, bulk ones
 * through the DMA engine (the library's own staging buffer and a temporary
 * translation entry; without a free entry it falls back to the window).
 * The tiles must not be running; while they wait in a host sync only the
 * window is used. Returns 0, -EBADF, -EINVAL (tile out of
 * range, range not inside tile SRAM, NULL data with len > 0), -EBUSY (tiles
 * running), -EIO (DMA failed: see the error records), -ENOMEM. */
int ipudrv_tile_write(ipudrv_device *dev, unsigned tile, uint32_t tile_addr, const void *data, size_t len);
int ipudrv_tile_read(ipudrv_device *dev, unsigned tile, uint32_t tile_addr, void *data, size_t len);

/* Writes the same `len` bytes to tiles first_tile..first_tile+tile_count-1 at
 * `tile_addr`, sending the data once (DMA descriptors with TILE_COUNT > 1).
 * Returns as ipudrv_tile_write. */
int ipudrv_tile_broadcast(ipudrv_device *dev, unsigned first_tile, unsigned tile_count, uint32_t tile_addr,
                          const void *data, size_t len);

/* ---- DMA buffers and the translation table ------------------------------- */

/* Allocates a zeroed DMA buffer of `size` bytes (rounded up to 4 KiB) that
 * the card can reach (IOMMU-mapped for vfio). Returns 0 and sets *out, or
 * -EBADF, -EINVAL (size 0, NULL out), -ENOMEM. */
int ipudrv_buffer_alloc(ipudrv_device *dev, size_t size, ipudrv_buffer **out);

/* Unmaps every translation entry that points into `buf` and frees it.
 * Returns 0, -EBADF, -EINVAL (buf not a live buffer of dev). */
int ipudrv_buffer_free(ipudrv_device *dev, ipudrv_buffer *buf);

/* The buffer's host pointer and size (rounded up to 4 KiB). buf must be live. */
void *ipudrv_buffer_ptr(const ipudrv_buffer *buf);
size_t ipudrv_buffer_size(const ipudrv_buffer *buf);

#define IPUDRV_MAP_READ 1u  /* the card may read the buffer (host to device) */
#define IPUDRV_MAP_WRITE 2u /* the card may write the buffer (device to host) */
#define IPUDRV_PAGE_SIZE 4096u
#define IPUDRV_MAP_MAX_BYTES (128u * 1024u * 1024u) /* one translation entry */
#define IPUDRV_MAP_ANY 0u   /* dev_addr value: let the library choose */

/* Maps bytes [offset, offset+length) of `buf` into one translation-table
 * entry with permissions `perms` (IPUDRV_MAP_READ | IPUDRV_MAP_WRITE).
 * `dev_addr` is the device address wanted, or IPUDRV_MAP_ANY. Sets
 * *out_dev_addr (may be NULL) to the device address of byte `offset`.
 * offset and dev_addr must be 4 KiB aligned; length is rounded up to 4 KiB.
 * Device addresses never include page 0, so 0 is never a valid DMA address.
 * Returns 0, -EBADF, -EINVAL (unaligned, zero length, range outside buf, no or
 * unknown perms, buf not live, range passes 4 GiB), -E2BIG (more than 128 MiB:
 * split it), -EEXIST (overlaps another entry's device range), -ENOSPC (all 64
 * entries in use, or no free device range). */
int ipudrv_map(ipudrv_device *dev, ipudrv_buffer *buf, size_t offset, size_t length, unsigned perms,
               uint32_t dev_addr, uint32_t *out_dev_addr);

/* Removes the entry that starts at `dev_addr`. Returns 0, -EBADF, -ENOENT
 * (no entry starts there). */
int ipudrv_unmap(ipudrv_device *dev, uint32_t dev_addr);

/* One DMA descriptor as the caller sees it. */
struct ipudrv_dma_xfer {
    uint32_t dev_addr;    /* device address of the host-side bytes (from ipudrv_map) */
    uint32_t tile_addr;   /* tile address */
    uint32_t length;      /* 1 .. tile SRAM size */
    uint16_t first_tile;
    uint16_t tile_count;  /* 0 or 1: one tile; > 1: broadcast (to tiles only) */
    uint32_t to_host;     /* 1: tile to host; 0: host to tile */
};

/* Runs `count` transfers (1..65536) as one descriptor chain on the card's DMA
 * engine and waits for it. The card validates the descriptors and translates
 * the device addresses; faults come back as error records. Needs one free
 * translation entry for the chain itself. A transfer whose first byte lies in
 * a mapping must end inside that mapping (mappings sit next to each other in
 * device space; running on would reach the next one). Returns 0, -EBADF,
 * -EINVAL (NULL, count out of range, or a transfer that runs past the end of
 * its mapping: the message names the transfer, the buffer, the mapping's
 * offset in it and its size), -EBUSY (tiles running), -ENOSPC (no free entry for the
 * chain), -EFAULT (the card refused an address: unmapped, wrong permission, or
 * the IOMMU refused the bus address; the error record stays queued and the
 * message names it), -EIO (bad descriptor), -ETIMEDOUT. */
int ipudrv_dma_run(ipudrv_device *dev, const struct ipudrv_dma_xfer *xfers, size_t count);

/* ---- run control --------------------------------------------------------- */

/* Sets tile `tile`'s supervisor entry PC, boot argument (a0) and whether it
 * takes part in the next run. Returns 0, -EBADF, -EINVAL (tile out of range),
 * -EBUSY (tiles running). */
int ipudrv_tile_setup(ipudrv_device *dev, unsigned tile, uint32_t entry, uint32_t boot_arg, int enable);

/* Sets the card's per-tile instruction budget (WATCHDOG_INSNS, in units of
 * 1024 instructions; 0 disables). Returns 0, -EBADF. */
int ipudrv_set_watchdog(ipudrv_device *dev, uint32_t kilo_insns);

/* Starts every enabled tile. Returns 0, -EBADF, -EBUSY (already running or
 * waiting for the host), -EIO (card in ERROR: reset first). */
int ipudrv_start(ipudrv_device *dev);

/* Stops all tiles where they are (state stays readable). Returns 0, -EBADF. */
int ipudrv_halt(ipudrv_device *dev);

enum ipudrv_event_kind {
    IPUDRV_EVENT_NONE = 0,
    IPUDRV_EVENT_HOST_SYNC = 1, /* all running tiles wait in an external sync; see sync_id */
    IPUDRV_EVENT_DONE = 2,      /* every enabled tile exited */
    IPUDRV_EVENT_ERROR = 3,     /* a tile or the DMA engine faulted; read the error records */
    IPUDRV_EVENT_TIMEOUT = 4,   /* the wait timed out (the call returns -ETIMEDOUT) */
    IPUDRV_EVENT_IDLE = 5       /* nothing runs (never started, or halted) */
};

struct ipudrv_event {
    enum ipudrv_event_kind kind;
    uint32_t sync_id;      /* HSYNC_ID for IPUDRV_EVENT_HOST_SYNC */
    uint64_t card_cycles;  /* CARD_CYCLES when the event was seen */
};

/* Waits up to `timeout_ms` (< 0: forever) of wall-clock time for the card to
 * stop running, letting simulated time pass on in-process transports.
 * Level-triggered: a pending host sync is reported again until released.
 * Returns 0 with *ev set (HOST_SYNC, DONE, ERROR or IDLE), or -ETIMEDOUT with
 * ev->kind = IPUDRV_EVENT_TIMEOUT; then ipudrv_last_error(dev) is the
 * watchdog report: the timeout, then every tile's state and per-context
 * state and PC, and for each running tile the contexts still issuing
 * instructions ("stuck: c2 (worker 2) running at pc ..."; a supervisor
 * waiting in a join reads BLOCKED). Also -EBADF, -EINVAL (NULL ev), -EIO. */
int ipudrv_wait(ipudrv_device *dev, int timeout_ms, struct ipudrv_event *ev);

/* Releases the pending host sync. Returns 0, -EBADF, -EAGAIN (no host sync
 * is pending). */
int ipudrv_host_sync_release(ipudrv_device *dev);

/* ---- console, errors, status --------------------------------------------- */

struct ipudrv_console_byte {
    uint16_t tile;
    uint8_t byte;
};

/* Pops up to `max` console bytes into out[] and sets *count. Returns 0, -EBADF,
 * -EINVAL (NULL out with max > 0, NULL count). */
int ipudrv_console_read(ipudrv_device *dev, struct ipudrv_console_byte *out, size_t max, size_t *count);

struct ipudrv_error_record {
    uint32_t cause;   /* an IPU_ERR_* value */
    uint32_t tile;    /* 0xffffffff for the DMA engine */
    uint32_t context; /* 0 supervisor, 1..N workers */
    uint32_t pc;
    uint32_t addr;
    uint32_t info;
};

/* Pops up to `max` error records (oldest first) and sets *count. Returns 0,
 * -EBADF, -EINVAL as ipudrv_console_read. */
int ipudrv_error_read(ipudrv_device *dev, struct ipudrv_error_record *out, size_t max, size_t *count);

/* Formats one error record as a one-line message with the likely fix into
 * buf. Returns the length that was needed (like snprintf), or -EINVAL. */
int ipudrv_error_format(const struct ipudrv_error_record *rec, char *buf, size_t len);

struct ipudrv_context_status {
    uint32_t state;   /* IPU_CTX_STATE_* */
    uint32_t pc;
    uint32_t instret; /* low word of instructions retired in the current/last run */
};

struct ipudrv_tile_status {
    uint32_t tile;
    uint32_t state;      /* IPU_TILE_STATE_* */
    uint32_t exit_code;
    uint32_t err_cause;  /* IPU_ERR_* */
    uint32_t err_pc;
    uint32_t err_addr;
    uint64_t cycles;
    uint32_t num_contexts; /* 1 + NUM_WORKERS */
    struct ipudrv_context_status ctx[IPUDRV_CONTEXTS_MAX];
};

/* Reads tile `tile`'s status. Returns 0, -EBADF, -EINVAL (tile out of range,
 * NULL out), -EIO. */
int ipudrv_tile_status(ipudrv_device *dev, unsigned tile, struct ipudrv_tile_status *out);

/* Writes the watchdog report (card state and cycles, then one line per tile
 * with every context's state and PC, the stuck contexts of running tiles and
 * the fault of faulted ones, an unknown cause with its raw value) into buf
 * (NUL-terminated, truncated to len). Returns the length needed, or -EBADF,
 * -EINVAL, -ENOMEM. */
int ipudrv_watchdog_report(ipudrv_device *dev, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* IPUDRV_IPUDRV_H */
