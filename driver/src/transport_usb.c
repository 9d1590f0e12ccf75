/* The `usb` transport: a card behind the host link protocol on an FTDI USB
 * UART (contract/card.toml [[link_usb]]: the iCEBreaker's FT2232H, or the
 * FT232 QEMU's usb-serial device emulates), through libusb-1.0. The card's
 * location is its place on the bus, "usb:<bus>-<port>[.<port>...]" as sysfs
 * names it (discovery.c lists the cards by vendor and product), so a board that
 * is unplugged and plugged back into the same port is the same card.
 * Each open makes its own libusb context and enumerates afresh: nothing is
 * cached across a replug. The kernel's ftdi_sio driver, if bound, is detached
 * while the card is open. An unplugged cable turns every transfer into
 * -ENODEV at once (usbfs fails the transfers in flight; the link then stays dead,
 * see link.h), and the core's message names the card and says it is gone: never
 * a hang. After the replug, a new open finds the device at the same place. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "link.h"

#if IPUDRV_HAVE_LIBUSB
#include <libusb.h>

/* A request's answer may come from a slow simulation behind the cable. */
#define LINK_TIMEOUT_MS 10000
/* Bulk OUT transfers are short (one frame); a stuck one means a dead link. */
#define WRITE_TIMEOUT_MS 2000
/* FTDI vendor requests (the chips' documented control interface). */
enum {
    FTDI_RESET = 0x00,      /* value 0: reset; 1: purge RX; 2: purge TX */
    FTDI_SET_FLOW = 0x02,   /* value 0: no flow control */
    FTDI_SET_BAUD = 0x03,   /* value/index: the encoded divisor */
    FTDI_SET_DATA = 0x04,   /* value 8: 8 data bits, no parity, 1 stop bit */
    FTDI_SET_LATENCY = 0x09, /* value: ms the chip holds a short IN packet */
    FTDI_SET_BITMODE = 0x0B, /* value 0: plain UART */
};
/* Every IN packet starts with the chip's two modem-status bytes. */
#define FTDI_STATUS_BYTES 2

struct usb_transport {
    struct ipudrv_transport base;
    struct ipudrv_link link;
    libusb_context *ctx;
    libusb_device_handle *handle;
    int interface, claimed;
    unsigned char ep_in, ep_out;
    unsigned in_packet; /* wMaxPacketSize of the IN endpoint */
    int gone;           /* the device went away: every later call fails at once */
};

static struct usb_transport *ut(struct ipudrv_transport *t)
{
    return (struct usb_transport *)t;
}

static int usb_code(int libusb_rc)
{
    switch (libusb_rc) {
    case LIBUSB_ERROR_TIMEOUT: return -ETIMEDOUT;
    case LIBUSB_ERROR_NO_DEVICE:
    case LIBUSB_ERROR_PIPE:
    case LIBUSB_ERROR_IO: return -ENODEV;
    case LIBUSB_ERROR_ACCESS: return -EACCES;
    case LIBUSB_ERROR_BUSY: return -EBUSY;
    case LIBUSB_ERROR_NO_MEM: return -ENOMEM;
    case LIBUSB_ERROR_NOT_FOUND: return -ENOENT;
    default: return -EIO;
    }
}

static int usb_port_write(void *ctx, const uint8_t *buf, size_t len)
{
    struct usb_transport *u = ctx;
    if (u->gone)
        return -ENODEV;
    while (len) {
        int done = 0;
        int rc = libusb_bulk_transfer(u->handle, u->ep_out, (unsigned char *)buf, (int)len, &done, WRITE_TIMEOUT_MS);
        if (rc && done == 0) {
            rc = usb_code(rc);
            u->gone = rc == -ENODEV;
            return rc;
        }
        buf += done;
        len -= (size_t)done;
    }
    return 0;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads packets until one carries link bytes or the time is up: an idle FTDI
 * chip answers every latency period with a status-only packet. */
static int usb_port_read(void *ctx, uint8_t *buf, size_t cap, int timeout_ms)
{
    struct usb_transport *u = ctx;
    const int64_t deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    unsigned char packet[4096];
    /* Whole packets only: a partial one would lose its tail. */
    size_t want = cap / (u->in_packet - FTDI_STATUS_BYTES) * u->in_packet;
    if (want > sizeof packet)
        want = sizeof packet / u->in_packet * u->in_packet;
    if (want == 0)
        want = u->in_packet;
    for (;;) {
        if (u->gone)
            return -ENODEV;
        int64_t left = deadline - now_ms();
        int got = 0;
        int rc = libusb_bulk_transfer(u->handle, u->ep_in, packet, (int)want, &got,
                                      left > 0 ? (unsigned)left : 1u);
        if (rc && rc != LIBUSB_ERROR_TIMEOUT) {
            rc = usb_code(rc);
            u->gone = rc == -ENODEV;
            return rc;
        }
        /* Strips the status bytes at the start of every packet. */
        size_t n = 0;
        for (int off = 0; off < got; off += (int)u->in_packet) {
            int end = off + (int)u->in_packet < got ? off + (int)u->in_packet : got;
            for (int i = off + FTDI_STATUS_BYTES; i < end && n < cap; i++)
                buf[n++] = packet[i];
        }
        if (n)
            return (int)n;
        if (now_ms() >= deadline)
            return -ETIMEDOUT;
    }
}

static int ftdi_control(struct usb_transport *u, uint8_t request, uint16_t value, uint16_t index)
{
    int rc = libusb_control_transfer(u->handle, LIBUSB_REQUEST_TYPE_VENDOR | LIBUSB_RECIPIENT_DEVICE |
                                     LIBUSB_ENDPOINT_OUT, request, value, index, NULL, 0, WRITE_TIMEOUT_MS);
    /* A stalled request is one the chip does not know, not a gone device. */
    return rc == LIBUSB_ERROR_PIPE ? -EPIPE : rc < 0 ? usb_code(rc) : 0;
}

/* The FTDI baud divisor: a 14-bit integer part and an eighths fraction from a
 * 3 MHz reference (12 MHz on the H chips, with their divide-by-5 bypassed). */
static void ftdi_baud(unsigned baud, int h_chip, uint16_t *value, uint16_t *index_high)
{
    static const unsigned frac_code[8] = {0, 3, 2, 4, 1, 5, 6, 7};
    const unsigned long ref = h_chip ? 12000000ul : 3000000ul;
    unsigned long eighths = (ref * 16ul / baud + 1) / 2;
    if (eighths > 0x1ffff)
        eighths = 0x1ffff;
    unsigned long encoded = (eighths >> 3) | ((unsigned long)frac_code[eighths & 7] << 14);
    if (h_chip)
        encoded |= 0x20000ul;
    *value = (uint16_t)encoded;
    *index_high = (uint16_t)(h_chip ? (encoded >> 8) & 0xff00u : encoded >> 16);
}

/* UART mode, 8N1 at the link's baud, no flow control, short latency, and
 * nothing stale in the chip's buffers. */
static int ftdi_setup(struct usb_transport *u, int h_chip)
{
    const uint16_t channel = (uint16_t)(u->interface + 1); /* FTDI numbers channels from 1 */
    uint16_t baud_value, baud_high;
    ftdi_baud(IPU_LINK_BAUD, h_chip, &baud_value, &baud_high);
    int rc;
    /* Only the H chips have bit modes (a JTAG or MPSSE user may have left one on); the one-channel chips (and
     * QEMU's usb-serial) stall the request. */
    if ((rc = ftdi_control(u, FTDI_RESET, 0, channel)) ||
        (h_chip && (rc = ftdi_control(u, FTDI_SET_BITMODE, 0, channel))) ||
        (rc = ftdi_control(u, FTDI_SET_BAUD, baud_value, (uint16_t)(baud_high | (h_chip ? channel : 0)))) ||
        (rc = ftdi_control(u, FTDI_SET_DATA, 8, channel)) || (rc = ftdi_control(u, FTDI_SET_FLOW, 0, channel)) ||
        (rc = ftdi_control(u, FTDI_SET_LATENCY, 1, channel)) || (rc = ftdi_control(u, FTDI_RESET, 1, channel)) ||
        (rc = ftdi_control(u, FTDI_RESET, 2, channel)))
        return rc;
    return 0;
}

/* "<bus>-<port>[.<port>...]" into the bus number and the port path. */
static int parse_place(const char *place, int *bus, uint8_t *ports, int *nports)
{
    char *end = NULL;
    long b = strtol(place, &end, 10);
    if (end == place || *end != '-' || b < 1 || b > 255)
        return -EINVAL;
    *bus = (int)b;
    *nports = 0;
    const char *p = end + 1;
    for (;;) {
        long port = strtol(p, &end, 10);
        if (end == p || port < 1 || port > 255 || *nports == 7)
            return -EINVAL;
        ports[(*nports)++] = (uint8_t)port;
        if (*end == '\0')
            return 0;
        if (*end != '.')
            return -EINVAL;
        p = end + 1;
    }
}

/* The link chip's interface for a vendor/product pair, or -1. */
static int link_interface(uint16_t vendor, uint16_t product, int *h_chip)
{
    static const struct { unsigned vendor, product, interface; } ids[] = IPU_LINK_USB_IDS;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (ids[i].vendor == vendor && ids[i].product == product) {
            *h_chip = product == IPU_LINK_USB_FT2232H_PRODUCT;
            return (int)ids[i].interface;
        }
    return -1;
}

static libusb_device *find_device(libusb_context *ctx, int bus, const uint8_t *ports, int nports)
{
    libusb_device **list = NULL, *found = NULL;
    ssize_t n = libusb_get_device_list(ctx, &list);
    for (ssize_t i = 0; i < n && !found; i++) {
        uint8_t path[8];
        int len = libusb_get_port_numbers(list[i], path, (int)sizeof path);
        if (libusb_get_bus_number(list[i]) == bus && len == nports && memcmp(path, ports, (size_t)nports) == 0)
            found = libusb_ref_device(list[i]);
    }
    if (n >= 0)
        libusb_free_device_list(list, 1);
    return found;
}

/* The bulk endpoints of the link's interface. */
static int find_endpoints(struct usb_transport *u, libusb_device *d)
{
    struct libusb_config_descriptor *config = NULL;
    int rc = libusb_get_active_config_descriptor(d, &config);
    if (rc)
        return usb_code(rc);
    rc = -ENOENT;
    if (u->interface < config->bNumInterfaces && config->interface[u->interface].num_altsetting > 0) {
        const struct libusb_interface_descriptor *alt = &config->interface[u->interface].altsetting[0];
        for (int i = 0; i < alt->bNumEndpoints; i++) {
            const struct libusb_endpoint_descriptor *ep = &alt->endpoint[i];
            if ((ep->bmAttributes & 3) != LIBUSB_TRANSFER_TYPE_BULK)
                continue;
            if (ep->bEndpointAddress & LIBUSB_ENDPOINT_IN) {
                u->ep_in = ep->bEndpointAddress;
                u->in_packet = ep->wMaxPacketSize;
            } else {
                u->ep_out = ep->bEndpointAddress;
            }
        }
        if (u->ep_in && u->ep_out && u->in_packet > FTDI_STATUS_BYTES)
            rc = 0;
    }
    libusb_free_config_descriptor(config);
    return rc;
}

static void usb_close(struct ipudrv_transport *t)
{
    struct usb_transport *u = ut(t);
    if (u->handle) {
        if (u->claimed)
            libusb_release_interface(u->handle, u->interface);
        libusb_close(u->handle);
    }
    if (u->ctx)
        libusb_exit(u->ctx);
    ipudrv_link_release(&u->link);
    free(u);
}

static int usb_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                    char *err, size_t err_len)
{
    (void)board;
    const char *place = node->location;
    if (strncmp(place, "usb:", 4) == 0)
        place += 4;
    int bus = 0, nports = 0;
    uint8_t ports[7];
    if (parse_place(place, &bus, ports, &nports)) {
        snprintf(err, err_len, "usb card '%s': name it by its place on the bus as sysfs does, e.g. "
                 "IPU_EMU_DEVICES=usb:1-2 or usb:3-1.4 (gc-info -l lists the usb cards found)", place);
        return -EINVAL;
    }
    struct usb_transport *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    u->base.ops = &ipudrv_transport_usb;
    int rc = libusb_init(&u->ctx);
    if (rc) {
        u->ctx = NULL;
        snprintf(err, err_len, "usb card %s: libusb cannot start (%s); is usbfs (/dev/bus/usb) there?", place,
                 libusb_strerror(rc));
        usb_close(&u->base);
        return -EIO;
    }
    libusb_device *d = find_device(u->ctx, bus, ports, nports);
    struct libusb_device_descriptor desc;
    int h_chip = 0;
    if (!d || libusb_get_device_descriptor(d, &desc) ||
        (u->interface = link_interface(desc.idVendor, desc.idProduct, &h_chip)) < 0) {
        snprintf(err, err_len, "usb card %s: %s; plug the board in (or check the cable) and list the cards with "
                 "gc-info -l", place, d ? "the device there is not an ipu-emu link chip (FTDI UART)" :
                 "no USB device at that place");
        if (d)
            libusb_unref_device(d);
        usb_close(&u->base);
        return -ENODEV;
    }
    rc = libusb_open(d, &u->handle);
    if (rc == 0)
        rc = find_endpoints(u, d) ? LIBUSB_ERROR_NOT_FOUND : 0;
    libusb_unref_device(d);
    if (rc == 0) {
        libusb_set_auto_detach_kernel_driver(u->handle, 1);
        rc = libusb_claim_interface(u->handle, u->interface);
        u->claimed = rc == 0;
    }
    if (rc) {
        snprintf(err, err_len, "usb card %s: cannot open the link chip's interface %d (%s)%s", place, u->interface,
                 libusb_strerror(rc),
                 rc == LIBUSB_ERROR_ACCESS ? "; give your user access to /dev/bus/usb (a udev rule) or run as root" :
                 rc == LIBUSB_ERROR_BUSY ? "; another program holds it: close it (gc-info -l shows the holder)" : "");
        int code = usb_code(rc);
        usb_close(&u->base);
        return code;
    }
    if ((rc = ftdi_setup(u, h_chip))) {
        snprintf(err, err_len, "usb card %s: the link chip refused its UART setup (%s); unplug and plug the board "
                 "back in", place, ipudrv_strerror(rc));
        usb_close(&u->base);
        return rc;
    }
    int timeout_ms;
    if ((rc = ipudrv_link_timeout(LINK_TIMEOUT_MS, &timeout_ms, err, err_len))) {
        usb_close(&u->base);
        return rc;
    }
    struct ipudrv_link_port port = {.write = usb_port_write, .read = usb_port_read, .ctx = u};
    ipudrv_link_init(&u->link, &port, timeout_ms);
    *out = &u->base;
    return 0;
}

static int usb_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    return ipudrv_link_reg_read(&ut(t)->link, offset, value);
}

static int usb_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    return ipudrv_link_reg_write(&ut(t)->link, offset, value);
}

static int usb_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    return ipudrv_link_window_read(&ut(t)->link, offset, buf, len);
}

static int usb_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    return ipudrv_link_window_write(&ut(t)->link, offset, buf, len);
}

static int usb_progress(struct ipudrv_transport *t, int max_ms)
{
    return ipudrv_link_wait(&ut(t)->link, max_ms);
}

#else /* !IPUDRV_HAVE_LIBUSB */

static int usb_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                    char *err, size_t err_len)
{
    (void)board;
    (void)out;
    snprintf(err, err_len, "usb card %s: this libipudrv was built without libusb-1.0; install libusb-1.0-0-dev "
             "and rebuild", node->location);
    return -ENOTSUP;
}

static void usb_close(struct ipudrv_transport *t)
{
    free(t);
}

static int usb_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    (void)t, (void)offset, (void)value;
    return -ENOTSUP;
}

static int usb_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    (void)t, (void)offset, (void)value;
    return -ENOTSUP;
}

static int usb_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    (void)t, (void)offset, (void)buf, (void)len;
    return -ENOTSUP;
}

static int usb_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    (void)t, (void)offset, (void)buf, (void)len;
    return -ENOTSUP;
}

static int usb_progress(struct ipudrv_transport *t, int max_ms)
{
    (void)t, (void)max_ms;
    return -ENOTSUP;
}

#endif

static int usb_mem_alloc(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus)
{
#if IPUDRV_HAVE_LIBUSB
    return ipudrv_link_mem_alloc(&ut(t)->link, size, va, bus);
#else
    (void)t, (void)size, (void)va, (void)bus;
    return -ENOTSUP;
#endif
}

static void usb_mem_free(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus)
{
    (void)size, (void)bus;
#if IPUDRV_HAVE_LIBUSB
    ipudrv_link_mem_free(&ut(t)->link, va);
#else
    (void)t, (void)va;
#endif
}

const struct ipudrv_transport_ops ipudrv_transport_usb = {
    .name = "usb",
    .window_preferred = 1,
    .open = usb_open,
    .close = usb_close,
    .reg_read = usb_reg_read,
    .reg_write = usb_reg_write,
    .window_read = usb_window_read,
    .window_write = usb_window_write,
    .mem_alloc = usb_mem_alloc,
    .mem_free = usb_mem_free,
    .progress = usb_progress,
};
