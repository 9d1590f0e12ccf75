// TensorRearranger: a permutation kept as intervals of the original; the interval forms map through the runs.
#include "poplar/TensorRearranger.hpp"

#include <algorithm>
#include <string>

#include "poplar/exceptions.hpp"

namespace poplar {

namespace {

/// Sorts and merges touching intervals.
std::vector<Interval> merged(std::vector<Interval> in) {
  std::sort(in.begin(), in.end(), [](const Interval &a, const Interval &b) { return a.begin() < b.begin(); });
  std::vector<Interval> out;
  for (const Interval &i : in) {
    if (i.size() == 0)
      continue;
    if (!out.empty() && out.back().end() >= i.begin())
      out.back() = Interval(out.back().begin(), std::max(out.back().end(), i.end()));
    else
      out.push_back(i);
  }
  return out;
}

/// One run of the permutation: elements [from, from + size) of one side are [to, to + size) of the other.
struct Run {
  std::size_t from, to, size;
};

/// The permutation's runs: from original positions to rearranged ones (`toRearranged`), or back.
std::vector<Run> runsOf(const std::vector<Interval> &order, bool toRearranged) {
  std::vector<Run> runs;
  std::size_t at = 0;
  for (const Interval &i : order) {
    runs.push_back(toRearranged ? Run{i.begin(), at, i.size()} : Run{at, i.begin(), i.size()});
    at += i.size();
  }
  return runs;
}

/// The parts of `intervals` (positions on the `from` side) on the other side.
std::vector<Interval> mapThrough(const std::vector<Run> &runs, ArrayRef<Interval> intervals, std::size_t n,
                                 const char *call) {
  std::vector<Interval> out;
  for (const Interval &i : intervals) {
    if (i.end() > n)
      throw poplar_error(std::string("TensorRearranger::") + call + ": interval [" + std::to_string(i.begin()) +
                         ", " + std::to_string(i.end()) + ") is past the " + std::to_string(n) +
                         " elements; pass intervals of the rearranged tensors' elements");
    for (const Run &r : runs) {
      std::size_t b = std::max(i.begin(), r.from), e = std::min(i.end(), r.from + r.size);
      if (b < e)
        out.push_back(Interval(r.to + (b - r.from), r.to + (e - r.from)));
    }
  }
  return merged(out);
}

} // namespace

TensorRearranger::TensorRearranger(std::vector<Interval> order) : order_(std::move(order)) {
  std::vector<Interval> sorted = order_;
  std::sort(sorted.begin(), sorted.end(), [](const Interval &a, const Interval &b) { return a.begin() < b.begin(); });
  std::size_t next = 0;
  for (const Interval &i : sorted) {
    if (i.begin() != next)
      throw poplar_error("TensorRearranger: the intervals do not cover the elements exactly once (element " +
                         std::to_string(next) + " is " + (i.begin() > next ? "missing" : "repeated") +
                         "); pass each element's interval once");
    next = i.end();
  }
  numElements_ = next;
  valid_ = true;
}

void TensorRearranger::checkValid(const char *call) const {
  if (!valid_)
    throw poplar_error(std::string("TensorRearranger::") + call + ": this rearranger is default-constructed; get one "
                       "from Graph::getSimplifyingRearranger(tensor)");
}

void TensorRearranger::checkTensor(const char *call, const Tensor &t) const {
  checkValid(call);
  if (t.numElements() != numElements_)
    throw poplar_error(std::string("TensorRearranger::") + call + ": the tensor has " +
                       std::to_string(t.numElements()) + " elements and the rearranger " +
                       std::to_string(numElements_) + "; pass a tensor of the same number of elements");
}

Tensor TensorRearranger::rearrange(const Tensor &t) const {
  checkTensor("rearrange", t);
  const Tensor flat = t.flatten();
  std::vector<Tensor> pieces;
  for (const Interval &i : order_)
    pieces.push_back(flat.slice(i.begin(), i.end()));
  return pieces.empty() ? flat : concat(pieces);
}

Tensor TensorRearranger::undoRearrangement(const Tensor &t) const {
  checkTensor("undoRearrangement", t);
  const Tensor flat = t.flatten();
  // Where each original interval sits in the rearranged tensor, then those pieces in original order.
  std::vector<Run> runs = runsOf(order_, true);
  std::sort(runs.begin(), runs.end(), [](const Run &a, const Run &b) { return a.from < b.from; });
  std::vector<Tensor> pieces;
  for (const Run &r : runs)
    pieces.push_back(flat.slice(r.to, r.to + r.size));
  return pieces.empty() ? flat : concat(pieces);
}

std::vector<Interval> TensorRearranger::rearrange(ArrayRef<Interval> intervals) const {
  checkValid("rearrange");
  return mapThrough(runsOf(order_, true), intervals, numElements_, "rearrange");
}

std::vector<Interval> TensorRearranger::undoRearrangement(ArrayRef<Interval> intervals) const {
  checkValid("undoRearrangement");
  return mapThrough(runsOf(order_, false), intervals, numElements_, "undoRearrangement");
}

} // namespace poplar
