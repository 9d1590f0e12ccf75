// Checks shared by the model, RTL and driver (socket) card tests, so that every
// embodiment is held to the same expectations by one piece of code. They use
// CMocka asserts: call them from a CMocka test. Those that take a Harness need
// the in-process backend's hooks (raw bus accesses, cycle-exact advance, the
// retire observer); the others run on any CardAccess.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "tile_harness.hpp"

namespace ipu::test {

// Called after each run, before the run's result is checked (the RTL tests
// check lock-step there).
using AfterRun = std::function<void()>;

// Runs a self-checking ISA program on tile 0: exit code 0 means every case
// passed, otherwise it is the number of the failing case.
void expect_isa_program_passes(CardAccess &h, const std::string &elf, const AfterRun &after_run = {});

// Runs case `which` of the faults program on tile 1 and checks the error
// record (cause, tile, context 0, the PC of `label` when given, the address
// when not ~0), the tile's registers, and recovery: reset, reload and a clean
// run (exit code 42) in the same process.
void expect_fault_case(CardAccess &h, const std::string &faults_elf, unsigned which, uint32_t cause, const char *label,
                       uint32_t addr_expected, const AfterRun &after_run = {});

// The requests tile 0 makes of the card's host-side engines, with
// services.elf (tests/unit/isa/services.S), on any card of 64 KiB tiles: host
// exchanges both ways (words across two translation entries, bytes), an
// EXCHANGE to itself that lands at the sync, and the records of a translation
// miss at the start, one running off an entry, a permission fault and a bad
// exchange list (cause, tile, context, the PC of the instruction, address,
// INFO). On a card with CAPS.HOST_SERVICE the driver services them: the same
// expectations hold.
void expect_tile_services(CardAccess &h, const std::string &services_elf);

// The checks below need a 4-tile card with 64 KiB per tile (the tiny and
// rtl-tiny boards); they assert that first.

// Bad BAR accesses (misaligned, wrong size, out of range, no such BAR) are
// refused by the backend; a byte read of the window works. The driver refuses
// those accesses itself before they reach a transport, so this needs the backend.
void expect_bad_bus_accesses_refused(Harness &h);

// Bad register writes (a tile that does not exist, a reset without the key)
// are ignored and the card still works, sub-word tile-memory writes included.
void expect_bad_register_writes_ignored(CardAccess &h);

// Both of the above.
void expect_bad_bus_accesses_survive(Harness &h);

// DMA through the translation table: a broadcast to every tile that crosses
// two entries, a transfer back to the host, an unaligned two-descriptor chain;
// completion count, byte count and the DMA_DONE interrupt.
void expect_dma_through_translation(CardAccess &h);

// DEV_BASE and BUS_LO are 4 KiB aligned: DMA ignores the low 12 bits written to
// them (an entry whose fields carry page offsets translates as if they were 0).
void expect_dma_ignores_entry_page_offsets(CardAccess &h);

// DMA faults (miss, running off an entry, permission, bad descriptors, an
// IOMMU refusal) are recorded with cause and address and raise the error
// interrupt; the card stays usable.
void expect_dma_faults(CardAccess &h);

// DMA runs in slices: DMA_CTRL.START only starts a chain (DMA_STATUS.BUSY and
// STATUS.DMA_BUSY set, no DMA_DONE yet), each advance() moves a bounded number
// of bytes, the end raises DMA_DONE with every byte in place; a RESET in the
// middle of a chain stops it cleanly and the card works afterwards.
void expect_dma_in_slices(Harness &h);

// The contract's retire observer, with program `elf` on tile 0: it sees
// exactly the instructions tile 0's supervisor retires (the INSTRET count),
// in order of cycle, the last one being the EXIT write before the final PC;
// once cleared, the next run is not observed.
void expect_retire_observer_sees_every_instruction(Harness &h, const std::string &elf);

} // namespace ipu::test
