/* Device attributes as gc-info -i and gc-inventory print them. */
#ifndef GC_ATTRIBUTES_H
#define GC_ATTRIBUTES_H

#include "common.h"

struct out;

/* The attributes known without attaching (discovery): id, transport,
 * board, location, status, pid, command. Dies on a discovery error. */
void gc_emit_desc_fields(const struct gc_tool *tool, struct out *o, unsigned id);

/* The attributes of an attached card (registers and board values). */
void gc_emit_info_fields(struct out *o, const struct ipudrv_info *info);

/* Tries to attach to device `id` for its attributes. Returns the handle, or
 * NULL when another process holds the device (the message is in
 * ipudrv_last_error(NULL)); dies on any other failure. */
ipudrv_device *gc_try_open(const struct gc_tool *tool, unsigned id);

#endif
