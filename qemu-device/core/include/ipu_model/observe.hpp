// Observing the card model's execution: every retired instruction, for
// lock-step comparison against the RTL and for instruction traces.
#pragma once
#include <cstdint>

#include "ipu_card/backend.h"

namespace ipu::model {

struct RetiredInstruction {
    uint32_t tile;
    uint32_t context;  // 0 supervisor, 1..N workers
    uint32_t pc;
    uint32_t insn;
    uint32_t rd;       // 0 when the instruction writes no integer register
    uint32_t rd_value; // the value written to rd (0 when rd is 0)
};

using RetireObserver = void (*)(void *opaque, const RetiredInstruction &retired);

// Calls `observer` for every instruction the card retires, in a deterministic
// order (tiles run one after another while an observer is set). Pass nullptr
// to stop. Returns 0, or -EINVAL if `card` was not made by ipu_model_create.
int set_retire_observer(ipu_backend *card, RetireObserver observer, void *opaque);

} // namespace ipu::model
