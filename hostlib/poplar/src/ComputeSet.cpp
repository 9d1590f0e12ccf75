// Compute-set handles.
#include "poplar/ComputeSet.hpp"

namespace poplar {

bool ComputeSet::valid() const { return graph_ != nullptr; }

} // namespace poplar
