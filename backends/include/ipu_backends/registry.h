/* The registry of card embodiments: one place where every host of a card (the
 * QEMU device, the driver's in-process transports, the tests) turns a name
 * into a card behind the device backend interface (ipu_card/backend.h), so
 * that no host chooses constructors on its own.
 *
 * Entries: "model" (the functional model, model/), "rtl" (the
 * Verilated RTL card, rtl/sim), "lockstep" (the RTL with the model beside it,
 * compared instruction by instruction: backends/lockstep). An entry whose
 * embodiment is not in this build is still listed; its create() says how to
 * get it. Implemented in backends/registry.cpp (library ipu_backends). */
#ifndef IPU_CARD_REGISTRY_H
#define IPU_CARD_REGISTRY_H

#include <stddef.h>

#include "ipu_card/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipu_board;

struct ipu_backend_factory {
    const char *name;    /* "model", "rtl", "lockstep" */
    const char *summary; /* one line for help texts */
    int available;       /* 0 when this build lacks the embodiment (create() then explains) */
    /* Creates a card for `board` on the bus `host` (both copied); `options`
     * may be NULL. Returns 0 and sets *out, or a negative code and a message
     * in err (err_len bytes) naming the problem and the fix: -EINVAL (the
     * board does not fit this embodiment), -ENOTSUP (not in this build),
     * -ENOMEM. Free the card with (*out)->ops->destroy(*out). */
    int (*create)(const struct ipu_board *board, const struct ipu_backend_host *host,
                  const struct ipu_backend_options *options, struct ipu_backend **out, char *err, size_t err_len);
};

/* Creates a card with `factory` as its create() does, and when
 * options->record_path names a file, records the card's session there
 * (ipu_backends/record.h): the one way hosts make cards, so that none of them
 * needs to know about the recorder. Returns as create(). */
int ipu_backend_create(const struct ipu_backend_factory *factory, const struct ipu_board *board,
                       const struct ipu_backend_host *host, const struct ipu_backend_options *options,
                       struct ipu_backend **out, char *err, size_t err_len);

/* The entry named `name`, or NULL for an unknown name. */
const struct ipu_backend_factory *ipu_backend_find(const char *name);

/* The entries, in a fixed order, terminated by NULL (for listings). */
const struct ipu_backend_factory *const *ipu_backend_factories(void);

/* The embodiment a board asks for: its `transport` key when that names an
 * entry ("rtl" for rtl-tiny), otherwise "model". */
const char *ipu_backend_default_for(const struct ipu_board *board);

#ifdef __cplusplus
}
#endif
#endif /* IPU_CARD_REGISTRY_H */
