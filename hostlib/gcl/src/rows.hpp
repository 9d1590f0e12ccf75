// Internal: every replica's data as rows, shared by the all-replica collectives and the grouped ones.
#pragma once

#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include "instances.hpp"

namespace gcl::detail {

/// Appends to `prog` the gather of every replica's `data` into a new [total, data's shape] tensor that every local
/// replica holds, row g being global replica g's data.
poplar::Tensor gatherRowsEverywhere(poplar::Graph &graph, const poplar::Tensor &data, const ReplicaLayout &layout,
                                    poplar::program::Sequence &prog, const std::string &debug);

} // namespace gcl::detail
