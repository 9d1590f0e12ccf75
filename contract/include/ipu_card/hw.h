/* GENERATED FILE - DO NOT EDIT. Source: contract/card.toml, generator: contract/generate.py (make regen). */
/* The virtual IPU card's hardware interface: PCI identity, BAR0 registers,
 * tile address map, tile CSRs, memory formats, error codes and the control
 * program encoding. Usable from C11, C++ and assembly (numbers only there). */
#ifndef IPU_CARD_HW_H
#define IPU_CARD_HW_H

#define IPU_CONTRACT_VERSION_MAJOR 1u
#define IPU_CONTRACT_VERSION_MINOR 2u

/* PCI identity */
#define IPU_PCI_VENDOR_ID 0x1234u
#define IPU_PCI_DEVICE_ID 0x11e9u
#define IPU_PCI_SUBSYSTEM_VENDOR_ID 0x1234u
#define IPU_PCI_SUBSYSTEM_ID 0x0001u
#define IPU_PCI_CLASS_CODE 0x1200u
#define IPU_PCI_REVISION 0x0001u
#define IPU_PCI_MSIX_VECTORS 0x0004u
#define IPU_PCI_LINK_CAP_ID 0x0009u
#define IPU_PCI_LINK_CAP_KIND 0x004cu

/* BARs */
#define IPU_BAR_REGS 0u
#define IPU_BAR_REGS_SIZE 0x10000u
#define IPU_BAR_TILEMEM 2u
#define IPU_BAR_TILEMEM_SIZE 0x100000u
#define IPU_BAR_MSIX 4u
#define IPU_BAR_MSIX_SIZE 0x1000u

/* CARD_STATE: STATUS.STATE: what the card as a whole is doing. */
#define IPU_CARD_STATE_IDLE 0u
#define IPU_CARD_STATE_RUNNING 1u
#define IPU_CARD_STATE_HOST_SYNC 2u
#define IPU_CARD_STATE_DONE 3u
#define IPU_CARD_STATE_ERROR 4u

/* TILE_STATE: TILE_STATE: the state of the tile selected by TILE_SEL. */
#define IPU_TILE_STATE_OFF 0u
#define IPU_TILE_STATE_READY 1u
#define IPU_TILE_STATE_RUNNING 2u
#define IPU_TILE_STATE_SYNC_WAIT 3u
#define IPU_TILE_STATE_EXITED 4u
#define IPU_TILE_STATE_ERROR 5u

/* CTX_STATE: TILE_CTX_STATE: state of one hardware context of the selected tile. */
#define IPU_CTX_STATE_IDLE 0u
#define IPU_CTX_STATE_RUNNING 1u
#define IPU_CTX_STATE_BLOCKED 2u
#define IPU_CTX_STATE_DONE 3u
#define IPU_CTX_STATE_FAULTED 4u

/* ERR: Error codes: the cause in error records, TILE_ERR_CAUSE and the firmware FAIL CSR. */
#define IPU_ERR_NONE 0u
#define IPU_ERR_ILLEGAL_INSTRUCTION 1u
#define IPU_ERR_FETCH_FAULT 2u
#define IPU_ERR_LOAD_MISALIGNED 3u
#define IPU_ERR_LOAD_FAULT 4u
#define IPU_ERR_STORE_MISALIGNED 5u
#define IPU_ERR_STORE_FAULT 6u
#define IPU_ERR_ECALL 7u
#define IPU_ERR_EBREAK 8u
#define IPU_ERR_BAD_EXCHANGE 9u
#define IPU_ERR_XLAT_MISS 10u
#define IPU_ERR_XLAT_PERMISSION 11u
#define IPU_ERR_DMA_BAD_DESCRIPTOR 12u
#define IPU_ERR_VERTEX_FAILED 13u
#define IPU_ERR_BAD_CONTROL_PROGRAM 14u
#define IPU_ERR_WORKER_MISUSE 15u
#define IPU_ERR_WATCHDOG 16u
#define IPU_ERR_FIRMWARE_ABORT 17u
#define IPU_ERR_HOST_EXCHANGE 18u
#define IPU_ERR_STACK_OVERFLOW 19u
#define IPU_ERR_LOCKSTEP_DIVERGENCE 20u
#define IPU_ERR_XLAT_BAD_ENTRY 21u

/* SYNC_KIND: Kinds of sync, written to the SYNC CSR and used by the SYNC control-program instruction. */
#define IPU_SYNC_KIND_INTERNAL 1u
#define IPU_SYNC_KIND_EXTERNAL 2u

/* SVC_KIND: What a request in SVC_REQ asks of the host on a CAPS.HOST_SERVICE card. The requesting tile (or, for LAND, every tile) waits until the host completes it with SVC_DONE or SVC_FAULT_ADDR. */
#define IPU_SVC_KIND_NONE 0u
#define IPU_SVC_KIND_HOST_EXCHANGE 1u
#define IPU_SVC_KIND_EXCHANGE 2u
#define IPU_SVC_KIND_LAND 3u

/* DTYPE: Element types named in control programs (PRINT_TENSOR) and vertex descriptions. */
#define IPU_DTYPE_FLOAT 0u
#define IPU_DTYPE_HALF 1u
#define IPU_DTYPE_INT 2u
#define IPU_DTYPE_UNSIGNED_INT 3u
#define IPU_DTYPE_SHORT 4u
#define IPU_DTYPE_UNSIGNED_SHORT 5u
#define IPU_DTYPE_CHAR 6u
#define IPU_DTYPE_UNSIGNED_CHAR 7u
#define IPU_DTYPE_BOOL 8u

/* IRQ_VECTOR: MSI-X vectors. Without MSI-X the card raises INTx for any unmasked cause. */
#define IPU_IRQ_VECTOR_HOST_SYNC 0u
#define IPU_IRQ_VECTOR_DONE 1u
#define IPU_IRQ_VECTOR_ERROR 2u
#define IPU_IRQ_VECTOR_CONSOLE 3u

/* LINK_TYPE: Link frame TYPE: requests from the host (below 0x80) and the card's messages (0x80 and up); the payload of each. */
#define IPU_LINK_TYPE_REG_READ 1u
#define IPU_LINK_TYPE_REG_WRITE 2u
#define IPU_LINK_TYPE_MEM_READ 3u
#define IPU_LINK_TYPE_MEM_WRITE 4u
#define IPU_LINK_TYPE_BLOCK_READ 5u
#define IPU_LINK_TYPE_BLOCK_WRITE 6u
#define IPU_LINK_TYPE_DMA_DATA 7u
#define IPU_LINK_TYPE_REG_DATA 129u
#define IPU_LINK_TYPE_ACK 130u
#define IPU_LINK_TYPE_MEM_DATA 131u
#define IPU_LINK_TYPE_DMA_REQ 132u
#define IPU_LINK_TYPE_NAK 143u
#define IPU_LINK_TYPE_IRQ 144u

/* LINK_NAK: Why the card refused a link request (NAK payload). */
#define IPU_LINK_NAK_CHECK 1u
#define IPU_LINK_NAK_TYPE 2u
#define IPU_LINK_NAK_LENGTH 3u
#define IPU_LINK_NAK_UNEXPECTED 4u
#define IPU_LINK_NAK_RANGE 5u

/* BAR0 registers (32-bit) */
#define IPU_REG_ID 0x000u
#define IPU_REG_ID_RESET_VALUE 0x49505531u
#define IPU_REG_VERSION 0x004u
#define IPU_REG_VERSION_RESET_VALUE 0x00010002u
#define IPU_REG_VERSION_MINOR_SHIFT 0u
#define IPU_REG_VERSION_MINOR_MASK 0x0000ffffu
#define IPU_REG_VERSION_MAJOR_SHIFT 16u
#define IPU_REG_VERSION_MAJOR_MASK 0xffff0000u
#define IPU_REG_NUM_TILES 0x008u
#define IPU_REG_TILE_MEM_BYTES 0x00cu
#define IPU_REG_NUM_WORKERS 0x010u
#define IPU_REG_CAPS 0x014u
#define IPU_REG_CAPS_FPU_SHIFT 0u
#define IPU_REG_CAPS_FPU_MASK 0x00000001u
#define IPU_REG_CAPS_DMA_SHIFT 1u
#define IPU_REG_CAPS_DMA_MASK 0x00000002u
#define IPU_REG_CAPS_MSIX_SHIFT 2u
#define IPU_REG_CAPS_MSIX_MASK 0x00000004u
#define IPU_REG_CAPS_EXCHANGE_SHIFT 3u
#define IPU_REG_CAPS_EXCHANGE_MASK 0x00000008u
#define IPU_REG_CAPS_RTL_SHIFT 4u
#define IPU_REG_CAPS_RTL_MASK 0x00000010u
#define IPU_REG_CAPS_HOST_SERVICE_SHIFT 5u
#define IPU_REG_CAPS_HOST_SERVICE_MASK 0x00000020u
#define IPU_REG_TILE_CLOCK_KHZ 0x018u
#define IPU_REG_EXCHANGE_BYTES_PER_CYCLE 0x01cu
#define IPU_REG_XLAT_ENTRIES 0x020u
#define IPU_REG_XLAT_ENTRIES_RESET_VALUE 0x00000040u
#define IPU_REG_NUM_IPUS 0x024u
#define IPU_REG_LINK_GROUP 0x028u
#define IPU_REG_LINK_INDEX 0x02cu
#define IPU_REG_LINK_SIZE 0x030u
#define IPU_REG_RESET 0x040u
#define IPU_REG_RESET_KEY_SHIFT 0u
#define IPU_REG_RESET_KEY_MASK 0xffffffffu
#define IPU_REG_RUN_CTRL 0x044u
#define IPU_REG_RUN_CTRL_START_SHIFT 0u
#define IPU_REG_RUN_CTRL_START_MASK 0x00000001u
#define IPU_REG_RUN_CTRL_HALT_SHIFT 1u
#define IPU_REG_RUN_CTRL_HALT_MASK 0x00000002u
#define IPU_REG_STATUS 0x048u
#define IPU_REG_STATUS_STATE_SHIFT 0u
#define IPU_REG_STATUS_STATE_MASK 0x0000000fu
#define IPU_REG_STATUS_DMA_BUSY_SHIFT 8u
#define IPU_REG_STATUS_DMA_BUSY_MASK 0x00000100u
#define IPU_REG_STATUS_SVC_PENDING_SHIFT 9u
#define IPU_REG_STATUS_SVC_PENDING_MASK 0x00000200u
#define IPU_REG_CARD_CYCLES_LO 0x050u
#define IPU_REG_CARD_CYCLES_HI 0x054u
#define IPU_REG_WATCHDOG_INSNS 0x058u
#define IPU_REG_WATCHDOG_INSNS_RESET_VALUE 0x00000000u
#define IPU_REG_IRQ_STATUS 0x060u
#define IPU_REG_IRQ_STATUS_HOST_SYNC_SHIFT 0u
#define IPU_REG_IRQ_STATUS_HOST_SYNC_MASK 0x00000001u
#define IPU_REG_IRQ_STATUS_DONE_SHIFT 1u
#define IPU_REG_IRQ_STATUS_DONE_MASK 0x00000002u
#define IPU_REG_IRQ_STATUS_ERROR_SHIFT 2u
#define IPU_REG_IRQ_STATUS_ERROR_MASK 0x00000004u
#define IPU_REG_IRQ_STATUS_DMA_DONE_SHIFT 3u
#define IPU_REG_IRQ_STATUS_DMA_DONE_MASK 0x00000008u
#define IPU_REG_IRQ_STATUS_CONSOLE_SHIFT 4u
#define IPU_REG_IRQ_STATUS_CONSOLE_MASK 0x00000010u
#define IPU_REG_IRQ_STATUS_SERVICE_SHIFT 5u
#define IPU_REG_IRQ_STATUS_SERVICE_MASK 0x00000020u
#define IPU_REG_IRQ_MASK 0x064u
#define IPU_REG_IRQ_MASK_RESET_VALUE 0x00000000u
#define IPU_REG_HSYNC_STATUS 0x080u
#define IPU_REG_HSYNC_STATUS_PENDING_SHIFT 0u
#define IPU_REG_HSYNC_STATUS_PENDING_MASK 0x00000001u
#define IPU_REG_HSYNC_ID 0x084u
#define IPU_REG_HSYNC_RELEASE 0x088u
#define IPU_REG_CONSOLE_STATUS 0x0a0u
#define IPU_REG_CONSOLE_DATA 0x0a4u
#define IPU_REG_CONSOLE_DATA_BYTE_SHIFT 0u
#define IPU_REG_CONSOLE_DATA_BYTE_MASK 0x000000ffu
#define IPU_REG_CONSOLE_DATA_TILE_SHIFT 8u
#define IPU_REG_CONSOLE_DATA_TILE_MASK 0x00ffff00u
#define IPU_REG_CONSOLE_DATA_VALID_SHIFT 31u
#define IPU_REG_CONSOLE_DATA_VALID_MASK 0x80000000u
#define IPU_REG_CONSOLE_LOST 0x0a8u
#define IPU_REG_ERR_COUNT 0x0c0u
#define IPU_REG_ERR_CAUSE 0x0c4u
#define IPU_REG_ERR_TILE 0x0c8u
#define IPU_REG_ERR_CONTEXT 0x0ccu
#define IPU_REG_ERR_PC 0x0d0u
#define IPU_REG_ERR_ADDR 0x0d4u
#define IPU_REG_ERR_INFO 0x0d8u
#define IPU_REG_ERR_POP 0x0dcu
#define IPU_REG_ERR_LOST 0x0e0u
#define IPU_REG_TILE_SEL 0x100u
#define IPU_REG_TILE_SEL_RESET_VALUE 0x00000000u
#define IPU_REG_TILE_CTRL 0x104u
#define IPU_REG_TILE_CTRL_ENABLE_SHIFT 0u
#define IPU_REG_TILE_CTRL_ENABLE_MASK 0x00000001u
#define IPU_REG_TILE_ENTRY 0x108u
#define IPU_REG_TILE_BOOT_ARG 0x10cu
#define IPU_REG_TILE_STATE 0x110u
#define IPU_REG_TILE_EXIT_CODE 0x114u
#define IPU_REG_TILE_ERR_CAUSE 0x118u
#define IPU_REG_TILE_ERR_PC 0x11cu
#define IPU_REG_TILE_ERR_ADDR 0x120u
#define IPU_REG_TILE_CYCLES_LO 0x124u
#define IPU_REG_TILE_CYCLES_HI 0x128u
#define IPU_REG_TILE_CTX_SEL 0x130u
#define IPU_REG_TILE_CTX_SEL_RESET_VALUE 0x00000000u
#define IPU_REG_TILE_CTX_STATE 0x134u
#define IPU_REG_TILE_CTX_PC 0x138u
#define IPU_REG_TILE_CTX_INSTRET 0x13cu
#define IPU_REG_TILEMEM_WINDOW_TILE 0x180u
#define IPU_REG_TILEMEM_WINDOW_TILE_RESET_VALUE 0x00000000u
#define IPU_REG_DMA_DESC_ADDR 0x200u
#define IPU_REG_DMA_CTRL 0x204u
#define IPU_REG_DMA_CTRL_START_SHIFT 0u
#define IPU_REG_DMA_CTRL_START_MASK 0x00000001u
#define IPU_REG_DMA_STATUS 0x208u
#define IPU_REG_DMA_STATUS_BUSY_SHIFT 0u
#define IPU_REG_DMA_STATUS_BUSY_MASK 0x00000001u
#define IPU_REG_DMA_STATUS_DONE_SHIFT 1u
#define IPU_REG_DMA_STATUS_DONE_MASK 0x00000002u
#define IPU_REG_DMA_STATUS_ERROR_SHIFT 2u
#define IPU_REG_DMA_STATUS_ERROR_MASK 0x00000004u
#define IPU_REG_DMA_COMPLETED 0x20cu
#define IPU_REG_DMA_BYTES_LO 0x210u
#define IPU_REG_DMA_BYTES_HI 0x214u
#define IPU_REG_SVC_REQ 0x220u
#define IPU_REG_SVC_REQ_KIND_SHIFT 0u
#define IPU_REG_SVC_REQ_KIND_MASK 0x00000003u
#define IPU_REG_SVC_REQ_TO_HOST_SHIFT 2u
#define IPU_REG_SVC_REQ_TO_HOST_MASK 0x00000004u
#define IPU_REG_SVC_REQ_PENDING_SHIFT 31u
#define IPU_REG_SVC_REQ_PENDING_MASK 0x80000000u
#define IPU_REG_SVC_TILE 0x224u
#define IPU_REG_SVC_ARG0 0x228u
#define IPU_REG_SVC_ARG1 0x22cu
#define IPU_REG_SVC_ARG2 0x230u
#define IPU_REG_SVC_FAULT_CAUSE 0x234u
#define IPU_REG_SVC_FAULT_INFO 0x238u
#define IPU_REG_SVC_FAULT_ADDR 0x23cu
#define IPU_REG_SVC_DONE 0x240u
#define IPU_REG_SVC_DONE_DONE_SHIFT 0u
#define IPU_REG_SVC_DONE_DONE_MASK 0x00000001u
#define IPU_REG_SVC_DONE_LAND_DUE_SHIFT 1u
#define IPU_REG_SVC_DONE_LAND_DUE_MASK 0x00000002u
#define IPU_RESET_KEY 0x52535421u
/* The first BAR0 offset past the register map (the link refuses offsets from there: NAK RANGE). */
#define IPU_REGS_END 0x1400u
#define IPU_REG_XLAT_BASE 0x1000u
#define IPU_REG_XLAT_COUNT 64u
#define IPU_REG_XLAT_STRIDE 16u

/* XLAT_CTRL: Fields of XLAT_ENTRY.CTRL. */
#define IPU_XLAT_CTRL_VALID_SHIFT 0u
#define IPU_XLAT_CTRL_VALID_MASK 0x00000001u
#define IPU_XLAT_CTRL_READ_SHIFT 1u
#define IPU_XLAT_CTRL_READ_MASK 0x00000002u
#define IPU_XLAT_CTRL_WRITE_SHIFT 2u
#define IPU_XLAT_CTRL_WRITE_MASK 0x00000004u
#define IPU_XLAT_CTRL_PAGES_MINUS_1_SHIFT 12u
#define IPU_XLAT_CTRL_PAGES_MINUS_1_MASK 0x07fff000u

/* DMA_FLAGS: Fields of DMA_DESC.FLAGS. */
#define IPU_DMA_FLAGS_TO_HOST_SHIFT 0u
#define IPU_DMA_FLAGS_TO_HOST_MASK 0x00000001u
#define IPU_DMA_FLAGS_LAST_SHIFT 1u
#define IPU_DMA_FLAGS_LAST_MASK 0x00000002u

/* Format sizes and field offsets */
#define IPU_XLAT_ENTRY_SIZE 16u
#define IPU_XLAT_ENTRY_DEV_BASE_OFFSET 0u
#define IPU_XLAT_ENTRY_CTRL_OFFSET 4u
#define IPU_XLAT_ENTRY_BUS_LO_OFFSET 8u
#define IPU_XLAT_ENTRY_BUS_HI_OFFSET 12u
#define IPU_LINK_CAP_SIZE 16u
#define IPU_LINK_CAP_CAP_ID_OFFSET 0u
#define IPU_LINK_CAP_NEXT_OFFSET 1u
#define IPU_LINK_CAP_LENGTH_OFFSET 2u
#define IPU_LINK_CAP_KIND_OFFSET 3u
#define IPU_LINK_CAP_GROUP_OFFSET 4u
#define IPU_LINK_CAP_INDEX_OFFSET 8u
#define IPU_LINK_CAP_SIZE_OFFSET 12u
#define IPU_DMA_DESC_SIZE 32u
#define IPU_DMA_DESC_DEV_ADDR_OFFSET 0u
#define IPU_DMA_DESC_TILE_ADDR_OFFSET 4u
#define IPU_DMA_DESC_LENGTH_OFFSET 8u
#define IPU_DMA_DESC_FIRST_TILE_OFFSET 12u
#define IPU_DMA_DESC_TILE_COUNT_OFFSET 14u
#define IPU_DMA_DESC_FLAGS_OFFSET 16u
#define IPU_DMA_DESC_RESERVED0_OFFSET 20u
#define IPU_DMA_DESC_RESERVED1_OFFSET 24u
#define IPU_DMA_DESC_RESERVED2_OFFSET 28u
#define IPU_LIST_HEADER_SIZE 4u
#define IPU_LIST_HEADER_COUNT_OFFSET 0u
#define IPU_EXCH_DESC_SIZE 16u
#define IPU_EXCH_DESC_DST_TILE_OFFSET 0u
#define IPU_EXCH_DESC_DST_ADDR_OFFSET 4u
#define IPU_EXCH_DESC_SRC_ADDR_OFFSET 8u
#define IPU_EXCH_DESC_LENGTH_OFFSET 12u
#define IPU_HX_DESC_SIZE 16u
#define IPU_HX_DESC_DEV_ADDR_OFFSET 0u
#define IPU_HX_DESC_TILE_ADDR_OFFSET 4u
#define IPU_HX_DESC_LENGTH_OFFSET 8u
#define IPU_HX_DESC_FLAGS_OFFSET 12u
#define IPU_VERTEX_ENTRY_SIZE 8u
#define IPU_VERTEX_ENTRY_ENTRY_OFFSET 0u
#define IPU_VERTEX_ENTRY_STATE_OFFSET 4u
#define IPU_HX_TO_HOST 1u

/* Tile address map */
#define IPU_TILE_SRAM_BASE 0x00100000u
#define IPU_TILE_SRAM_MAX_BYTES 0x100000u
#define IPU_TILE_CONTEXTS_MAX 7u

/* Tile CSRs */
#define IPU_CSR_FFLAGS 0x001
#define IPU_CSR_FRM 0x002
#define IPU_CSR_FCSR 0x003
#define IPU_CSR_CYCLE 0xc00
#define IPU_CSR_INSTRET 0xc02
#define IPU_CSR_CYCLEH 0xc80
#define IPU_CSR_INSTRETH 0xc82
#define IPU_CSR_TILE_ID 0xcc0
#define IPU_CSR_CONTEXT_ID 0xcc1
#define IPU_CSR_NUM_TILES 0xcc2
#define IPU_CSR_NUM_WORKERS 0xcc3
#define IPU_CSR_SRAM_SIZE 0xcc4
#define IPU_CSR_SYNC 0x800
#define IPU_CSR_WORKER_ENTRY 0x801
#define IPU_CSR_WORKER_ARG 0x802
#define IPU_CSR_WORKER_START 0x803
#define IPU_CSR_WORKER_JOIN 0x804
#define IPU_CSR_WORKER_EXIT 0x805
#define IPU_CSR_CONSOLE 0x806
#define IPU_CSR_EXIT 0x807
#define IPU_CSR_HX_DEV_ADDR 0x808
#define IPU_CSR_HX_TILE_ADDR 0x809
#define IPU_CSR_HX_START 0x80a
#define IPU_CSR_EXCHANGE 0x80b
#define IPU_CSR_FAIL_INFO 0x80c
#define IPU_CSR_FAIL 0x80d
#define IPU_CSR_STACK_LIMIT 0x80e

/* Control program: header word fields */
#define IPU_CP_OPCODE_SHIFT 0u
#define IPU_CP_OPCODE_MASK 0x000000ffu
#define IPU_CP_LENGTH_SHIFT 8u
#define IPU_CP_LENGTH_MASK 0x0000ff00u
#define IPU_CP_IMM_SHIFT 16u
#define IPU_CP_IMM_MASK 0xffff0000u
#define IPU_CP_WHILE_FALSE_FLAG 0x100u
/* Host link framing (LINK_TYPE, LINK_NAK above) */
#define IPU_LINK_SOF 0xa5u
#define IPU_LINK_BAUD 0x1c200u
#define IPU_LINK_MAX_PAYLOAD 0xffu
/* The host's recovery after a framing error ([link] desc) */
#define IPU_LINK_RESYNC_QUIET_MS 20u
#define IPU_LINK_RESYNC_PROBES 4u
/* USB UART chips the usb transport speaks the link through: vendor, product, interface */
#define IPU_LINK_USB_FT2232H_VENDOR 0x403u
#define IPU_LINK_USB_FT2232H_PRODUCT 0x6010u
#define IPU_LINK_USB_FT2232H_INTERFACE 0x1u
#define IPU_LINK_USB_FT232_VENDOR 0x403u
#define IPU_LINK_USB_FT232_PRODUCT 0x6001u
#define IPU_LINK_USB_FT232_INTERFACE 0x0u
#define IPU_LINK_USB_IDS {{0x403u, 0x6010u, 1u}, {0x403u, 0x6001u, 0u}}

#define IPU_CP_STREAM_DONE_FLAG 0x800000u
#define IPU_CP_OP_END 0u /* fixed length 1 */
#define IPU_CP_OP_SYNC 1u /* fixed length 2 */
#define IPU_CP_OP_EXCHANGE 2u /* fixed length 2 */
#define IPU_CP_OP_EXECUTE 3u /* fixed length 2 */
#define IPU_CP_OP_STREAM_COPY 4u /* fixed length 3 */
#define IPU_CP_OP_REPEAT 5u /* fixed length 3 */
#define IPU_CP_OP_IF 6u /* fixed length 4 */
#define IPU_CP_OP_SWITCH 7u /* fixed length 4 */
#define IPU_CP_OP_WHILE 8u /* fixed length 4 */
#define IPU_CP_OP_PRINT_TENSOR 9u /* fixed length 4 */
#define IPU_CP_OP_COPY 10u /* fixed length 4 */

#ifndef __ASSEMBLER__
#include <stdint.h>

#ifdef __cplusplus
#define IPU_HW_STATIC_ASSERT(e, n) static_assert(e, #n)
#else
#define IPU_HW_STATIC_ASSERT(e, n) _Static_assert(e, #n)
#endif

/* One translation-table entry. A device address DA hits the entry when VALID and DEV_BASE <= DA < DEV_BASE + (PAGES_MINUS_1 + 1) * 4096; it becomes bus address BUS + (DA - DEV_BASE), which the IOMMU (if any) translates further. An entry whose device range would cross 4 GiB, or whose bus range would wrap past 2^64, is refused when it is made valid (or a field of a valid entry is written): VALID reads back clear and an ERR_XLAT_BAD_ENTRY record is added. 15 bits of page count give the 128 MiB limit per entry (and so per stream). */
struct ipu_xlat_entry {
    uint32_t dev_base; /* Device address of the first byte; 4 KiB aligned. */
    uint32_t ctrl; /* Control word (XLAT_CTRL fields). */
    uint32_t bus_lo; /* Low word of the bus address (IOVA); 4 KiB aligned. */
    uint32_t bus_hi; /* High word of the bus address. */
};
IPU_HW_STATIC_ASSERT(sizeof(struct ipu_xlat_entry) == 16, ipu_xlat_entry_size);

/* The vendor-specific PCI capability (ID link_cap_id) of a function in a link group, in config space: what discovery reads to group functions into one multi-IPU card before opening any. Standard capability header first (ID, next pointer), then the length of this capability and its kind. */
struct ipu_link_cap {
    uint8_t cap_id; /* PCI capability ID: link_cap_id (0x09, vendor-specific). */
    uint8_t next; /* Config-space offset of the next capability (0: last). */
    uint8_t length; /* Bytes in this capability: LINK_CAP_SIZE. */
    uint8_t kind; /* link_cap_kind (0x4c, 'L'): an ipu-emu link-group capability. */
    uint32_t group; /* LINK_GROUP: the group id, non-zero. */
    uint32_t index; /* LINK_INDEX: this function's IPU in the group. */
    uint32_t size; /* LINK_SIZE: the IPUs in the group. */
};
IPU_HW_STATIC_ASSERT(sizeof(struct ipu_link_cap) == 16, ipu_link_cap_size);

/* One DMA descriptor in host memory. A chain is consecutive descriptors ending with FLAGS.LAST; at most 65536 per chain. One descriptor moves LENGTH bytes between host memory at DEV_ADDR and TILE_ADDR on each of TILE_COUNT tiles starting at FIRST_TILE (a broadcast when TILE_COUNT > 1 and the direction is to the tiles). */
struct ipu_dma_desc {
    uint32_t dev_addr; /* Device address of the host-side bytes (translated). */
    uint32_t tile_addr; /* Tile-local address (inside tile SRAM). */
    uint32_t length; /* Bytes to move; 1 to the tile's SRAM size. */
    uint16_t first_tile; /* First tile. */
    uint16_t tile_count; /* Number of consecutive tiles; 0 is treated as 1. Must be 1 when the direction is to the host. */
    uint32_t flags; /* DMA_FLAGS fields. */
    uint32_t reserved0; /* Must be 0. */
    uint32_t reserved1; /* Must be 0. */
    uint32_t reserved2; /* Must be 0. */
};
IPU_HW_STATIC_ASSERT(sizeof(struct ipu_dma_desc) == 32, ipu_dma_desc_size);

/* The header of every list in tile memory that the control program names (exchange lists, host-exchange lists, compute-set tables): the number of entries that follow it. */
struct ipu_list_header {
    uint32_t count; /* Number of entries after the header. */
};
IPU_HW_STATIC_ASSERT(sizeof(struct ipu_list_header) == 4, ipu_list_header_size);

/* One exchange descriptor, in the sending tile's SRAM. An exchange list is a 32-bit count followed by that many descriptors. Writes land in the receiving tiles at the next sync (bulk-synchronous), so results do not depend on the order in which tiles are simulated. */
struct ipu_exch_desc {
    uint32_t dst_tile; /* Receiving tile. */
    uint32_t dst_addr; /* Address in the receiving tile's SRAM. */
    uint32_t src_addr; /* Address in the sending tile's SRAM. */
    uint32_t length; /* Bytes to send. */
};
IPU_HW_STATIC_ASSERT(sizeof(struct ipu_exch_desc) == 16, ipu_exch_desc_size);

/* One host-exchange descriptor used by the STREAM_COPY control-program instruction. A host-exchange list is a 32-bit count followed by that many descriptors. */
struct ipu_hx_desc {
    uint32_t dev_addr; /* Device address of the host buffer (translated). */
    uint32_t tile_addr; /* Address in this tile's SRAM. */
    uint32_t length; /* Bytes to move. */
    uint32_t flags; /* Bit 0 (HX_TO_HOST): tile to host; otherwise host to tile. */
};
IPU_HW_STATIC_ASSERT(sizeof(struct ipu_hx_desc) == 16, ipu_hx_desc_size);

/* One vertex in a compute-set table used by the EXECUTE control-program instruction. A table is a 32-bit count followed by that many entries. The worker trampoline calls ENTRY(STATE) and reports its boolean result. */
struct ipu_vertex_entry {
    uint32_t entry; /* Address of the vertex's compute function (its trampoline). */
    uint32_t state; /* Address of the vertex state (field pointers and sizes). */
};
IPU_HW_STATIC_ASSERT(sizeof(struct ipu_vertex_entry) == 8, ipu_vertex_entry_size);

/* Builds a control-program header word. */
static inline uint32_t ipu_cp_header(uint32_t opcode, uint32_t length, uint32_t imm)
{
    return (opcode << IPU_CP_OPCODE_SHIFT) | (length << IPU_CP_LENGTH_SHIFT) | (imm << IPU_CP_IMM_SHIFT);
}

#endif /* __ASSEMBLER__ */

#endif /* IPU_CARD_HW_H */
