/* The `vfio` transport: a PCIe card through VFIO with the type1 IOMMU --
 * group and container, BAR mmap, DMA mapping of driver buffers at IOVAs from
 * our allocator, MSI-X through eventfds. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/vfio.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "iova.h"
#include "mmio.h"
#include "vfio_sysfs.h"

/* IOVAs above 4 GiB stay clear of the MSI window and low reserved ranges;
 * 39 bits is the smallest address width of common IOMMUs. */
#define IOVA_BASE (1ull << 32)
#define IOVA_END (1ull << 39)
#define NUM_VECTORS IPU_PCI_MSIX_VECTORS

struct vfio_transport {
    struct ipudrv_transport base;
    int container, group, device;
    volatile uint32_t *bar0;
    size_t bar0_size;
    volatile uint8_t *bar2;
    size_t bar2_size;
    int irq_fd[NUM_VECTORS];
    unsigned num_irqs;
    struct ipudrv_iova iova;
};

static struct vfio_transport *vt(struct ipudrv_transport *t)
{
    return (struct vfio_transport *)t;
}

static const char *pci_root(void)
{
    const char *r = getenv("IPU_EMU_PCI_ROOT");
    return r && *r ? r : "/sys/bus/pci/devices";
}

static int map_bar(struct vfio_transport *v, unsigned index, size_t want, void **out, size_t *size, char *err,
                   size_t err_len)
{
    struct vfio_region_info info = {.argsz = sizeof info, .index = index};
    if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &info) < 0 || info.size < want ||
        !(info.flags & VFIO_REGION_INFO_FLAG_MMAP)) {
        snprintf(err, err_len, "BAR%u is missing, smaller than 0x%zx or not mappable; is this an ipu-emu card?",
                 index, want);
        return -EIO;
    }
    void *p = mmap(NULL, info.size, PROT_READ | PROT_WRITE, MAP_SHARED, v->device, (off_t)info.offset);
    if (p == MAP_FAILED) {
        int rc = -errno;
        snprintf(err, err_len, "cannot mmap BAR%u (%s)", index, strerror(-rc));
        return rc;
    }
    *out = p;
    *size = info.size;
    return 0;
}

/* Memory decoding and bus mastering, so that the card can DMA. */
static int enable_bus_master(struct vfio_transport *v)
{
    struct vfio_region_info info = {.argsz = sizeof info, .index = VFIO_PCI_CONFIG_REGION_INDEX};
    if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &info) < 0)
        return -errno;
    uint16_t cmd = 0;
    if (pread(v->device, &cmd, sizeof cmd, (off_t)info.offset + 4) != sizeof cmd)
        return -EIO;
    cmd |= 0x6;
    if (pwrite(v->device, &cmd, sizeof cmd, (off_t)info.offset + 4) != sizeof cmd)
        return -EIO;
    return 0;
}

/* MSI-X vectors to eventfds; without MSI-X the transport polls. */
static void setup_irqs(struct vfio_transport *v)
{
    struct vfio_irq_info info = {.argsz = sizeof info, .index = VFIO_PCI_MSIX_IRQ_INDEX};
    if (ioctl(v->device, VFIO_DEVICE_GET_IRQ_INFO, &info) < 0 || info.count == 0)
        return;
    unsigned n = info.count < NUM_VECTORS ? info.count : NUM_VECTORS;
    size_t argsz = sizeof(struct vfio_irq_set) + n * sizeof(int32_t);
    struct vfio_irq_set *set = calloc(1, argsz);
    if (!set)
        return;
    set->argsz = (uint32_t)argsz;
    set->flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER;
    set->index = VFIO_PCI_MSIX_IRQ_INDEX;
    set->start = 0;
    set->count = n;
    int32_t *fds = (int32_t *)set->data;
    unsigned made = 0;
    for (; made < n; made++) {
        v->irq_fd[made] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (v->irq_fd[made] < 0)
            break;
        fds[made] = v->irq_fd[made];
    }
    if (made == n && ioctl(v->device, VFIO_DEVICE_SET_IRQS, set) == 0) {
        v->num_irqs = n;
    } else {
        for (unsigned i = 0; i < made; i++)
            close(v->irq_fd[i]);
    }
    free(set);
}

static void vfio_close(struct ipudrv_transport *t)
{
    struct vfio_transport *v = vt(t);
    for (unsigned i = 0; i < v->num_irqs; i++)
        close(v->irq_fd[i]);
    if (v->bar0)
        munmap((void *)v->bar0, v->bar0_size);
    if (v->bar2)
        munmap((void *)v->bar2, v->bar2_size);
    if (v->device >= 0)
        close(v->device);
    if (v->group >= 0)
        close(v->group);
    if (v->container >= 0)
        close(v->container);
    ipudrv_iova_destroy(&v->iova);
    free(v);
}

static int open_container_and_group(struct vfio_transport *v, const char *slot, char *err, size_t err_len)
{
    char group[32], driver[64], path[64];
    int rc = ipudrv_vfio_group_of(pci_root(), slot, group, sizeof group);
    if (rc) {
        snprintf(err, err_len, "no IOMMU group for %s (%s): enable the IOMMU (intel_iommu=on, or QEMU "
                 "-device intel-iommu) so that VFIO can isolate the card", slot, strerror(-rc));
        return rc == -ENOENT ? -ENODEV : rc;
    }
    ipudrv_vfio_driver_of(pci_root(), slot, driver, sizeof driver);
    v->container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
    if (v->container < 0) {
        rc = -errno;
        snprintf(err, err_len, "cannot open /dev/vfio/vfio (%s): modprobe vfio-pci (and run as root or give "
                 "your user access to /dev/vfio)", strerror(-rc));
        return rc;
    }
    /* Type1v2 (unmap semantics without splitting) when the kernel has it. */
    int iommu = ioctl(v->container, VFIO_CHECK_EXTENSION, VFIO_TYPE1v2_IOMMU) > 0 ? VFIO_TYPE1v2_IOMMU : VFIO_TYPE1_IOMMU;
    if (ioctl(v->container, VFIO_GET_API_VERSION) != VFIO_API_VERSION ||
        ioctl(v->container, VFIO_CHECK_EXTENSION, iommu) <= 0) {
        snprintf(err, err_len, "the kernel's VFIO lacks API version %d or the type1 IOMMU", VFIO_API_VERSION);
        return -ENOTSUP;
    }
    snprintf(path, sizeof path, "/dev/vfio/%s", group);
    v->group = open(path, O_RDWR | O_CLOEXEC);
    if (v->group < 0) {
        rc = -errno;
        snprintf(err, err_len, "cannot open %s (%s); %s is bound to '%s': bind it to vfio-pci (echo 1234 11e9 > "
                 "/sys/bus/pci/drivers/vfio-pci/new_id) and check the permissions", path, strerror(-rc), slot,
                 driver);
        return rc == -ENOENT ? -ENODEV : rc;
    }
    struct vfio_group_status status = {.argsz = sizeof status};
    if (ioctl(v->group, VFIO_GROUP_GET_STATUS, &status) < 0 || !(status.flags & VFIO_GROUP_FLAGS_VIABLE)) {
        snprintf(err, err_len, "IOMMU group %s is not viable: bind every device in it to vfio-pci", group);
        return -EBUSY;
    }
    if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) < 0 ||
        ioctl(v->container, VFIO_SET_IOMMU, iommu) < 0) {
        rc = -errno;
        snprintf(err, err_len, "cannot attach IOMMU group %s to a type1 container (%s)", group, strerror(-rc));
        return rc;
    }
    v->device = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, slot);
    if (v->device < 0) {
        rc = -errno;
        snprintf(err, err_len, "cannot get the VFIO device fd of %s (%s)", slot, strerror(-rc));
        return rc;
    }
    return 0;
}

static int vfio_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                     char *err, size_t err_len)
{
    (void)board;
    struct vfio_transport *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    v->base.ops = &ipudrv_transport_vfio;
    v->container = v->group = v->device = -1;
    ipudrv_iova_init(&v->iova, IOVA_BASE, IOVA_END);
    void *bar0 = NULL, *bar2 = NULL;
    int rc = open_container_and_group(v, node->location, err, err_len);
    if (!rc)
        rc = map_bar(v, VFIO_PCI_BAR0_REGION_INDEX, IPU_BAR_REGS_SIZE, &bar0, &v->bar0_size, err, err_len);
    v->bar0 = bar0;
    if (!rc)
        rc = map_bar(v, VFIO_PCI_BAR2_REGION_INDEX, IPU_BAR_TILEMEM_SIZE, &bar2, &v->bar2_size, err, err_len);
    v->bar2 = bar2;
    if (!rc && (rc = enable_bus_master(v)))
        snprintf(err, err_len, "cannot enable bus mastering in config space (%s)", strerror(-rc));
    if (rc) {
        vfio_close(&v->base);
        return rc;
    }
    setup_irqs(v);
    *out = &v->base;
    return 0;
}

static int vfio_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    *value = vt(t)->bar0[offset / 4];
    return 0;
}

static int vfio_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    vt(t)->bar0[offset / 4] = value;
    return 0;
}

static int vfio_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    ipudrv_mmio_read(vt(t)->bar2, offset, buf, len);
    return 0;
}

static int vfio_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    ipudrv_mmio_write(vt(t)->bar2, offset, buf, len);
    return 0;
}

static int vfio_mem_alloc(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus)
{
    struct vfio_transport *v = vt(t);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -ENOMEM;
    uint64_t iova;
    int rc = ipudrv_iova_alloc(&v->iova, size, IPUDRV_PAGE_SIZE, &iova);
    if (rc) {
        munmap(p, size);
        return rc;
    }
    struct vfio_iommu_type1_dma_map map = {.argsz = sizeof map,
                                           .flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
                                           .vaddr = (uint64_t)(uintptr_t)p, .iova = iova, .size = size};
    if (ioctl(v->container, VFIO_IOMMU_MAP_DMA, &map) < 0) {
        rc = -errno;
        ipudrv_iova_free(&v->iova, iova);
        munmap(p, size);
        return rc;
    }
    *va = p;
    *bus = iova;
    return 0;
}

static void vfio_mem_free(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus)
{
    struct vfio_transport *v = vt(t);
    struct vfio_iommu_type1_dma_unmap unmap = {.argsz = sizeof unmap, .iova = bus, .size = size};
    ioctl(v->container, VFIO_IOMMU_UNMAP_DMA, &unmap);
    ipudrv_iova_free(&v->iova, bus);
    munmap(va, size);
}

/* Sleeps until an MSI-X vector fires (or max_ms), then drains the eventfds. */
static int vfio_progress(struct ipudrv_transport *t, int max_ms)
{
    struct vfio_transport *v = vt(t);
    if (v->num_irqs == 0) {
        usleep(max_ms > 1 ? 1000 : 200);
        return 0;
    }
    struct pollfd pfd[NUM_VECTORS];
    for (unsigned i = 0; i < v->num_irqs; i++)
        pfd[i] = (struct pollfd){.fd = v->irq_fd[i], .events = POLLIN};
    int n = poll(pfd, v->num_irqs, max_ms);
    if (n < 0)
        return errno == EINTR ? 0 : -errno;
    for (unsigned i = 0; i < v->num_irqs; i++)
        if (pfd[i].revents & POLLIN) {
            uint64_t count;
            if (read(v->irq_fd[i], &count, sizeof count) < 0) {
                /* Nothing to drain: another reader got there first. */
            }
        }
    return 0;
}

const struct ipudrv_transport_ops ipudrv_transport_vfio = {
    .name = "vfio",
    .open = vfio_open,
    .close = vfio_close,
    .reg_read = vfio_reg_read,
    .reg_write = vfio_reg_write,
    .window_read = vfio_window_read,
    .window_write = vfio_window_write,
    .mem_alloc = vfio_mem_alloc,
    .mem_free = vfio_mem_free,
    .progress = vfio_progress,
};
