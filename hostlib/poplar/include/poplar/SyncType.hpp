// The kinds of sync a program can ask for (program::Sync, cycleCount, cycleStamp).
#ifndef POPLAR_SYNCTYPE_HPP
#define POPLAR_SYNCTYPE_HPP

#include "poplar/detail/StandardHeaders.hpp"

namespace poplar {

/// Kinds of explicit sync (each is a sync of every tile of the card here: all IPUs, all replicas).
enum class SyncType { INTERNAL, EXTERNAL, GLOBAL };

} // namespace poplar

#endif // POPLAR_SYNCTYPE_HPP
