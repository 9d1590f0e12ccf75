/* sysfs helpers of the vfio transport: which IOMMU group a PCI slot is in. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vfio_sysfs.h"

int ipudrv_vfio_group_of(const char *pci_root, const char *slot, char *group, size_t len)
{
    char path[PATH_MAX], target[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/iommu_group", pci_root, slot);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n < 0)
        return -errno;
    target[n] = '\0';
    const char *base = strrchr(target, '/');
    base = base ? base + 1 : target;
    if (!*base || strspn(base, "0123456789") != strlen(base))
        return -EINVAL;
    snprintf(group, len, "%s", base);
    return 0;
}

int ipudrv_vfio_driver_of(const char *pci_root, const char *slot, char *driver, size_t len)
{
    char path[PATH_MAX], target[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/driver", pci_root, slot);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n < 0) {
        snprintf(driver, len, "none");
        return -errno;
    }
    target[n] = '\0';
    const char *base = strrchr(target, '/');
    snprintf(driver, len, "%s", base ? base + 1 : target);
    return 0;
}
