/* Device attributes (see attributes.h). */
#include "attributes.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ipu_card/hw.h"
#include "output.h"

void gc_emit_desc_fields(const struct gc_tool *tool, struct out *o, unsigned id)
{
    struct ipudrv_device_desc d;
    int rc = ipudrv_describe(id, &d);
    if (rc)
        gc_die_rc(tool, NULL, rc);
    out_u64(o, "id", d.id);
    out_str(o, "transport", d.transport);
    out_str(o, "board", d.board[0] ? d.board : "-");
    out_str(o, "location", d.location);
    out_str(o, "status", !d.available ? "unavailable" : d.holder_pid ? "in-use" : "free");
    out_i64(o, "pid", d.holder_pid);
    out_str(o, "command", d.holder_command[0] ? d.holder_command : "-");
    /* Graphcore's names for the same attributes, for scripts written for its tools */
    if (d.board[0])
        out_str(o, "board type", d.board);
    if (strcmp(d.transport, "vfio") == 0)
        out_str(o, "pci id", d.location);
    if (d.holder_pid > 0) {
        out_i64(o, "user process id", d.holder_pid);
        out_str(o, "user executable", d.holder_command);
    }
}

ipudrv_device *gc_try_open(const struct gc_tool *tool, unsigned id)
{
    ipudrv_device *dev = NULL;
    int rc = ipudrv_open(id, 0, &dev);
    if (rc == -EBUSY)
        return NULL;
    if (rc)
        gc_die_rc(tool, NULL, rc);
    return dev;
}

void gc_emit_info_fields(struct out *o, const struct ipudrv_info *in)
{
    const struct ipu_board *b = &in->board;
    out_u64(o, "id", in->id);
    out_str(o, "transport", in->transport);
    out_str(o, "location", in->location);
    out_str(o, "board", b->name);
    out_str(o, "description", b->description);
    out_str(o, "state", ipudrv_card_state_name(in->state));
    out_u64(o, "error_records", in->error_count);
    out_u64(o, "errors_lost", in->errors_lost);
    out_u64(o, "console_lost", in->console_lost);
    out_str(o, "driver_version", in->driver_version);
    out_str(o, "firmware_version", in->firmware_version);
    out_u64(o, "num_tiles", in->num_tiles);
    out_u64(o, "tile_mem_bytes", in->tile_mem_bytes);
    out_u64(o, "num_workers", in->num_workers);
    out_hex(o, "caps", in->caps);
    /* Only on such cards, so that other cards' listings stay as they were. */
    if (in->caps & IPU_REG_CAPS_HOST_SERVICE_MASK)
        out_str(o, "host_service", "the driver services the tiles' host exchanges and exchanges");
    out_u64(o, "tile_clock_khz", in->tile_clock_khz);
    out_u64(o, "xlat_entries", in->xlat_entries);
    out_u64(o, "xlat_used", in->xlat_used);
    out_u64(o, "dma_bytes", in->dma_bytes);
    out_u64(o, "card_cycles", in->card_cycles);
    out_object_begin(o, "target");
    out_str(o, "isa", b->isa);
    out_str(o, "abi", b->abi);
    out_str(o, "default_transport", b->transport);
    out_u64(o, "num_ipus", b->num_ipus);
    out_u64(o, "tiles_per_ipu", b->tiles_per_ipu);
    out_u64(o, "num_tiles", ipu_board_num_tiles(b));
    out_u64(o, "bytes_per_tile", b->bytes_per_tile);
    out_u64(o, "worker_contexts", b->worker_contexts);
    out_u64(o, "tile_clock_hz", b->tile_clock_hz);
    out_u64(o, "exchange_bytes_per_cycle", b->exchange_bytes_per_cycle);
    out_u64(o, "memcpy_bytes_per_cycle", b->memcpy_bytes_per_cycle);
    out_u64(o, "data_path_width", b->data_path_width);
    out_u64(o, "min_ipu_sync_delay", b->min_ipu_sync_delay);
    out_u64(o, "global_sync_cycles", b->global_sync_cycles);
    out_u64(o, "rpt_count_max", b->rpt_count_max);
    out_u64(o, "num_stride_bits", b->num_stride_bits);
    out_u64(o, "tiles_per_shared_exchange_bus", b->tiles_per_shared_exchange_bus);
    out_u64(o, "atomic_store_granularity", b->atomic_store_granularity);
    out_u64(o, "supervisor_stack_bytes", b->supervisor_stack_bytes);
    out_u64(o, "worker_stack_bytes", b->worker_stack_bytes);
    out_object_end(o);
    /* Graphcore's names for the same attributes, for scripts written for its tools */
    char clock[32];
    snprintf(clock, sizeof clock, "%uMHz", in->tile_clock_khz / 1000u);
    out_str(o, "board type", b->name);
    out_str(o, "ipu architecture", b->isa);
    out_str(o, "clock", clock);
    out_str(o, "driver version", in->driver_version);
    out_str(o, "firmware version", in->firmware_version);
    if (strcmp(in->transport, "vfio") == 0)
        out_str(o, "pci id", in->location);
}
