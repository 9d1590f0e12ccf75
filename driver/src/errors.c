/* Error messages (per handle and per thread), ipudrv_strerror and the names of
 * the contract's enumerations. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static _Thread_local char thread_msg[1024];

static void set_device_text(ipudrv_device *dev, const char *text)
{
    char *copy = strdup(text);
    if (!copy)
        return; /* keep the older message rather than fail the failure path */
    free(dev->last_error);
    dev->last_error = copy;
}

int ipudrv_fail_text(ipudrv_device *dev, int code, const char *text)
{
    snprintf(thread_msg, sizeof thread_msg, "%s", text);
    if (dev)
        set_device_text(dev, text);
    return code;
}

int ipudrv_fail(ipudrv_device *dev, int code, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ipudrv_fail_text(dev, code, buf);
}

int ipudrv_fail_transport(ipudrv_device *dev, int code, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* "device 0 (usb:1-1)"; a card opened by its place is already labelled by it ("card usb:1-1"). */
    char card[IPUDRV_LOCATION_MAX * 2 + 16];
    const struct ipudrv_node *n = &dev->node;
    if (strstr(n->label, n->location))
        snprintf(card, sizeof card, "%s", n->label);
    else
        snprintf(card, sizeof card, "%s (%s)", n->label, n->location);
    const char *transport = dev->t ? dev->t->ops->name : n->transport;
    if (code == -ENODEV)
        return ipudrv_fail(dev, code, "%s is gone: %s failed (%s): the %s transport lost the card (cable "
                           "pulled, board powered off or its simulation stopped); plug it back in and open the card "
                           "again (gc-info -l lists the cards)", card, what, ipudrv_strerror(code), transport);
    /* -EIO from a transport is a card that stopped answering (a link past its deadline, or one the recovery
     * sequence could not bring back in step): reported as -ENOLINK, so that callers tell it from the -EIO of a
     * card that answered with an error (a DMA failure, a card in ERROR) by the code, not the message. */
    if (code == -EIO || code == -ENOLINK)
        return ipudrv_fail(dev, -ENOLINK, "%s stopped answering: %s failed (%s) over its %s transport: check the "
                           "card (or its simulation) with gc-info, then open it again", card, what,
                           ipudrv_strerror(-ENOLINK), transport);
    return ipudrv_fail(dev, code, "%s: %s failed (%s); is the card still there?", card, what,
                       ipudrv_strerror(code));
}

void ipudrv_error_free(ipudrv_device *dev)
{
    free(dev->last_error);
    dev->last_error = NULL;
}

const char *ipudrv_last_error(const ipudrv_device *dev)
{
    /* A closed or foreign handle is never dereferenced. */
    if (dev && ipudrv_registry_contains(dev))
        return dev->last_error ? dev->last_error : "";
    return thread_msg;
}

/* The build passes the CMake project version; driver/CMakeLists.txt checks
 * at configure time that the public header's IPUDRV_VERSION_STRING agrees. */
#ifndef IPUDRV_BUILD_VERSION
#error "IPUDRV_BUILD_VERSION (the CMake project version) must be defined by the build"
#endif

const char *ipudrv_version(void)
{
    return IPUDRV_BUILD_VERSION;
}

const char *ipudrv_strerror(int code)
{
    switch (code < 0 ? -code : code) {
    case 0: return "success";
    case EINVAL: return "invalid argument";
    case EBADF: return "not an open device handle (closed, or never opened)";
    case ENODEV: return "no such device";
    case EBUSY: return "device in use (by another handle or process, or its tiles are running)";
    case ENOTSUP: return "transport not available in this build";
    case EACCES: return "permission denied";
    case ENOENT: return "not found";
    case EIO: return "the card reported an error or does not answer";
    case ENOLINK: return "the card stopped answering over its transport (the handle is dead)";
    case ENOMEM: return "out of memory";
    case E2BIG: return "larger than one translation entry (128 MiB)";
    case EEXIST: return "overlaps an existing translation entry";
    case ENOSPC: return "translation table full (64 entries) or no free device address range";
    case EFAULT: return "the card refused a host-memory access (unmapped, wrong permission or refused by the IOMMU)";
    case ETIMEDOUT: return "timed out (see the watchdog report)";
    case EAGAIN: return "nothing pending";
    default: return strerror(code < 0 ? -code : code);
    }
}

#define NAME(tbl, v) ((v) < sizeof(tbl) / sizeof(tbl[0]) && tbl[v] ? tbl[v] : "UNKNOWN")

const char *ipudrv_card_state_name(uint32_t state)
{
    static const char *const names[] = {"IDLE", "RUNNING", "HOST_SYNC", "DONE", "ERROR"};
    return NAME(names, state);
}

const char *ipudrv_tile_state_name(uint32_t state)
{
    static const char *const names[] = {"OFF", "READY", "RUNNING", "SYNC_WAIT", "EXITED", "ERROR"};
    return NAME(names, state);
}

const char *ipudrv_ctx_state_name(uint32_t state)
{
    static const char *const names[] = {"IDLE", "RUNNING", "BLOCKED", "DONE", "FAULTED"};
    return NAME(names, state);
}

const char *ipudrv_err_name(uint32_t cause)
{
    static const char *const names[] = {
        "NONE", "ILLEGAL_INSTRUCTION", "FETCH_FAULT", "LOAD_MISALIGNED", "LOAD_FAULT", "STORE_MISALIGNED",
        "STORE_FAULT", "ECALL", "EBREAK", "BAD_EXCHANGE", "XLAT_MISS", "XLAT_PERMISSION", "DMA_BAD_DESCRIPTOR",
        "VERTEX_FAILED", "BAD_CONTROL_PROGRAM", "WORKER_MISUSE", "WATCHDOG", "FIRMWARE_ABORT", "HOST_EXCHANGE",
        "STACK_OVERFLOW", "LOCKSTEP_DIVERGENCE", "XLAT_BAD_ENTRY"};
    _Static_assert(sizeof names / sizeof names[0] == IPU_ERR_XLAT_BAD_ENTRY + 1, "a name for every IPU_ERR_*");
    return NAME(names, cause);
}

const char *ipudrv_err_describe(uint32_t cause, char *buf, size_t len)
{
    if (cause == IPU_ERR_NONE)
        snprintf(buf, len, "NONE (cause 0: the card reported an error without a cause, e.g. a firmware FAIL "
                 "with code 0)");
    else if (strcmp(ipudrv_err_name(cause), "UNKNOWN") == 0)
        snprintf(buf, len, "UNKNOWN cause %u (0x%x: not an ERR code of contract %u.%u; a firmware FAIL with a "
                 "code of its own, or a newer card than this driver)", cause, cause, IPU_CONTRACT_VERSION_MAJOR,
                 IPU_CONTRACT_VERSION_MINOR);
    else
        snprintf(buf, len, "%s", ipudrv_err_name(cause));
    return buf;
}
