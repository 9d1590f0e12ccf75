/* Helpers for tools that open or list devices. */
#include <stdio.h>

#include "common.h"
#include "output.h"

ipudrv_device *gc_open(const struct gc_tool *tool, unsigned id)
{
    ipudrv_device *dev = NULL;
    int rc = ipudrv_open(id, 0, &dev);
    if (rc)
        gc_die_rc(tool, NULL, rc);
    return dev;
}

void gc_emit_devices(const struct gc_tool *tool, struct out *o)
{
    unsigned n = 0;
    int rc = ipudrv_device_count(&n);
    if (rc)
        gc_die_rc(tool, NULL, rc);
    out_array_begin(o, "devices");
    for (unsigned id = 0; id < n; id++) {
        struct ipudrv_device_desc d;
        if ((rc = ipudrv_describe(id, &d)))
            gc_die_rc(tool, NULL, rc);
        out_item_begin(o);
        out_u64(o, "id", d.id);
        out_str(o, "transport", d.transport);
        out_str(o, "board", d.board[0] ? d.board : "-");
        out_str(o, "location", d.location);
        out_str(o, "status", !d.available ? "unavailable" : d.holder_pid ? "in-use" : "free");
        out_i64(o, "pid", d.holder_pid);
        out_str(o, "command", d.holder_command[0] ? d.holder_command : "-");
        out_item_end(o);
    }
    out_array_end(o);
}
