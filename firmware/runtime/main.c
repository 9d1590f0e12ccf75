/* The default main() of runtime images: run the control program the host passed in a0.
 *
 * It lives alone in its archive member so that the linker only takes it when
 * the image defines no main() of its own (graph-program images have none). */
#include <stdint.h>

#include "ipu_rt/runtime.h"
#include "ipu_rt/tile.h"

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (ipu_boot_arg == 0)
        ipu_fail(IPU_ERR_FIRMWARE_ABORT, IPU_RT_ABORT_NO_PROGRAM);
    return ipu_rt_run((const uint32_t *)(uintptr_t)ipu_boot_arg);
}
