// Internal: the regions a Tensor operation gathers for a new view, adjacent runs merged. The first region stays
// inline, so a view that turns out to be one region (a row, a slice of one: most views a graph builder makes)
// costs no allocation for its regions; the list only grows a vector at its second region.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "poplar/Tensor.hpp"

namespace poplar::detail {

class RegionList {
public:
  /// Adds elements [b, e) of `var` in `replica`, extending the last region when they continue it.
  void append(unsigned var, std::size_t b, std::size_t e, unsigned replica) {
    if (b == e)
      return;
    if (VarRegion *last = back(); last && last->var == var && last->replica == replica && last->end == b) {
      last->end = e;
      return;
    }
    const VarRegion r{var, b, e, replica};
    if (!hasFirst_) {
      first_ = r;
      hasFirst_ = true;
      return;
    }
    if (many_.empty())
      many_.push_back(first_);
    many_.push_back(r);
  }
  bool single() const { return hasFirst_ && many_.empty(); }
  const VarRegion &first() const { return first_; }
  /// The regions as a vector (what Tensor keeps for a view of several); leaves the list empty.
  std::vector<VarRegion> take() {
    std::vector<VarRegion> out = std::move(many_);
    if (hasFirst_ && out.empty())
      out.push_back(first_);
    many_.clear();
    hasFirst_ = false;
    return out;
  }

private:
  VarRegion *back() {
    if (!many_.empty())
      return &many_.back();
    return hasFirst_ ? &first_ : nullptr;
  }
  VarRegion first_{};
  bool hasFirst_ = false;
  std::vector<VarRegion> many_; ///< every region, the first included, once there are two
};

} // namespace poplar::detail
