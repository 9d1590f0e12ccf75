/* The `rtl` transport: the Verilator RTL tile array (rtl/sim) in this process
 * through the device backend interface, exactly as the `model` transport
 * drives the functional model (the shared part is in transport_backend.c).
 * IPU_EMU_RTL_LOCKSTEP=1 runs the functional model beside the RTL and stops
 * both at the first instruction where they diverge (ipu_rtl_lockstep_create).
 * Without Verilator at configure time the transport is still listed, and
 * opening it says how to get it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "transport_backend.h"

#if IPUDRV_HAVE_RTL
#include "ipu_rtl/rtl.h"
#endif

static int rtl_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                    char *err, size_t err_len)
{
    (void)node;
    if (!board) {
        snprintf(err, err_len, "the rtl transport needs a board; name one, e.g. IPU_EMU_DEVICES=rtl:rtl-tiny");
        return -EINVAL;
    }
#if IPUDRV_HAVE_RTL
    /* The RTL has no F extension yet: say so rather than a bare -EINVAL. */
    if (ipu_board_has_fpu(board)) {
        snprintf(err, err_len, "board '%s' needs %s, but the RTL tiles are rv32im; use an rv32im board such as "
                 "rtl-tiny (IPU_EMU_DEVICES=rtl-tiny)", board->name, board->isa);
        return -ENOTSUP;
    }
    const char *lockstep = getenv("IPU_EMU_RTL_LOCKSTEP");
    int ls = lockstep && *lockstep && strcmp(lockstep, "0") != 0;
    int rc = ipudrv_backend_open(&ipudrv_transport_rtl, ls ? "RTL card (lock-step)" : "RTL card",
                                 ls ? ipu_rtl_lockstep_create : ipu_rtl_create, board, out, err, err_len);
    if (rc == -EINVAL) {
        size_t n = strlen(err);
        snprintf(err + n, err_len - n, ": the RTL is Verilated only for some shapes (tiles x bytes per tile x "
                 "workers, see rtl/CMakeLists.txt), e.g. rtl-tiny; add a variant there for %u x %u x %u",
                 ipu_board_num_tiles(board), board->bytes_per_tile, board->worker_contexts);
    }
    return rc;
#else
    (void)out;
    snprintf(err, err_len, "the rtl transport is not in this build of libipudrv (Verilator was not found when it "
             "was configured, so the RTL card for board '%s' was not built); run `make deps` to install Verilator, "
             "then reconfigure and rebuild", board->name);
    return -ENOTSUP;
#endif
}

const struct ipudrv_transport_ops ipudrv_transport_rtl = IPUDRV_BACKEND_TRANSPORT_OPS("rtl", rtl_open);
