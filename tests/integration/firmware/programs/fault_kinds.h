/* The fault cases of faults.c, selected by TILE_BOOT_ARG; shared with the host test. */
#ifndef FW_FAULT_KINDS_H
#define FW_FAULT_KINDS_H

enum fw_fault_kind {
    FW_FAULT_ILLEGAL = 1,      /* supervisor: an all-zero instruction word */
    FW_FAULT_FETCH,            /* supervisor: call through a null function pointer */
    FW_FAULT_LOAD,             /* supervisor: load from address 0 */
    FW_FAULT_STORE,            /* supervisor: store to address 16 */
    FW_FAULT_LOAD_MISALIGNED,  /* supervisor: word load from SRAM_BASE + 2 */
    FW_FAULT_STORE_MISALIGNED, /* supervisor: word store to SRAM_BASE + 2 */
    FW_FAULT_ECALL,            /* supervisor: ecall */
    FW_FAULT_EBREAK,           /* supervisor: ebreak */
    FW_FAULT_ABORT,            /* abort(): firmware abort, info 0x100 + SIGABRT */
    FW_FAULT_WORKER_LOAD,      /* a vertex loads from address 0: context is the worker */
    FW_FAULT_VERTEX_FALSE,     /* vertex 7 of 8 returns false: ERR_VERTEX_FAILED, info 7 */
    FW_FAULT_BAD_PROGRAM,      /* unknown opcode at word 2: ERR_BAD_CONTROL_PROGRAM, info 2 */
    FW_FAULT_BAD_EXCHANGE,     /* exchange to a tile that does not exist */
    FW_FAULT_WORKER_MISUSE,    /* a vertex writes the supervisor-only EXIT CSR */
    FW_FAULT_HOST_EXCHANGE,    /* an HX descriptor with a length the HX_START CSR cannot carry */
    FW_FAULT_XLAT_MISS,        /* stream copy from an unmapped device address */
    FW_FAULT_WORKER_STACK,     /* a vertex with 4 KiB of locals on a 1 KiB worker stack: ERR_STACK_OVERFLOW */
    FW_FAULT_COUNT
};

/* Device address that no translation entry maps in the XLAT_MISS case. */
#define FW_FAULT_UNMAPPED_DEV_ADDR 0x40000000u

#endif /* FW_FAULT_KINDS_H */
