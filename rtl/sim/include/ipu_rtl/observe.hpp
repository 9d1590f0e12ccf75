// Observing the RTL card: every instruction a tile retires, from the retire trace port.
#pragma once
#include <cstdint>

#include "ipu_card/backend.h"

namespace ipu::rtl {

struct Retired {
    uint32_t tile;
    uint32_t context;  // 0 supervisor, 1..N workers
    uint32_t pc;
    uint32_t insn;
    uint32_t rd;       // 0 when the instruction writes no integer register
    uint32_t rd_value; // 0 when rd is 0
};

// Called for every retired instruction, tiles in index order within a cycle.
// A non-zero return stops the current advance() at the end of that cycle.
using RetireObserver = int (*)(void *opaque, const Retired &retired);

// Sets (or with nullptr clears) the observer of a card made by ipu_rtl_create.
// Returns 0, or -EINVAL for any other card.
int set_retire_observer(ipu_backend *card, RetireObserver observer, void *opaque);

} // namespace ipu::rtl
