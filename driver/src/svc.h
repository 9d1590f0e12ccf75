/* The host service of a CAPS.HOST_SERVICE card (the iCE40 board's RTL card,
 * which has no DMA engine, exchange unit or exchange fabric): the driver does
 * their work for the tiles' requests that SVC_REQ shows, with the same results
 * and error records as those engines (contract SVC_KIND). */
#ifndef IPUDRV_SVC_H
#define IPUDRV_SVC_H

#include <stddef.h>
#include <stdint.h>

typedef struct ipudrv_device ipudrv_device;

/* One send an EXCHANGE kept for the next LAND: its bytes as they were when the
 * tile asked (the exchange unit snapshots the sources at EXCHANGE time). */
struct ipudrv_svc_send {
    uint32_t dst_tile;
    uint32_t dst_addr;
    uint32_t length;
    uint8_t *data;
};

/* The sends one tile's EXCHANGEs kept since the last LAND, in list order. */
struct ipudrv_svc_outbox {
    struct ipudrv_svc_send *sends;
    size_t count, cap;
};

/* Services the requests the card shows while `*status` (a STATUS value just
 * read) has SVC_PENDING, at most one per tile and a LAND, re-reading STATUS
 * into *status after each, so that a tile asking again and again cannot keep
 * a wait from looking at its clock. Returns 0 or the failing transport call's
 * code (the message names it). Call only on a HOST_SERVICE card, locked. */
int ipudrv_svc_serve(ipudrv_device *dev, uint32_t *status);

/* Services the one request SVC_REQ shows, if any. */
int ipudrv_svc_service(ipudrv_device *dev);

/* The register-write path's hook (ipudrv_wr, after a successful write): keeps
 * the raw translation-table mirror, and empties the outboxes on RESET and
 * RUN_CTRL.START/HALT as the card forgets its buffered sends then. */
void ipudrv_svc_note_write(ipudrv_device *dev, uint32_t offset, uint32_t value);

/* Empties every tile's outbox (open, RESET, START, HALT, close). */
void ipudrv_svc_outboxes_empty(ipudrv_device *dev);
/* Frees the outboxes; the device is being destroyed. */
void ipudrv_svc_free(ipudrv_device *dev);

/* The SVC_KIND's name ("HOST_EXCHANGE"), for messages. */
const char *ipudrv_svc_kind_name(uint32_t kind);

#endif
