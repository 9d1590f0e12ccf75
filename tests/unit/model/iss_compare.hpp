// Two copies of one bare tile (no card around it) for the differential ISS
// tests: set up from one SRAM image and start context, run on different
// tiers, and compared field by field (test_iss_fuzz, test_iss_bad_input).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tile.hpp"

namespace iss_compare {

struct Machine {
    std::vector<uint8_t> sram;
    ipu::model::Tile tile;
};

// `m` runs `image` (the whole SRAM) with context 0 as `start`.
inline void setup(Machine &m, const std::vector<uint8_t> &image, const ipu::model::Context &start)
{
    m.sram = image;
    m.tile.sram = m.sram.data();
    m.tile.sram_bytes = static_cast<uint32_t>(image.size());
    m.tile.num_workers = 2;
    m.tile.num_tiles = 1;
    m.tile.state = IPU_TILE_STATE_RUNNING;
    m.tile.ctx[0] = start;
}

inline bool same_context(const ipu::model::Context &a, const ipu::model::Context &b)
{
    return a.x == b.x && a.f == b.f && a.pc == b.pc && a.fflags == b.fflags && a.frm == b.frm &&
           a.state == b.state && a.time == b.time && a.instret == b.instret && a.exit_value == b.exit_value &&
           a.stack_limit == b.stack_limit;
}

// The first difference between the machines, or "" if none.
inline std::string differ(const Machine &a, const Machine &b)
{
    for (unsigned c = 0; c < ipu::model::kMaxContexts; c++)
        if (!same_context(a.tile.ctx[c], b.tile.ctx[c]))
            return "context " + std::to_string(c);
    if (a.sram != b.sram)
        return "sram";
    if (a.tile.has_fault != b.tile.has_fault || a.tile.fault.cause != b.tile.fault.cause ||
        a.tile.fault.pc != b.tile.fault.pc || a.tile.fault.addr != b.tile.fault.addr ||
        a.tile.fault.info != b.tile.fault.info || a.tile.fault.context != b.tile.fault.context)
        return "fault record";
    if (a.tile.state != b.tile.state || a.tile.exit_code != b.tile.exit_code || a.tile.console != b.tile.console ||
        a.tile.worker_entry != b.tile.worker_entry || a.tile.worker_arg != b.tile.worker_arg ||
        a.tile.fail_info != b.tile.fail_info)
        return "tile state";
    return "";
}

} // namespace iss_compare
