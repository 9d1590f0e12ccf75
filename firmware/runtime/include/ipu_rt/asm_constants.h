/* Contract numbers for assembly files. hw.h writes most numbers with a C 'u'
 * suffix, which the assembler rejects, so .S files use these copies instead;
 * runtime/asm_constants_check.c asserts at build time that they still match. */
#ifndef IPU_RT_ASM_CONSTANTS_H
#define IPU_RT_ASM_CONSTANTS_H

#define IPU_ASM_ERR_FIRMWARE_ABORT 17    /* IPU_ERR_FIRMWARE_ABORT */
#define IPU_ASM_VERTEX_ENTRY_OFFSET 0    /* IPU_VERTEX_ENTRY_ENTRY_OFFSET */
#define IPU_ASM_VERTEX_STATE_OFFSET 4    /* IPU_VERTEX_ENTRY_STATE_OFFSET */

#endif /* IPU_RT_ASM_CONSTANTS_H */
