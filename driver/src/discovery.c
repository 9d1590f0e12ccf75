/* Device discovery: the cards named by $IPU_EMU_DEVICES (simulated cards,
 * socket and usb cards; the entry "usb" stands for every link chip on the USB
 * bus), then PCI cards (1234:11e9) found in sysfs. Ids are the position in that
 * order, so they are stable for a given environment and set of installed cards.
 * USB chips are listed only when asked for: the link's FTDI UARTs are common
 * parts, and an unrelated serial cable must not become a card. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "link_group.h"

/* With no $IPU_EMU_DEVICES: the Mk2 shapes an SDK user has, one device id each (the SDK numbers single IPUs
 * first, then larger groups). Their tile memory is mapped on demand, so listing or opening them is cheap. */
#define DEFAULT_DEVICES "ipu2,ipu2x2,ipu2x4,ipu2x8,ipu2x16"
#define DEFAULT_PCI_ROOT "/sys/bus/pci/devices"
#define DEFAULT_USB_ROOT "/sys/bus/usb/devices"

static void copy_str(char *dst, size_t len, const char *src, size_t n)
{
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* "model:tiny" -> transport "model", board "tiny"; "rtl-tiny" -> the board's
 * own default transport (its `transport` key: "model" for tiny, "rtl" for
 * rtl-tiny), "model" when the board cannot be read (opening it reports why). A
 * prefix is a transport only when it is all lower-case letters, so paths with
 * ':' work. */
static int parse_entry(const char *entry, size_t n, struct ipudrv_node *node, char *err, size_t err_len)
{
    size_t colon = 0;
    while (colon < n && islower((unsigned char)entry[colon]))
        colon++;
    const char *board = entry;
    size_t board_len = n;
    if (colon > 0 && colon < n && entry[colon] == ':') {
        copy_str(node->transport, sizeof node->transport, entry, colon);
        board = entry + colon + 1;
        board_len = n - colon - 1;
    }
    if (board_len == 0 || board_len >= sizeof node->board) {
        snprintf(err, err_len, "IPU_EMU_DEVICES: entry '%.*s' has %s board name; use e.g. "
                 "IPU_EMU_DEVICES=tiny,model:ipu2", (int)n, entry, board_len ? "too long a" : "no");
        return -EINVAL;
    }
    copy_str(node->board, sizeof node->board, board, board_len);
    if (!node->transport[0]) {
        struct ipu_board b;
        int known = ipu_board_load(node->board, &b, NULL, 0) == 0 && b.transport[0];
        snprintf(node->transport, sizeof node->transport, "%s", known ? b.transport : "model");
    }
    snprintf(node->location, sizeof node->location, "%s:%s", node->transport, node->board);
    /* A socket or usb card is named by its place (the location); it reports
     * its own board from its registers once opened, as PCI cards do. */
    if (ipudrv_transport_is_shared(node->transport))
        node->board[0] = '\0';
    return 0;
}

static int read_hex_file(const char *dir, const char *name, const char *file, unsigned *value)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", dir, name, file);
    FILE *f = fopen(path, "r");
    if (!f)
        return -errno;
    int ok = fscanf(f, "%x", value) == 1;
    fclose(f);
    return ok ? 0 : -EINVAL;
}

int ipudrv_pci_slot_matches(const char *pci_root, const char *slot)
{
    unsigned vendor = 0, device = 0;
    if (read_hex_file(pci_root, slot, "vendor", &vendor) || read_hex_file(pci_root, slot, "device", &device))
        return 0;
    return vendor == IPU_PCI_VENDOR_ID && device == IPU_PCI_DEVICE_ID;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The slot by which link group `cap` is listed among the sorted `names`: its
 * IPU 0's, or when that one is missing the first member's (opening it then
 * says what is missing). Returns NULL when names[i] is a member but not that one. */
static const char *group_location(const char *pci_root, char *const *names, size_t n, size_t i,
                                  const struct ipudrv_link_cap *cap)
{
    const char *first = NULL, *ipu0 = NULL;
    for (size_t j = 0; j < n; j++) {
        struct ipudrv_link_cap c;
        if (ipudrv_pci_link_cap(pci_root, names[j], &c) != 1 || c.group != cap->group)
            continue;
        if (!first)
            first = names[j];
        if (c.index == 0 && !ipu0)
            ipu0 = names[j];
    }
    const char *where = ipu0 ? ipu0 : first;
    /* The group takes the place of its first member in the order. */
    return first == names[i] ? where : NULL;
}

/* Appends the PCI cards under pci_root, sorted by slot; the functions of a
 * link group are one card (link_group.h), listed by IPU 0's slot. A missing
 * directory means no PCI cards (containers, non-Linux test trees). */
static int scan_pci(const char *pci_root, struct ipudrv_node *out, size_t max, size_t *count)
{
    DIR *d = opendir(pci_root);
    if (!d)
        return 0;
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < sizeof names / sizeof names[0]) {
        if (e->d_name[0] == '.')
            continue;
        if (ipudrv_pci_slot_matches(pci_root, e->d_name) && (names[n] = strdup(e->d_name)))
            n++;
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_names);
    for (size_t i = 0; i < n; i++) {
        struct ipudrv_link_cap cap;
        const char *where = names[i];
        if (ipudrv_pci_link_cap(pci_root, names[i], &cap) == 1)
            where = group_location(pci_root, names, n, i, &cap);
        if (where && *count < max) {
            struct ipudrv_node *node = &out[*count];
            memset(node, 0, sizeof *node);
            node->id = (unsigned)*count;
            snprintf(node->transport, sizeof node->transport, "vfio");
            copy_str(node->location, sizeof node->location, where, strlen(where));
            (*count)++;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    return 0;
}

static int usb_link_chip(const char *usb_root, const char *name)
{
    static const struct { unsigned vendor, product, interface; } ids[] = IPU_LINK_USB_IDS;
    unsigned vendor = 0, product = 0;
    if (read_hex_file(usb_root, name, "idVendor", &vendor) || read_hex_file(usb_root, name, "idProduct", &product))
        return 0;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (ids[i].vendor == vendor && ids[i].product == product)
            return 1;
    return 0;
}

/* Appends the link chips under usb_root (devices are "<bus>-<ports>"; names
 * with ':' are interfaces, "usbN" root hubs), sorted by place. */
static int scan_usb(const char *usb_root, struct ipudrv_node *out, size_t max, size_t *count, char *err,
                    size_t err_len)
{
    DIR *d = opendir(usb_root);
    if (!d)
        return 0;
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < sizeof names / sizeof names[0]) {
        if (!isdigit((unsigned char)e->d_name[0]) || strchr(e->d_name, ':'))
            continue;
        if (usb_link_chip(usb_root, e->d_name) && (names[n] = strdup(e->d_name)))
            n++;
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_names);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (*count >= max && !rc) {
            snprintf(err, err_len, "more than %zu cards with the USB ones; name fewer in IPU_EMU_DEVICES", max);
            rc = -EINVAL;
        }
        if (!rc) {
            struct ipudrv_node *node = &out[*count];
            memset(node, 0, sizeof *node);
            node->id = (unsigned)*count;
            snprintf(node->transport, sizeof node->transport, "usb");
            snprintf(node->location, sizeof node->location, "usb:%.*s", (int)sizeof node->location - 5, names[i]);
            (*count)++;
        }
        free(names[i]);
    }
    return rc;
}

int ipudrv_discover_at(const char *devices, const char *pci_root, struct ipudrv_node *out, size_t max,
                       size_t *count, char *err, size_t err_len)
{
    *count = 0;
    if (!devices)
        devices = DEFAULT_DEVICES;
    /* An empty list is allowed (PCI cards only); an empty entry is not. */
    const char *p = devices;
    while (*devices) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        while (n && isspace((unsigned char)*p)) {
            p++;
            n--;
        }
        while (n && isspace((unsigned char)p[n - 1]))
            n--;
        if (*count >= max) {
            snprintf(err, err_len, "IPU_EMU_DEVICES names more than %zu cards; name fewer", max);
            return -EINVAL;
        }
        if (n == 3 && strncmp(p, "usb", 3) == 0) {
            /* IPU_EMU_USB_ROOT lets tests point the USB scan at a fake sysfs tree. */
            const char *usb_root = getenv("IPU_EMU_USB_ROOT");
            int rc = scan_usb(usb_root && *usb_root ? usb_root : DEFAULT_USB_ROOT, out, max, count, err, err_len);
            if (rc)
                return rc;
        } else {
            struct ipudrv_node *node = &out[*count];
            memset(node, 0, sizeof *node);
            node->id = (unsigned)*count;
            int rc = parse_entry(p, n, node, err, err_len);
            if (rc)
                return rc;
            (*count)++;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return scan_pci(pci_root ? pci_root : DEFAULT_PCI_ROOT, out, max, count);
}

int ipudrv_discover(struct ipudrv_node *out, size_t max, size_t *count, char *err, size_t err_len)
{
    /* IPU_EMU_PCI_ROOT lets tests point discovery at a fake sysfs tree. */
    return ipudrv_discover_at(getenv("IPU_EMU_DEVICES"), getenv("IPU_EMU_PCI_ROOT"), out, max, count, err, err_len);
}

/* A simulated card's knob from the environment: unset or empty is 0. */
static int env_unsigned(const char *name, unsigned max, unsigned *value, char *err, size_t err_len)
{
    const char *text = getenv(name);
    *value = 0;
    if (!text || !*text)
        return 0;
    char *end = NULL;
    unsigned long v = strtoul(text, &end, 10);
    if (*end || !isdigit((unsigned char)text[0]) || v > max) {
        snprintf(err, err_len, "%s='%s': expected a number from 0 to %u; unset it for the default", name, text, max);
        return -EINVAL;
    }
    *value = (unsigned)v;
    return 0;
}

int ipudrv_node_params(const struct ipudrv_node *node, struct ipudrv_open_params *p, char *err, size_t err_len)
{
    memset(p, 0, sizeof *p);
    p->size = sizeof *p;
    p->transport = node->transport;
    p->lock_policy = IPUDRV_LOCK_TRY;
    if (ipudrv_transport_is_shared(node->transport)) {
        p->location = node->location;
        return 0;
    }
    p->board = node->board;
    const char *trace = getenv("IPU_EMU_TRACE");
    p->trace = trace && *trace && strcmp(trace, "0") != 0;
    return env_unsigned("IPU_EMU_HOST_THREADS", IPUDRV_HOST_THREADS_MAX, &p->host_threads, err, err_len);
}
