// Conversions between host values and the device's representation of a type, for buffers a program passes to
// Engine::writeTensor / readTensor or to stream callbacks: HALF (IEEE binary16), QUARTER (8-bit floats with
// QuarterMetadata), FLOAT and the integer and BOOL types (plain copies with C++ conversion).
#ifndef POPLAR_TYPE_CONVERSION_HPP
#define POPLAR_TYPE_CONVERSION_HPP

#include "poplar/ArrayRef.hpp"
#include "poplar/Quarter.hpp"
#include "poplar/Type.hpp"

#include <vector>

namespace poplar {

/// Writes `src` converted to `dstType` to `dst` (src.size() elements of dstType's device size). T: float, double,
/// or an integer type. Throws poplar_error for QUARTER (it needs metadata: use the overload below) or a type with
/// no device form (e.g. QUARTER_METADATA).
template <typename T> void convertToDeviceType(Type dstType, ArrayRef<T> src, void *dst);
/// As above; `metadata` gives the format and scale when dstType is QUARTER (it is ignored otherwise).
template <typename T>
void convertToDeviceType(Type dstType, const QuarterMetadata &metadata, ArrayRef<T> src, void *dst);
/// As above, choosing what a finite value too large for QUARTER becomes: NaN with `enableNanooMode` (as the
/// device does with the floating-point control's NaN-on-overflow bit set), else the largest value of the sign
/// (saturation, what the overload above does). Infinities and NaN become QUARTER's NaN in both modes.
template <typename T>
void convertToDeviceType(Type dstType, const QuarterMetadata &metadata, ArrayRef<T> src, void *dst,
                         bool enableNanooMode);

/// Reads dst.size() elements of `srcType` from `src` into `dst` (the ArrayRef names the caller's writable
/// buffer). Throws poplar_error for QUARTER without metadata.
template <typename T> void convertFromDeviceType(Type srcType, const void *src, ArrayRef<T> dst);
template <typename T>
void convertFromDeviceType(Type srcType, const QuarterMetadata &metadata, const void *src, ArrayRef<T> dst);

// A std::vector converts to ArrayRef<T> but cannot deduce T; these let a program pass its vector directly, as it
// does with Graphcore's headers.
template <typename T> void convertToDeviceType(Type dstType, const std::vector<T> &src, void *dst) {
  convertToDeviceType(dstType, ArrayRef<T>(src), dst);
}
template <typename T>
void convertToDeviceType(Type dstType, const QuarterMetadata &metadata, const std::vector<T> &src, void *dst,
                         bool enableNanooMode = false) {
  convertToDeviceType(dstType, metadata, ArrayRef<T>(src), dst, enableNanooMode);
}
template <typename T> void convertFromDeviceType(Type srcType, const void *src, std::vector<T> &dst) {
  convertFromDeviceType(srcType, src, ArrayRef<T>(dst));
}
template <typename T>
void convertFromDeviceType(Type srcType, const QuarterMetadata &metadata, const void *src, std::vector<T> &dst) {
  convertFromDeviceType(srcType, metadata, src, ArrayRef<T>(dst));
}

} // namespace poplar

#endif // POPLAR_TYPE_CONVERSION_HPP
