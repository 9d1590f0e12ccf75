/* The `model` transport: the functional card model (model/) in this
 * process, made by the registry's "model" entry; the shared part is in
 * transport_backend.c. */
#include "internal.h"
#include "transport_backend.h"

static int model_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                      char *err, size_t err_len)
{
    return ipudrv_backend_open(&ipudrv_transport_model, "model", node, board, out, err, err_len);
}

const struct ipudrv_transport_ops ipudrv_transport_model = IPUDRV_BACKEND_TRANSPORT_OPS("model", model_open);
