/* The set of live handles: lets every entry point refuse a closed or foreign
 * handle (-EBADF) without dereferencing it. */
#include <errno.h>

#include "internal.h"

static pthread_mutex_t registry_mutex = PTHREAD_MUTEX_INITIALIZER;
static ipudrv_device *live[IPUDRV_NODES_MAX * 4];

int ipudrv_registry_add(ipudrv_device *dev)
{
    int rc = -ENOMEM;
    pthread_mutex_lock(&registry_mutex);
    for (size_t i = 0; i < sizeof live / sizeof live[0]; i++)
        if (!live[i]) {
            live[i] = dev;
            rc = 0;
            break;
        }
    pthread_mutex_unlock(&registry_mutex);
    return rc;
}

static int find_locked(const ipudrv_device *dev)
{
    for (size_t i = 0; dev && i < sizeof live / sizeof live[0]; i++)
        if (live[i] == dev)
            return (int)i;
    return -1;
}

int ipudrv_registry_remove(ipudrv_device *dev)
{
    pthread_mutex_lock(&registry_mutex);
    int i = find_locked(dev);
    if (i >= 0)
        live[i] = NULL;
    pthread_mutex_unlock(&registry_mutex);
    return i >= 0 ? 0 : -EBADF;
}

int ipudrv_registry_contains(const ipudrv_device *dev)
{
    pthread_mutex_lock(&registry_mutex);
    int found = find_locked(dev) >= 0;
    pthread_mutex_unlock(&registry_mutex);
    return found;
}

int ipudrv_enter(ipudrv_device *dev, const char *what)
{
    pthread_mutex_lock(&registry_mutex);
    if (find_locked(dev) < 0) {
        pthread_mutex_unlock(&registry_mutex);
        return ipudrv_fail(NULL, -EBADF, "%s: the device handle is NULL, closed or was never opened; "
                           "open the device with ipudrv_open first", what);
    }
    /* Locked under the registry lock so that a concurrent close cannot free it in between. */
    pthread_mutex_lock(&dev->mutex);
    pthread_mutex_unlock(&registry_mutex);
    return 0;
}

void ipudrv_leave(ipudrv_device *dev)
{
    pthread_mutex_unlock(&dev->mutex);
}
