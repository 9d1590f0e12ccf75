/* One tile program per fault class, chosen by the boot argument (a0). Each
 * case faults at the instruction labelled fault_<n>, whose address the host
 * test looks up in the symbol table and compares with the error record's PC. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    slli t0, a0, 2
    la t1, table
    add t1, t1, t0
    lw t1, 0(t1)
    jr t1
table:
    .word c_exit, c_illegal, c_fetch, c_load_misaligned, c_load_fault, c_store_misaligned, c_store_fault
    .word c_ecall, c_ebreak, c_bad_exchange, c_worker_misuse, c_watchdog, c_fail, c_csr_missing, c_hx_miss
    .word c_hx_range
c_exit:     li t0, 42; csrw IPU_CSR_EXIT, t0
c_illegal:
    .globl fault_1
fault_1: .word 0xffffffff
c_fetch:    li t0, 0x40; jr t0                     /* below SRAM: fetch fault at 0x40 */
c_load_misaligned:
    li t0, IPU_TILE_SRAM_BASE + 0x1001
    .globl fault_3
fault_3: lw t1, 0(t0)
c_load_fault:
    li t0, 0x10
    .globl fault_4
fault_4: lw t1, 0(t0)
c_store_misaligned:
    li t0, IPU_TILE_SRAM_BASE + 0x1002
    .globl fault_5
fault_5: sw t1, 0(t0)
c_store_fault:
    li t0, 0xfffffff0
    .globl fault_6
fault_6: sb t1, 0(t0)
c_ecall:
    .globl fault_7
fault_7: ecall
c_ebreak:
    .globl fault_8
fault_8: ebreak
c_bad_exchange:                                      /* sends to a tile that does not exist */
    la t0, bad_exchange_list
    .globl fault_9
fault_9: csrw IPU_CSR_EXCHANGE, t0
c_worker_misuse:
    li t0, 7                                         /* worker 7 does not exist */
    .globl fault_15
fault_15: csrw IPU_CSR_WORKER_START, t0
c_watchdog: j c_watchdog                           /* a hung tile */
c_fail:
    li t0, 1234; csrw IPU_CSR_FAIL_INFO, t0; li t0, IPU_ERR_VERTEX_FAILED
    .globl fault_13
fault_13: csrw IPU_CSR_FAIL, t0
c_csr_missing:
    .globl fault_csr
fault_csr: csrr t0, 0x7ff
c_hx_miss:                                           /* host exchange through no translation entry */
    li t0, 0x40000000; csrw IPU_CSR_HX_DEV_ADDR, t0
    li t0, IPU_TILE_SRAM_BASE + 0x1000; csrw IPU_CSR_HX_TILE_ADDR, t0
    li t0, 64
    .globl fault_10
fault_10: csrw IPU_CSR_HX_START, t0
    csrw IPU_CSR_EXIT, zero
c_hx_range:                                          /* a host exchange past the SRAM's end */
    li t0, IPU_TILE_SRAM_BASE + 0x1000; csrw IPU_CSR_HX_TILE_ADDR, t0
    li t0, 0x7ffffff0
    .globl fault_16
fault_16: csrw IPU_CSR_HX_START, t0
    csrw IPU_CSR_EXIT, zero

    .data
    .align 4
bad_exchange_list:
    .word 1, 9999, IPU_TILE_SRAM_BASE, IPU_TILE_SRAM_BASE, 4
