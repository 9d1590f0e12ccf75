/* Build-time proof that the assembly copies of contract numbers match hw.h. */
#include "ipu_card/hw.h"
#include "ipu_rt/asm_constants.h"

_Static_assert(IPU_ASM_ERR_FIRMWARE_ABORT == IPU_ERR_FIRMWARE_ABORT, "asm copy of IPU_ERR_FIRMWARE_ABORT");
_Static_assert(IPU_ASM_VERTEX_ENTRY_OFFSET == IPU_VERTEX_ENTRY_ENTRY_OFFSET, "asm copy of ENTRY offset");
_Static_assert(IPU_ASM_VERTEX_STATE_OFFSET == IPU_VERTEX_ENTRY_STATE_OFFSET, "asm copy of STATE offset");
