/* Link groups: several PCI functions that are the IPUs of one multi-IPU card
 * (contract/card.toml, LINK_GROUP). Discovery groups them from each function's
 * LINK_CAP capability in config space (sysfs), without opening any; the group
 * transport opens every member and routes tile accesses by IPU, so that the
 * rest of the driver sees one card of n IPUs. */
#ifndef IPUDRV_LINK_GROUP_H
#define IPUDRV_LINK_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "transport.h"

#define IPUDRV_GROUP_MAX 16u
#define IPUDRV_SLOT_MAX 32u

/* One function's LINK_CAP. */
struct ipudrv_link_cap {
    uint32_t group; /* non-zero */
    uint32_t index;
    uint32_t size;
};

/* Reads the LINK_CAP of PCI function `slot` from <pci_root>/<slot>/config.
 * Returns 1 and fills *cap for a member of a link group, 0 for a card of its
 * own (no such capability, or config space past the header not readable:
 * reading it needs root). */
int ipudrv_pci_link_cap(const char *pci_root, const char *slot, struct ipudrv_link_cap *cap);

/* Every member of the link group of `slot`, by IPU index. */
struct ipudrv_link_members {
    uint32_t group;
    uint32_t size;
    char slot[IPUDRV_GROUP_MAX][IPUDRV_SLOT_MAX];
};

/* Finds the members of slot's group among the ipu-emu functions under
 * pci_root. Returns 0 with a complete group (every index 0..size-1 present
 * once, every member giving the same size), or -ENODEV (a member missing) or
 * -EINVAL (sizes differ, an index twice, too many IPUs) with a message naming
 * the slots and the fix. `slot` must be a member. */
int ipudrv_pci_link_members(const char *pci_root, const char *slot, struct ipudrv_link_members *out, char *err,
                            size_t err_len);

/* The transport to open the card at `node` with: the group transport when it
 * is a vfio card in a link group, else `ops`. */
const struct ipudrv_transport_ops *ipudrv_group_ops_for(const struct ipudrv_node *node,
                                                        const struct ipudrv_transport_ops *ops);

/* The group transport: members opened with ipudrv_group_member_ops. */
extern const struct ipudrv_transport_ops ipudrv_transport_group;
/* How the group transport opens each member: the vfio transport; the driver's
 * unit tests put a fake there to check the routing without a card. */
extern const struct ipudrv_transport_ops *ipudrv_group_member_ops;

#endif
