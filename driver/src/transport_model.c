/* The `model` transport: the functional card model (qemu-device/core) in this
 * process through the device backend interface; the shared part is in
 * transport_backend.c. */
#include <errno.h>
#include <stdio.h>

#include "internal.h"
#include "transport_backend.h"

#if IPUDRV_HAVE_MODEL
#include "ipu_model/model.h"
#endif

static int model_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                      char *err, size_t err_len)
{
    (void)node;
#if IPUDRV_HAVE_MODEL
    return ipudrv_backend_open(&ipudrv_transport_model, "card model", ipu_model_create, board, out, err, err_len);
#else
    (void)board;
    (void)out;
    snprintf(err, err_len, "this libipudrv was built without the card model (ipu_model); rebuild with it");
    return -ENOTSUP;
#endif
}

const struct ipudrv_transport_ops ipudrv_transport_model = IPUDRV_BACKEND_TRANSPORT_OPS("model", model_open);
