// The pooling operations of popnn::pooling. Only the enumeration, so that tile code could switch on it too.
#ifndef POPNN_POOLINGDEF_HPP
#define POPNN_POOLINGDEF_HPP

namespace popnn {

/// How a pooling window's elements combine into one output.
enum class PoolingType {
  /// The largest element (padding counts as -infinity).
  MAX,
  /// The mean of the window's elements that are inside the input (padding is not counted).
  AVG,
  /// The sum of the window's elements (padding counts as 0).
  SUM
};

} // namespace popnn

#endif // POPNN_POOLINGDEF_HPP
