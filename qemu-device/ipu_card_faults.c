/*
 * ipu-card: fault injection, the inject-* properties. Class properties with
 * their own setters, so that QMP's qom-set changes them on a running VM as
 * well as -device sets them at start (static qdev properties are frozen at
 * realize). Each arms the card's injection through the backend interface
 * (ipu_backend_inject: the model has it, a recording card passes it on, the
 * RTL and lock-step cards refuse it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"

#include "ipu_card/hw.h"
#include "ipu_card.h"

int ipu_card_apply_faults(IpuCardState *s, Error **errp)
{
    static const struct ipu_backend_faults none;
    if (!s->core) {
        return 0; /* before realize: realize applies them */
    }
    int rc = ipu_backend_inject(s->core->card, &s->faults);
    if (rc == -ENOTSUP && memcmp(&s->faults, &none, sizeof(none)) == 0) {
        return 0; /* nothing to arm on a card without injection */
    }
    if (rc != 0) {
        error_setg(errp, "%s: cannot inject faults into the %s card (%s): injection needs backend=model",
                   TYPE_IPU_CARD, s->core->backend_name, strerror(-rc));
    }
    return rc;
}

/* Re-reads what the card did with one-shot faults (a fired DMA error clears). */
static void ipu_card_sync_faults(IpuCardState *s)
{
    if (s->core) {
        ipu_backend_injected(s->core->card, &s->faults);
    }
}

typedef struct IpuCardFaultProp {
    const char *name;
    size_t offset; /* of the uint32_t or int in struct ipu_backend_faults */
    bool is_bool;
    const char *desc;
} IpuCardFaultProp;

static const IpuCardFaultProp ipu_card_fault_props[] = {
    { "inject-dma-error", offsetof(struct ipu_backend_faults, dma_error), false,
      "ERR_* code (1-255): the next DMA chain fails with this cause; 0 none; clears when it fires" },
    { "inject-drop-irq", offsetof(struct ipu_backend_faults, drop_irq_mask), false,
      "bit mask of MSI-X vectors whose next message is lost" },
    { "inject-delay-irq", offsetof(struct ipu_backend_faults, delay_irq_mask), false,
      "bit mask of MSI-X vectors whose messages are held back for inject-irq-delay steps" },
    { "inject-irq-delay", offsetof(struct ipu_backend_faults, irq_delay), false,
      "steps (advance calls) a delayed message waits" },
    { "inject-removed", offsetof(struct ipu_backend_faults, removed), true,
      "surprise removal: BAR reads return all ones, writes are dropped, no DMA or interrupts" },
    { "inject-stall-dma", offsetof(struct ipu_backend_faults, stall_dma), true,
      "a DMA chain in flight makes no progress (DMA_STATUS stays BUSY)" },
};

static void ipu_card_fault_get(Object *obj, Visitor *v, const char *name, void *opaque, Error **errp)
{
    IpuCardState *s = IPU_CARD(obj);
    const IpuCardFaultProp *p = opaque;
    ipu_card_sync_faults(s);
    if (p->is_bool) {
        bool b = *(int *)((char *)&s->faults + p->offset) != 0;
        visit_type_bool(v, name, &b, errp);
    } else {
        uint32_t u = *(uint32_t *)((char *)&s->faults + p->offset);
        visit_type_uint32(v, name, &u, errp);
    }
}

static void ipu_card_fault_set(Object *obj, Visitor *v, const char *name, void *opaque, Error **errp)
{
    IpuCardState *s = IPU_CARD(obj);
    const IpuCardFaultProp *p = opaque;
    struct ipu_backend_faults old;
    ipu_card_sync_faults(s);
    old = s->faults;
    if (p->is_bool) {
        bool b;
        if (!visit_type_bool(v, name, &b, errp)) {
            return;
        }
        *(int *)((char *)&s->faults + p->offset) = b;
    } else {
        uint32_t u;
        if (!visit_type_uint32(v, name, &u, errp)) {
            return;
        }
        *(uint32_t *)((char *)&s->faults + p->offset) = u;
    }
    if (s->faults.dma_error > 255 || s->faults.drop_irq_mask >> IPU_PCI_MSIX_VECTORS ||
        s->faults.delay_irq_mask >> IPU_PCI_MSIX_VECTORS) {
        error_setg(errp, "%s: %s is out of range (ERR codes 1-255; vector masks below 0x%x)", TYPE_IPU_CARD,
                   name, 1u << IPU_PCI_MSIX_VECTORS);
        s->faults = old;
        return;
    }
    if (ipu_card_apply_faults(s, errp) != 0) {
        s->faults = old;
        return;
    }
    if (s->core) {
        ipu_card_update_intx(s->core);
        ipu_card_kick(s->core); /* a cleared stall or a released interrupt has work */
    }
}

void ipu_card_add_fault_properties(ObjectClass *klass)
{
    for (size_t i = 0; i < ARRAY_SIZE(ipu_card_fault_props); i++) {
        const IpuCardFaultProp *p = &ipu_card_fault_props[i];
        object_class_property_add(klass, p->name, p->is_bool ? "bool" : "uint32", ipu_card_fault_get,
                                  ipu_card_fault_set, NULL, (void *)p);
        object_class_property_set_description(klass, p->name, p->desc);
    }
}
