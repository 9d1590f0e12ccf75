// A compute set: vertices that run in parallel in one compute phase (Graph::addComputeSet, program::Execute).
#ifndef POPLAR_COMPUTE_SET_HPP
#define POPLAR_COMPUTE_SET_HPP

namespace poplar {

namespace detail {
struct GraphImpl;
}

/// A handle to a compute set of a graph.
class ComputeSet {
public:
  /// An invalid handle.
  ComputeSet() : graph_(0), id_(~0u) {}
  /// Internal: compute set `id` of `graph`.
  ComputeSet(detail::GraphImpl *graph, unsigned id) : graph_(graph), id_(id) {}
  /// The compute set's index in its graph.
  unsigned getId() const { return id_; }
  /// False for a default-constructed handle.
  bool valid() const;
  /// Internal.
  detail::GraphImpl *graphImpl() const { return graph_; }

private:
  detail::GraphImpl *graph_;
  unsigned id_;
};

} // namespace poplar

#endif // POPLAR_COMPUTE_SET_HPP
