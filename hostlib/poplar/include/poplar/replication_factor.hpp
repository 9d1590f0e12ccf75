// The replication factor given to Graph's constructors, in the header of the same path as the SDK's.
#ifndef POPLAR_REPLICATION_FACTOR_HPP
#define POPLAR_REPLICATION_FACTOR_HPP

namespace poplar {

/// How many copies of the graph run side by side (Graph's constructors): each replica gets target IPUs / factor
/// IPUs of the target, and the graph describes one replica.
struct replication_factor {
  explicit replication_factor(unsigned factor) : value(factor) {}
  unsigned value;
  /// Comparisons and increments of the factor, as the SDK's replication_factor has.
  bool operator==(const replication_factor &other) const { return value == other.value; }
  bool operator!=(const replication_factor &other) const { return value != other.value; }
  bool operator<(const replication_factor &other) const { return value < other.value; }
  replication_factor &operator++() {
    ++value;
    return *this;
  }
  replication_factor operator++(int) {
    replication_factor before = *this;
    ++value;
    return before;
  }
};

} // namespace poplar

#endif // POPLAR_REPLICATION_FACTOR_HPP
