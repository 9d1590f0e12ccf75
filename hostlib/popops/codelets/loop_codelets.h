// popops' loop counter vertex (popops/Loop.hpp), included by popops_codelets.cpp.
// popops::ForLoopCounter<T> (T int or unsigned int) advances a loop's count by `increment` and writes whether the
// loop goes on (count != limit) as the predicate of a RepeatWhileTrue: one vertex, on one tile, per loop test.
namespace popops {

/// count += increment; comparisonResult = (count != limit).
template <typename T> class ForLoopCounter : public Vertex {
public:
  InOut<T> count;
  Input<T> limit;
  Output<unsigned> comparisonResult;
  T increment;
  bool compute() {
    const T next = T(*count + increment);
    count = next;
    comparisonResult = next != *limit ? 1u : 0u;
    return true;
  }
};

template struct VertexInstances<ForLoopCounter<int>, ForLoopCounter<unsigned>>;

} // namespace popops
