/* The table of transports built into the library. */
#include "transport.h"

#include <string.h>

static const struct ipudrv_transport_ops *const transports[] = {
    &ipudrv_transport_model,
    &ipudrv_transport_vfio,
    &ipudrv_transport_rtl,
    &ipudrv_transport_socket,
    &ipudrv_transport_usb,
};

const struct ipudrv_transport_ops *ipudrv_transport_find(const char *name)
{
    for (size_t i = 0; i < sizeof transports / sizeof transports[0]; i++)
        if (strcmp(transports[i]->name, name) == 0)
            return transports[i];
    return NULL;
}
