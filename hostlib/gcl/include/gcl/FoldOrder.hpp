// ipu-emu extension (not part of Graphcore's GCL API): the fold by which every gcl reduction combines the
// replicas' data, for programs that must reproduce a reduction's bits without replicas.
//
// gcl's reductions (allReduce*, reduceScatterWithOutput) give the same bits for any split of the same replicas
// into instances because they fold the replicas' tensors in one fixed order, by global replica index:
// ((part 0 op part 1) op part 2) op ... . A program that computes R replicas' parts in one replica (say R data
// shards trained on one IPU to check a data-parallel run) gets the bits of gcl's R-replica all-reduce by folding its
// R parts with foldInReplicaOrder: it is the very function gcl's reductions call, so the two cannot drift apart.
#ifndef GCL_FOLD_ORDER_HPP
#define GCL_FOLD_ORDER_HPP

#include <string>
#include <vector>

#include <gcl/Collectives.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace gcl {

/// A new tensor, mapped like parts[0], holding `op` over `parts` folded in order: it starts as a copy of parts[0]
/// (squared for SQUARE_ADD) and combines parts[1], parts[2], ... into it, one popops element-wise program per part
/// appended to `prog`; MEAN is the ADD fold divided by parts.size(). Every part must have parts[0]'s shape and
/// element type. Throws poputil::poplibs_error for no parts, mismatched parts, or CollectiveOperator::LOCAL.
poplar::Tensor foldInReplicaOrder(poplar::Graph &graph, const std::vector<poplar::Tensor> &parts,
                                  CollectiveOperator op, poplar::program::Sequence &prog,
                                  const std::string &debugPrefix = "");

} // namespace gcl

#endif
