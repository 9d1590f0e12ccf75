/* The `rtl` transport: the Verilator RTL tile array (rtl/sim) in this process,
 * made by the registry's "rtl" entry, exactly as the `model` transport makes
 * the functional model (the shared part is in transport_backend.c).
 * IPU_EMU_RTL_LOCKSTEP=1 takes the registry's "lockstep" entry instead: the
 * functional model beside the RTL, both stopped at the first instruction where
 * they diverge (backends/lockstep). Without Verilator at configure time the
 * transport is still listed, and opening it says how to get it (the registry's
 * message). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "transport_backend.h"

static int rtl_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                    char *err, size_t err_len)
{
    if (!board) {
        snprintf(err, err_len, "the rtl transport needs a board; name one, e.g. IPU_EMU_DEVICES=rtl:rtl-tiny");
        return -EINVAL;
    }
    const char *lockstep = getenv("IPU_EMU_RTL_LOCKSTEP");
    int ls = lockstep && *lockstep && strcmp(lockstep, "0") != 0;
    return ipudrv_backend_open(&ipudrv_transport_rtl, ls ? "lockstep" : "rtl", node, board, out, err, err_len);
}

const struct ipudrv_transport_ops ipudrv_transport_rtl = IPUDRV_BACKEND_TRANSPORT_OPS("rtl", rtl_open);
