// IeeeHalf's conversions: the ones libpoplar uses for HALF tensors (half.hpp), so host and device agree.
#include "poplar/IeeeHalf.hpp"

#include "half.hpp"

namespace poplar {

IeeeHalf::IeeeHalf(float value) : bits_(detail::floatToHalf(value)) {}

IeeeHalf::operator float() const { return detail::halfToFloat(bits_); }

} // namespace poplar
