/* Internals of libipudrv that need no card: the IOVA allocator, discovery
 * against a fake sysfs tree, the vfio transport's sysfs parsing and its
 * error when VFIO is not there. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "internal.h"
#include "iova.h"
#include "mmio.h"
#include "test_env.h"
#include "vfio_sysfs.h"

static char root[128];

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* <root>/devices/<slot>/{vendor,device,iommu_group,driver} */
static void fake_slot(const char *slot, const char *vendor, const char *device, const char *group)
{
    char dir[256], link[512], target[512];
    snprintf(dir, sizeof dir, "%s/devices/%s", root, slot);
    assert_int_equal(mkdir(dir, 0700), 0);
    write_file(dir, "vendor", vendor);
    write_file(dir, "device", device);
    if (group) {
        snprintf(link, sizeof link, "%s/iommu_group", dir);
        snprintf(target, sizeof target, "../../../kernel/iommu_groups/%s", group);
        assert_int_equal(symlink(target, link), 0);
        snprintf(link, sizeof link, "%s/driver", dir);
        assert_int_equal(symlink("../../../bus/pci/drivers/vfio-pci", link), 0);
    }
}

static int make_tree(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/ipudrv-sysfs-XXXXXX");
    assert_non_null(mkdtemp(root));
    char dir[256];
    snprintf(dir, sizeof dir, "%s/devices", root);
    assert_int_equal(mkdir(dir, 0700), 0);
    fake_slot("0000:00:03.0", "0x8086\n", "0x100e\n", NULL);
    fake_slot("0000:00:05.0", "0x1234\n", "0x11e9\n", "12");
    fake_slot("0000:00:04.0", "0x1234\n", "0x11e9\n", "7");
    fake_slot("0000:00:06.0", "0x1234\n", "0x1111\n", NULL); /* QEMU VGA: same vendor, other device */
    return 0;
}

static int remove_tree(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_iova(void **state)
{
    (void)state;
    struct ipudrv_iova a;
    uint64_t x = 0, y = 0, z = 0;
    ipudrv_iova_init(&a, 0x10000, 0x20000);
    assert_int_equal(ipudrv_iova_alloc(&a, 0x1000, 0x1000, &x), 0);
    assert_int_equal(x, 0x10000);
    assert_int_equal(ipudrv_iova_alloc(&a, 0x2000, 0x1000, &y), 0);
    assert_int_equal(y, 0x11000);
    assert_int_equal(ipudrv_iova_alloc(&a, 0x1000, 0x4000, &z), 0);
    assert_int_equal(z, 0x14000);
    /* a hole is reused first-fit */
    assert_int_equal(ipudrv_iova_free(&a, x), 0);
    assert_int_equal(ipudrv_iova_alloc(&a, 0x1000, 0x1000, &x), 0);
    assert_int_equal(x, 0x10000);
    assert_int_equal(ipudrv_iova_alloc(&a, 0x10000, 0x1000, &x), -ENOSPC);
    assert_int_equal(ipudrv_iova_alloc(&a, 0xb000, 0x1000, &x), 0);
    assert_int_equal(x, 0x15000);
    assert_int_equal(ipudrv_iova_alloc(&a, 0x1000, 0x1000, &x), 0);
    assert_int_equal(x, 0x13000);
    assert_int_equal(ipudrv_iova_alloc(&a, 0x1000, 0x1000, &x), -ENOSPC);
    assert_int_equal(ipudrv_iova_alloc(&a, 0, 0x1000, &x), -EINVAL);
    assert_int_equal(ipudrv_iova_alloc(&a, 0x1000, 3, &x), -EINVAL);
    assert_int_equal(ipudrv_iova_free(&a, 0x12345), -ENOENT);
    ipudrv_iova_destroy(&a);
}

static void test_mmio_copies(void **state)
{
    (void)state;
    _Alignas(8) uint8_t bar[64];
    uint8_t src[40], dst[40];
    for (unsigned i = 0; i < sizeof src; i++)
        src[i] = (uint8_t)(i + 1);
    /* every head/tail alignment around the 8-byte body */
    for (uint32_t off = 0; off < 9; off++)
        for (size_t len = 0; len <= 30; len++) {
            memset(bar, 0xee, sizeof bar);
            ipudrv_mmio_write(bar, off, src, len);
            for (uint32_t i = 0; i < sizeof bar; i++)
                assert_int_equal(bar[i], i >= off && i < off + len ? src[i - off] : 0xee);
            memset(dst, 0, sizeof dst);
            ipudrv_mmio_read(bar, off, dst, len);
            assert_memory_equal(dst, src, len);
        }
}

static void test_discovery_env(void **state)
{
    (void)state;
    struct ipudrv_node n[8];
    size_t count = 0;
    char err[256] = "";
    assert_int_equal(ipudrv_discover_at(" tiny, model:ipu2 ,rtl:tiny,/x/my:board.toml", "/nonexistent", n, 8, &count,
                                        err, sizeof err), 0);
    assert_int_equal(count, 4);
    assert_string_equal(n[0].transport, "model");
    assert_string_equal(n[0].board, "tiny");
    assert_string_equal(n[1].board, "ipu2");
    assert_string_equal(n[1].location, "model:ipu2");
    assert_string_equal(n[2].transport, "rtl");
    assert_string_equal(n[3].transport, "model");
    assert_string_equal(n[3].board, "/x/my:board.toml");
    assert_int_equal(n[3].id, 3);
    assert_int_equal(ipudrv_discover_at("tiny,", "/nonexistent", n, 8, &count, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "IPU_EMU_DEVICES"));
    assert_int_equal(ipudrv_discover_at("model:", "/nonexistent", n, 8, &count, err, sizeof err), -EINVAL);
    assert_int_equal(ipudrv_discover_at("a,b,c", "/nonexistent", n, 2, &count, err, sizeof err), -EINVAL);
    /* empty: PCI cards only */
    assert_int_equal(ipudrv_discover_at("", "/nonexistent", n, 8, &count, err, sizeof err), 0);
    assert_int_equal(count, 0);
    /* unset: the Mk2 shapes of the SDK's devices, 1 to 16 IPUs */
    assert_int_equal(ipudrv_discover_at(NULL, "/nonexistent", n, 8, &count, err, sizeof err), 0);
    assert_int_equal(count, 5);
    assert_string_equal(n[0].board, "ipu2");
    assert_string_equal(n[3].board, "ipu2x8");
    assert_string_equal(n[4].board, "ipu2x16");
    /* A board named alone uses its own default transport (`transport` key);
     * a prefix overrides it, and an unreadable board falls back to model. */
    assert_int_equal(ipudrv_discover_at("rtl-tiny,model:rtl-tiny,nosuchboard", "/nonexistent", n, 8, &count, err,
                                        sizeof err), 0);
    assert_int_equal(count, 3);
    assert_string_equal(n[0].transport, "rtl");
    assert_string_equal(n[0].location, "rtl:rtl-tiny");
    assert_string_equal(n[1].transport, "model");
    assert_string_equal(n[2].transport, "model");
}

static void test_discovery_pci(void **state)
{
    (void)state;
    char devices[256];
    snprintf(devices, sizeof devices, "%s/devices", root);
    struct ipudrv_node n[8];
    size_t count = 0;
    char err[256] = "";
    assert_int_equal(ipudrv_discover_at("tiny", devices, n, 8, &count, err, sizeof err), 0);
    assert_int_equal(count, 3);
    assert_string_equal(n[1].transport, "vfio");
    assert_string_equal(n[1].location, "0000:00:04.0");
    assert_int_equal(n[1].id, 1);
    assert_string_equal(n[2].location, "0000:00:05.0");
    assert_true(ipudrv_pci_slot_matches(devices, "0000:00:05.0"));
    assert_false(ipudrv_pci_slot_matches(devices, "0000:00:06.0"));
    assert_false(ipudrv_pci_slot_matches(devices, "0000:00:09.0"));
}

/* <root>/usb/<name>/{idVendor,idProduct}: what the USB scan reads. */
static void fake_usb(const char *name, const char *vendor, const char *product)
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s/usb", root);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/usb/%s", root, name);
    assert_int_equal(mkdir(dir, 0700), 0);
    if (vendor)
        write_file(dir, "idVendor", vendor);
    if (product)
        write_file(dir, "idProduct", product);
}

/* "usb" in IPU_EMU_DEVICES lists the link chips of the contract, sorted by
 * place, and nothing else: not other FTDI parts, interfaces or root hubs. */
static void test_discovery_usb(void **state)
{
    (void)state;
    fake_usb("3-1.4", "0403\n", "6010\n");   /* an iCEBreaker on a hub */
    fake_usb("1-2", "0403\n", "6001\n");     /* an FT232 (QEMU's usb-serial) */
    fake_usb("1-2:1.0", "0403\n", "6001\n"); /* its interface: not a device */
    fake_usb("1-3", "0403\n", "6014\n");     /* an FT232H: not a link chip of the contract */
    fake_usb("usb1", "1d6b\n", "0003\n");    /* a root hub */
    fake_usb("2-1", NULL, NULL);              /* unreadable */
    char usb[256], err[256] = "";
    snprintf(usb, sizeof usb, "%s/usb", root);
    setenv("IPU_EMU_USB_ROOT", usb, 1);
    struct ipudrv_node n[8];
    size_t count = 0;
    assert_int_equal(ipudrv_discover_at("tiny,usb,socket:/tmp/s", "/nonexistent", n, 8, &count, err, sizeof err), 0);
    assert_int_equal(count, 4);
    assert_string_equal(n[1].transport, "usb");
    assert_string_equal(n[1].location, "usb:1-2");
    assert_int_equal(n[1].id, 1);
    assert_string_equal(n[2].location, "usb:3-1.4");
    assert_string_equal(n[3].transport, "socket");
    assert_string_equal(n[3].location, "socket:/tmp/s");
    assert_string_equal(n[3].board, ""); /* it reports its own board once opened */
    /* A place named directly is taken as it is (opening checks it). */
    assert_int_equal(ipudrv_discover_at("usb:5-1", "/nonexistent", n, 8, &count, err, sizeof err), 0);
    assert_int_equal(count, 1);
    assert_string_equal(n[0].transport, "usb");
    assert_string_equal(n[0].location, "usb:5-1");
    /* Too many cards with the USB ones: an error naming the fix. */
    assert_int_equal(ipudrv_discover_at("tiny,usb", "/nonexistent", n, 2, &count, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "IPU_EMU_DEVICES"));
    unsetenv("IPU_EMU_USB_ROOT");
}

/* Opening a usb card at a place where nothing is plugged in (or with a
 * malformed place) fails with a message naming the fix. */
static void test_usb_open_errors(void **state)
{
    (void)state;
    test_env_setup("usb:9-9.9");
    ipudrv_device *dev = NULL;
    assert_true(ipudrv_open(0, 0, &dev) < 0);
    assert_null(dev);
    const char *msg = ipudrv_last_error(NULL);
    assert_true(strstr(msg, "gc-info -l") || strstr(msg, "libusb"));
    test_env_cleanup();
    test_env_setup("usb:nowhere");
    assert_true(ipudrv_open(0, 0, &dev) < 0);
    assert_non_null(strstr(ipudrv_last_error(NULL), "usb:1-2"));
    test_env_cleanup();
}

static void test_vfio_sysfs(void **state)
{
    (void)state;
    char devices[256], group[16], driver[32];
    snprintf(devices, sizeof devices, "%s/devices", root);
    assert_int_equal(ipudrv_vfio_group_of(devices, "0000:00:04.0", group, sizeof group), 0);
    assert_string_equal(group, "7");
    assert_int_equal(ipudrv_vfio_group_of(devices, "0000:00:05.0", group, sizeof group), 0);
    assert_string_equal(group, "12");
    assert_int_equal(ipudrv_vfio_group_of(devices, "0000:00:03.0", group, sizeof group), -ENOENT);
    assert_int_equal(ipudrv_vfio_driver_of(devices, "0000:00:04.0", driver, sizeof driver), 0);
    assert_string_equal(driver, "vfio-pci");
    assert_int_equal(ipudrv_vfio_driver_of(devices, "0000:00:03.0", driver, sizeof driver), -ENOENT);
    assert_string_equal(driver, "none");
}

/* Without VFIO (or without the fake group's device node) attaching fails
 * with a message naming what to do, and nothing is left locked. */
static void test_vfio_open_without_vfio(void **state)
{
    (void)state;
    char devices[256];
    snprintf(devices, sizeof devices, "%s/devices", root);
    test_env_setup("");
    setenv("IPU_EMU_PCI_ROOT", devices, 1);
    unsigned count = 0;
    assert_int_equal(ipudrv_device_count(&count), 0);
    assert_int_equal(count, 2);
    struct ipudrv_device_desc d;
    assert_int_equal(ipudrv_describe(0, &d), 0);
    assert_string_equal(d.transport, "vfio");
    assert_string_equal(d.location, "0000:00:04.0");
    assert_int_equal(d.available, 1);
    ipudrv_device *dev = NULL;
    int rc = ipudrv_open(0, 0, &dev);
    assert_true(rc < 0);
    assert_null(dev);
    assert_non_null(strstr(ipudrv_last_error(NULL), "/dev/vfio"));
    assert_int_equal(ipudrv_describe(0, &d), 0);
    assert_int_equal(d.holder_pid, 0);
    test_env_cleanup();
}

static void test_lock_paths(void **state)
{
    (void)state;
    test_env_setup("tiny");
    struct ipudrv_node sim = {.id = 3, .transport = "model", .location = "model:tiny"};
    struct ipudrv_node rtl = {.id = 4, .transport = "rtl", .location = "rtl:rtl-tiny"};
    struct ipudrv_node pci = {.id = 1, .transport = "vfio", .location = "0000:00:04.0"};
    struct ipudrv_node usb = {.id = 2, .transport = "usb", .location = "/dev/ipu/serial-42"};
    char path[768];
    /* Simulated cards live in the process that opens them: no lock at all. */
    assert_false(ipudrv_transport_is_shared("model"));
    assert_false(ipudrv_transport_is_shared("rtl"));
    assert_int_equal(ipudrv_lock_path(&sim, path, sizeof path), -EINVAL);
    int fd = 5, pid = 7, fd2 = -1;
    char cmd[32];
    assert_int_equal(ipudrv_lock_acquire(&sim, IPUDRV_LOCK_TRY, &fd, &pid, cmd, sizeof cmd), 0);
    assert_int_equal(fd, -1);
    assert_int_equal(ipudrv_lock_acquire(&rtl, IPUDRV_LOCK_TRY, &fd, &pid, cmd, sizeof cmd), 0);
    assert_int_equal(fd, -1);
    assert_int_equal(ipudrv_lock_query(&sim, &pid, cmd, sizeof cmd), 0);
    assert_int_equal(pid, 0);
    /* Shared cards lock by what identifies them, never by list index. */
    assert_true(ipudrv_transport_is_shared("vfio"));
    assert_int_equal(ipudrv_lock_path(&pci, path, sizeof path), 0);
    assert_non_null(strstr(path, "/pci-0000:00:04.0.lock"));
    assert_int_equal(ipudrv_lock_path(&usb, path, sizeof path), 0);
    assert_non_null(strstr(path, "/usb-_dev_ipu_serial-42.lock")); /* stays inside the lock directory */
    assert_int_equal(ipudrv_lock_acquire(&pci, IPUDRV_LOCK_TRY, &fd, &pid, cmd, sizeof cmd), 0);
    assert_true(fd >= 0);
    pci.id = 7;
    assert_int_equal(ipudrv_lock_acquire(&pci, IPUDRV_LOCK_TRY, &fd2, &pid, cmd, sizeof cmd), -EBUSY);
    assert_int_equal(pid, getpid());
    assert_int_equal(ipudrv_lock_query(&pci, &pid, cmd, sizeof cmd), 0);
    assert_int_equal(pid, getpid());
    ipudrv_lock_release(fd);
    assert_int_equal(ipudrv_lock_query(&pci, &pid, cmd, sizeof cmd), 0);
    assert_int_equal(pid, 0);
    test_env_cleanup();
}

/* A child process that holds the lock of the PCI card at `slot` until the
 * parent writes to *release (or, with hold_ms > 0, for that long). Returns
 * its PID once it holds the lock. */
static pid_t hold_in_child(const char *slot, int hold_ms, int release[2])
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(release), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        /* Only the parent writes `release`: its exit (a failed test) ends the wait. */
        close(release[1]);
        struct ipudrv_node node = {.transport = "vfio"};
        snprintf(node.location, sizeof node.location, "%s", slot);
        int fd = -1, pid = 0;
        char c = ipudrv_lock_acquire(&node, IPUDRV_LOCK_TRY, &fd, &pid, NULL, 0) == 0 ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1)
            _exit(2);
        if (hold_ms > 0)
            usleep((useconds_t)hold_ms * 1000u);
        else if (read(release[0], &c, 1) != 1)
            _exit(3);
        ipudrv_lock_release(fd);
        _exit(0);
    }
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    close(ready[0]), close(ready[1]);
    return child;
}

static void reap(pid_t child, int release[2])
{
    int status = 0;
    if (write(release[1], "x", 1) != 1)
        fail_msg("cannot release the child");
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(release[0]), close(release[1]);
}

/* vfio cards: exclusive attach keyed by the PCI slot, whatever id the card has
 * in this process's list, for ipudrv_open and ipudrv_open_with alike; the
 * holder shows in ipudrv_describe (gc-info's "held by"). */
static void test_vfio_busy_keyed_by_slot(void **state)
{
    (void)state;
    char devices[256], want[96];
    snprintf(devices, sizeof devices, "%s/devices", root);
    test_env_setup("tiny");
    setenv("IPU_EMU_PCI_ROOT", devices, 1);
    int release[2];
    pid_t child = hold_in_child("0000:00:04.0", 0, release);
    ipudrv_device *dev = NULL;
    /* ids: 0 tiny, 1 0000:00:04.0, 2 0000:00:05.0 */
    snprintf(want, sizeof want, "device 1 is in use by PID %d", (int)child);
    assert_int_equal(ipudrv_open(1, 0, &dev), -EBUSY);
    assert_non_null(strstr(ipudrv_last_error(NULL), want));
    struct ipudrv_device_desc d;
    assert_int_equal(ipudrv_describe(1, &d), 0);
    assert_int_equal(d.holder_pid, child);
    assert_int_equal(ipudrv_describe(2, &d), 0);
    assert_int_equal(d.holder_pid, 0);
    /* Another process's list without the simulated card: the same card is id 0. */
    setenv("IPU_EMU_DEVICES", "", 1);
    assert_int_equal(ipudrv_open(0, 0, &dev), -EBUSY);
    struct ipudrv_open_params p = {.size = sizeof p, .transport = "vfio", .location = "0000:00:04.0"};
    assert_int_equal(ipudrv_open_with(&p, &dev), -EBUSY);
    snprintf(want, sizeof want, "card 0000:00:04.0 is in use by PID %d", (int)child);
    assert_non_null(strstr(ipudrv_last_error(NULL), want));
    /* The other card is free: opening it gets as far as VFIO. */
    p.location = "0000:00:05.0";
    int rc = ipudrv_open_with(&p, &dev);
    assert_true(rc < 0 && rc != -EBUSY);
    assert_non_null(strstr(ipudrv_last_error(NULL), "/dev/vfio"));
    reap(child, release);

    /* In this process: a second attach of the same card is refused too. */
    struct ipudrv_node node = {.transport = "vfio", .location = "0000:00:04.0"};
    int fd = -1, pid = 0;
    char cmd[32];
    assert_int_equal(ipudrv_lock_acquire(&node, IPUDRV_LOCK_TRY, &fd, &pid, cmd, sizeof cmd), 0);
    p.location = "0000:00:04.0";
    assert_int_equal(ipudrv_open_with(&p, &dev), -EBUSY);
    assert_non_null(strstr(ipudrv_last_error(NULL), "this process"));
    ipudrv_lock_release(fd);
    test_env_cleanup();
}

/* IPUDRV_LOCK_WAIT blocks until the holder lets go, then attaches (here up
 * to the missing VFIO, which proves the lock was taken). */
static void test_vfio_lock_wait(void **state)
{
    (void)state;
    char devices[256];
    snprintf(devices, sizeof devices, "%s/devices", root);
    test_env_setup("");
    setenv("IPU_EMU_PCI_ROOT", devices, 1);
    int release[2];
    pid_t child = hold_in_child("0000:00:05.0", 300, release);
    struct ipudrv_open_params p = {.size = sizeof p, .transport = "vfio", .location = "0000:00:05.0",
                                   .lock_policy = IPUDRV_LOCK_WAIT};
    ipudrv_device *dev = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = ipudrv_open_with(&p, &dev);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    assert_true(rc < 0 && rc != -EBUSY);
    assert_non_null(strstr(ipudrv_last_error(NULL), "/dev/vfio"));
    assert_true(ms >= 150.0);
    reap(child, release);
    test_env_cleanup();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iova),
        cmocka_unit_test(test_mmio_copies),
        cmocka_unit_test(test_discovery_env),
        cmocka_unit_test(test_discovery_pci),
        cmocka_unit_test(test_discovery_usb),
        cmocka_unit_test(test_usb_open_errors),
        cmocka_unit_test(test_vfio_sysfs),
        cmocka_unit_test(test_vfio_open_without_vfio),
        cmocka_unit_test(test_lock_paths),
        cmocka_unit_test(test_vfio_busy_keyed_by_slot),
        cmocka_unit_test(test_vfio_lock_wait),
    };
    return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
