// The plan of the Connectionist Temporal Classification (CTC) operations: how popnn::ctc (loss and gradient) and
// popnn::ctc_infer (decoding) lay out their tensors and split their work over the tiles.
#ifndef POPNN_CTCPLAN_HPP
#define POPNN_CTCPLAN_HPP

#include <iosfwd>
#include <memory>

#include <poputil/DebugInfo.hpp>

namespace popnn {
namespace ctc {

/// A plan made by popnn::ctc::plan (for the loss) or popnn::ctc_infer::plan (for inference); pass it to the
/// functions of the same kind (the others throw poputil::poplibs_error). Plans are values: copyable, comparable,
/// printable.
class Plan {
public:
  /// An empty plan (of neither kind).
  Plan();
  ~Plan();
  Plan(const Plan &other);
  Plan(Plan &&other);
  Plan &operator=(const Plan &other);
  Plan &operator=(Plan &&other);

  friend bool operator<(const Plan &a, const Plan &b);
  friend bool operator==(const Plan &a, const Plan &b);

  /// Prints the plan's kind, sizes and partitions.
  friend std::ostream &operator<<(std::ostream &o, const Plan &p);
  friend poplar::ProfileValue poputil::toProfileValue<>(const Plan &p);

  /// The implementation (internal to popnn).
  class Impl;
  Impl &getImpl() const { return *impl; }
  Plan(std::unique_ptr<Impl> impl);

private:
  std::unique_ptr<Impl> impl;
};

bool operator<(const Plan &a, const Plan &b);
bool operator==(const Plan &a, const Plan &b);
bool operator!=(const Plan &a, const Plan &b);

} // namespace ctc
} // namespace popnn

#endif // POPNN_CTCPLAN_HPP
