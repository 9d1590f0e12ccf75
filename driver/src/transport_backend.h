/* The shared half of the in-process transports (`model`, `rtl`): a card
 * simulated inside this process behind the device backend interface
 * (ipu_card/backend.h), made by the registry of embodiments
 * (ipu_backends/registry.h) that QEMU uses too. Only the registry entry differs
 * between them, so everything else (register and window access, host memory
 * with an emulated IOMMU, letting time pass and DMA chains move) lives here once. */
#ifndef IPUDRV_TRANSPORT_BACKEND_H
#define IPUDRV_TRANSPORT_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_card/backend.h"
#include "transport.h"

/* Creates the card of registry entry `embodiment` ("model", "rtl",
 * "lockstep") for `board` and wraps it as a transport whose operations are
 * `ops` (which must use the ipudrv_backend_* functions below). The card's
 * options (host threads, trace) are the node's, which come from the open
 * parameters. On failure returns the registry's code and its message (problem
 * and fix) in err. */
int ipudrv_backend_open(const struct ipudrv_transport_ops *ops, const char *embodiment,
                        const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                        char *err, size_t err_len);

/* The card behind a transport opened with ipudrv_backend_open. */
struct ipu_backend *ipudrv_backend_card(struct ipudrv_transport *t);

/* The operations of struct ipudrv_transport_ops for a backend card. */
void ipudrv_backend_close(struct ipudrv_transport *t);
int ipudrv_backend_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value);
int ipudrv_backend_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value);
int ipudrv_backend_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len);
int ipudrv_backend_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len);
int ipudrv_backend_mem_alloc(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus);
void ipudrv_backend_mem_free(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus);
int ipudrv_backend_progress(struct ipudrv_transport *t, int max_ms);

/* The operations table of a backend transport named `name_` opened by `open_`. */
#define IPUDRV_BACKEND_TRANSPORT_OPS(name_, open_)                                                              \
    {                                                                                                           \
        .name = (name_), .open = (open_), .close = ipudrv_backend_close, .reg_read = ipudrv_backend_reg_read,   \
        .reg_write = ipudrv_backend_reg_write, .window_read = ipudrv_backend_window_read,                      \
        .window_write = ipudrv_backend_window_write, .mem_alloc = ipudrv_backend_mem_alloc,                    \
        .mem_free = ipudrv_backend_mem_free, .progress = ipudrv_backend_progress,                              \
    }

#endif
