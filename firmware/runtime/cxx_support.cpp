// Freestanding C++ support for tile code: operator new/delete on newlib malloc, pure-virtual trap.
//
// There is no libstdc++ for the tile, so these few symbols that g++ emits
// calls to come from here. Without exceptions a failed allocation cannot
// throw: it faults the tile instead, which the host sees as an error record.
#include <stdlib.h>

#include "ipu_rt/tile.h"

namespace {
void *allocate(__SIZE_TYPE__ size)
{
    void *p = malloc(size != 0 ? size : 1);
    if (p == nullptr)
        ipu_fail(IPU_ERR_FIRMWARE_ABORT, IPU_RT_ABORT_OUT_OF_MEMORY);
    return p;
}
} // namespace

void *operator new(__SIZE_TYPE__ size) { return allocate(size); }
void *operator new[](__SIZE_TYPE__ size) { return allocate(size); }
void operator delete(void *p) noexcept { free(p); }
void operator delete[](void *p) noexcept { free(p); }
void operator delete(void *p, __SIZE_TYPE__) noexcept { free(p); }
void operator delete[](void *p, __SIZE_TYPE__) noexcept { free(p); }

// Called through the vtable slot of a pure virtual function (an object used
// during its own construction or destruction).
extern "C" void __cxa_pure_virtual() { ipu_fail(IPU_ERR_FIRMWARE_ABORT, IPU_RT_ABORT_PURE_VIRTUAL); }
extern "C" void __cxa_deleted_virtual() { ipu_fail(IPU_ERR_FIRMWARE_ABORT, IPU_RT_ABORT_PURE_VIRTUAL); }
