// How program::PrintTensor lays out a tensor's values when given a format (the SDK's PrintTensorFmt).
#ifndef POPLAR_PRINT_TENSOR_HPP
#define POPLAR_PRINT_TENSOR_HPP

namespace poplar {

/// The layout of a printed tensor. A tensor of more than `summariseThreshold` elements is summarised: each
/// dimension shows its first and last `edgeItems` entries with "..." between. Floating-point elements are written
/// with `digits` significant (Auto, Scientific) or fractional (Fixed) digits; with FloatFormat::None or digits 0
/// they are written as the tile printed them. `separator` goes between the elements of a row, which the brackets
/// open and close. `maxLineWidth` is kept for the SDK's signature: rows are not wrapped here.
struct PrintTensorFmt {
  enum class FloatFormat { Auto, Fixed, Scientific, None };
  PrintTensorFmt(unsigned summariseThreshold_ = 1000, unsigned edgeItems_ = 3, unsigned maxLineWidth_ = 75,
                 unsigned digits_ = 8, FloatFormat floatFormat_ = FloatFormat::Auto, char separator_ = ' ',
                 char openBracket_ = '[', char closeBracket_ = ']')
      : summariseThreshold(summariseThreshold_), edgeItems(edgeItems_), maxLineWidth(maxLineWidth_), digits(digits_),
        floatFormat(floatFormat_), separator(separator_), openBracket(openBracket_), closeBracket(closeBracket_) {}
  unsigned summariseThreshold;
  unsigned edgeItems;
  unsigned maxLineWidth;
  unsigned digits;
  FloatFormat floatFormat;
  char separator;
  char openBracket;
  char closeBracket;
};

} // namespace poplar

#endif
