/* Register helpers and the public register access functions. */
#include <errno.h>

#include "internal.h"

int ipudrv_rd(ipudrv_device *dev, uint32_t offset, uint32_t *value)
{
    int rc = dev->t->ops->reg_read(dev->t, offset, value);
    if (rc)
        return ipudrv_fail_transport(dev, rc, "reading register 0x%03x", offset);
    return 0;
}

int ipudrv_wr(ipudrv_device *dev, uint32_t offset, uint32_t value)
{
    int rc = dev->t->ops->reg_write(dev->t, offset, value);
    if (rc)
        return ipudrv_fail_transport(dev, rc, "writing register 0x%03x", offset);
    /* Every writer passes here, raw ipudrv_reg_write users too. */
    ipudrv_svc_note_write(dev, offset, value);
    return 0;
}

int ipudrv_status(ipudrv_device *dev, uint32_t *status)
{
    int rc = ipudrv_rd(dev, IPU_REG_STATUS, status);
    if (rc || !(dev->caps & IPU_REG_CAPS_HOST_SERVICE_MASK))
        return rc;
    return ipudrv_svc_serve(dev, status);
}

uint32_t ipudrv_irq_mask(const ipudrv_device *dev)
{
    return IPU_REG_IRQ_STATUS_HOST_SYNC_MASK | IPU_REG_IRQ_STATUS_DONE_MASK | IPU_REG_IRQ_STATUS_ERROR_MASK |
           IPU_REG_IRQ_STATUS_DMA_DONE_MASK |
           (dev->caps & IPU_REG_CAPS_HOST_SERVICE_MASK ? IPU_REG_IRQ_STATUS_SERVICE_MASK : 0);
}

int ipudrv_card_state(ipudrv_device *dev, uint32_t *state)
{
    uint32_t status = 0;
    int rc = ipudrv_status(dev, &status);
    if (rc)
        return rc;
    if (status == 0xffffffffu)
        return ipudrv_fail(dev, -EIO, "the card reads all ones: it is gone or hung; reset it (gc-reset)");
    *state = (status & IPU_REG_STATUS_STATE_MASK) >> IPU_REG_STATUS_STATE_SHIFT;
    return 0;
}

static int check_offset(ipudrv_device *dev, uint32_t offset, const char *what)
{
    if (offset % 4 || offset >= IPU_BAR_REGS_SIZE)
        return ipudrv_fail(dev, -EINVAL, "%s: register offset 0x%x is %s; use a 4-byte aligned offset below 0x%x",
                           what, offset, offset % 4 ? "not 4-byte aligned" : "beyond BAR0", IPU_BAR_REGS_SIZE);
    return 0;
}

int ipudrv_reg_read(ipudrv_device *dev, uint32_t offset, uint32_t *value)
{
    int rc = ipudrv_enter(dev, "ipudrv_reg_read");
    if (rc)
        return rc;
    rc = check_offset(dev, offset, "ipudrv_reg_read");
    if (!rc && !value)
        rc = ipudrv_fail(dev, -EINVAL, "ipudrv_reg_read: value is NULL");
    if (!rc)
        rc = offset == IPU_REG_STATUS ? ipudrv_status(dev, value) : ipudrv_rd(dev, offset, value);
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_reg_write(ipudrv_device *dev, uint32_t offset, uint32_t value)
{
    int rc = ipudrv_enter(dev, "ipudrv_reg_write");
    if (rc)
        return rc;
    rc = check_offset(dev, offset, "ipudrv_reg_write");
    if (!rc)
        rc = ipudrv_wr(dev, offset, value);
    ipudrv_leave(dev);
    return rc;
}
