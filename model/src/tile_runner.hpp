// Runs one tile's supervisor and workers until the tile needs the card.
#pragma once
#include <cstdint>

#include "iss_fast.hpp"

namespace ipu::model {

// Runs `tile` until it reaches a sync, exits, faults, waits for a host
// exchange, or has retired `budget` instructions. Contexts interact only
// through worker start/join and syncs, so each one runs in long stretches
// while its logical clock keeps the barrel-scheduled time.
void run_tile(Tile &tile, uint64_t budget, const RetireHook *hook);

} // namespace ipu::model
