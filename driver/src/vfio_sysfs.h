/* sysfs helpers of the vfio transport (testable against a fake tree). */
#ifndef IPUDRV_VFIO_SYSFS_H
#define IPUDRV_VFIO_SYSFS_H

#include <stddef.h>

/* Reads <pci_root>/<slot>/iommu_group (a symlink ending in the group number)
 * into group. Returns 0, -ENOENT (no IOMMU group: IOMMU off), -EINVAL. */
int ipudrv_vfio_group_of(const char *pci_root, const char *slot, char *group, size_t len);
/* The name of the kernel driver bound to the slot ("vfio-pci"), or "none".
 * Returns 0 or -ENOENT when no driver is bound. */
int ipudrv_vfio_driver_of(const char *pci_root, const char *slot, char *driver, size_t len);

#endif
