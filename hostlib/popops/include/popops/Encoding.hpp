// One-hot encoding of indices and integer ranges (iota).
#ifndef POPOPS_ENCODING_HPP
#define POPOPS_ENCODING_HPP

#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#ifndef MASKED_LABEL_CODE
/// An index with this value encodes to a row of "off" values.
#define MASKED_LABEL_CODE 0xFFFFFFFFU
#endif

namespace popops {

/// encoded[i][j] = (indices[i] == j) ? 1 : 0. indices: rank 1, UNSIGNED_INT or INT; encoded: [indices.dim(0),
/// any], FLOAT, INT or UNSIGNED_INT. An index out of [0, encoded.dim(1)) (MASKED_LABEL_CODE among them) gives a
/// row of zeros.
void encodeOneHot(poplar::Graph &graph, const poplar::Tensor &indices, const poplar::Tensor &encoded,
                  poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// The same with `on` and `off` (one-element tensors of encoded's type) instead of 1 and 0.
void encodeOneHot(poplar::Graph &graph, const poplar::Tensor &indices, const poplar::Tensor &encoded,
                  poplar::program::Sequence &prog, const poplar::Tensor &on, const poplar::Tensor &off,
                  const poplar::DebugContext &debugContext = {});

/// t[i] = startInteger + i for the rank-1 UNSIGNED_INT tensor t (which must be mapped).
void iota(poplar::Graph &graph, const poplar::Tensor &t, unsigned startInteger, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {});

/// t[i] = startInteger + i for the rank-1 INT tensor t (which must be mapped).
void iota(poplar::Graph &graph, const poplar::Tensor &t, int startInteger, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_ENCODING_HPP
