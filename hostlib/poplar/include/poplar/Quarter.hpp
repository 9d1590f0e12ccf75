// QuarterMetadata: how the 8-bit float type QUARTER is to be read. A quarter tensor's elements are 8-bit floats of
// one of two formats, scaled by a power of two that the metadata carries (a QUARTER_METADATA tensor on the device).
#ifndef POPLAR_QUARTER_HPP
#define POPLAR_QUARTER_HPP

#include <cstdint>
#include <ostream>
#include <string>

namespace poplar {

class QuarterMetadata {
public:
  /// F143: 1 sign, 4 exponent and 3 mantissa bits (exponent bias 8); F152: 1 sign, 5 exponent, 2 mantissa bits
  /// (bias 16).
  enum class Format { F143, F152 };

  /// F143 with scale 0.
  QuarterMetadata() : format_(Format::F143), scale_(0) {}
  /// `scale`: the value an element stands for is its 8-bit value times 2^scale. Throws poplar_error naming the
  /// scale when it is outside [-32, 31] (the 6 bits the device's metadata byte holds).
  QuarterMetadata(Format format, std::int8_t scale);

  Format getFormat() const { return format_; }
  std::int8_t getScale() const { return scale_; }
  /// The metadata byte as the device holds it: bit 7 the format (1: F152), bits 0-5 the scale (two's complement).
  std::uint8_t getBinary() const;
  /// The metadata of a byte getBinary() wrote.
  static QuarterMetadata fromBinary(std::uint8_t binary);
  /// E.g. "F143 scale -3".
  std::string toString() const;

  bool operator==(const QuarterMetadata &o) const { return format_ == o.format_ && scale_ == o.scale_; }
  bool operator!=(const QuarterMetadata &o) const { return !(*this == o); }

private:
  Format format_;
  std::int8_t scale_;
};

std::ostream &operator<<(std::ostream &os, const QuarterMetadata &md);
std::string toString(QuarterMetadata::Format format);

} // namespace poplar

#endif // POPLAR_QUARTER_HPP
