// Host conversions between IEEE single and half precision, bit-exact and independent of the host's float support.
#ifndef POPFLOAT_EXPERIMENTAL_CASTTOHALF_HPP
#define POPFLOAT_EXPERIMENTAL_CASTTOHALF_HPP

#include <cstdint>

namespace popfloat {
namespace experimental {

/// The half bits nearest `value` (ties to even). A finite value beyond half's range saturates at +-65504 whether
/// or not enNanoo (the IPU's NaN-on-overflow mode) is set, as PopLibs' does; infinities stay infinite, NaNs stay
/// NaN (quiet or signalling) and values below half the smallest denormal become signed zero.
uint16_t singleToHalf(float value, bool enNanoo = false);

/// The single equal to the half whose bits are `ihalf` (every half is exact in single; NaNs stay NaN).
float halfToSingle(uint16_t ihalf);

} // namespace experimental
} // namespace popfloat

#endif // POPFLOAT_EXPERIMENTAL_CASTTOHALF_HPP
