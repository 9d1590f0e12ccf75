// The per-dimension index arithmetic of a convolution (ConvUtil.hpp): an output position o (after the output
// transform) comes from position o' = (o - outPadLower) * stride + outTruncLower of the plain correlation, which
// reads position o' + k' of the transformed input for each position k' of the transformed kernel. Mapping an
// untransformed index through its transform (truncate, dilate, pad, flip) and back is all the functions need; the
// range functions take the hull of the valid indices by enumeration (fields are small, and the hull is exact).
#include <algorithm>
#include <optional>

#include "poplin/ConvUtil.hpp"

namespace poplin {

namespace {

constexpr unsigned none = ~0U;

// The transformed position of untransformed index i (nullopt when truncated away).
std::optional<long> forward(const ConvParams::InputTransform &t, unsigned d, std::size_t size, unsigned i) {
  if (i < t.truncationLower[d] || i + t.truncationUpper[d] >= size)
    return std::nullopt;
  const long truncated = long(size) - t.truncationLower[d] - t.truncationUpper[d];
  const long transformed = long(getDilatedSize(unsigned(truncated), t.dilation[d])) + t.paddingLower[d] +
                           t.paddingUpper[d];
  long p = long(i - t.truncationLower[d]) * t.dilation[d] + t.paddingLower[d];
  return t.flip[d] ? transformed - 1 - p : p;
}

// The untransformed index at transformed position p (none for padding, a dilation zero or out of range).
unsigned backward(const ConvParams::InputTransform &t, unsigned d, std::size_t size, long p) {
  const long truncated = long(size) - t.truncationLower[d] - t.truncationUpper[d];
  const long dilated = long(getDilatedSize(unsigned(truncated), t.dilation[d]));
  const long transformed = dilated + t.paddingLower[d] + t.paddingUpper[d];
  if (p < 0 || p >= transformed)
    return none;
  if (t.flip[d])
    p = transformed - 1 - p;
  p -= t.paddingLower[d];
  if (p < 0 || p >= dilated || p % t.dilation[d] != 0)
    return none;
  return unsigned(p / t.dilation[d] + t.truncationLower[d]);
}

// The correlation position o' of output o (nullopt for output padding or past the end).
std::optional<long> correlationPosition(unsigned d, unsigned o, const ConvParams &p) {
  const auto &ot = p.outputTransform;
  if (o < ot.paddingLower[d] || o + ot.paddingUpper[d] >= p.getOutputSize(d))
    return std::nullopt;
  return long(o - ot.paddingLower[d]) * ot.stride[d] + ot.truncationLower[d];
}

using Range = std::pair<unsigned, unsigned>;

// Grows hull `r` (empty when first == second) to include [b, e).
void grow(Range &r, unsigned b, unsigned e) {
  if (b >= e)
    return;
  if (r.first == r.second)
    r = {b, e};
  else
    r = {std::min(r.first, b), std::max(r.second, e)};
}

} // namespace

unsigned getDilatedSize(unsigned size, unsigned dilation) { return size == 0 ? 0 : 1 + (size - 1) * dilation; }

unsigned getInputIndex(unsigned dim, unsigned outputIndex, unsigned kernelIndex, const ConvParams &params) {
  const auto o = correlationPosition(dim, outputIndex, params);
  const auto k = forward(params.kernelTransform, dim, params.kernelShape[dim], kernelIndex);
  if (!o || !k)
    return none;
  return backward(params.inputTransform, dim, params.inputFieldShape[dim], *o + *k);
}

unsigned getKernelIndex(unsigned dim, unsigned outputIndex, unsigned inputIndex, const ConvParams &params) {
  const auto o = correlationPosition(dim, outputIndex, params);
  const auto i = forward(params.inputTransform, dim, params.inputFieldShape[dim], inputIndex);
  if (!o || !i)
    return none;
  return backward(params.kernelTransform, dim, params.kernelShape[dim], *i - *o);
}

Range getOutputRangeForKernelIndex(unsigned dim, Range outputRange, unsigned kernelIndex, const ConvParams &params) {
  Range r{0, 0};
  for (unsigned o = outputRange.first; o < outputRange.second; ++o)
    if (getInputIndex(dim, o, kernelIndex, params) != none)
      grow(r, o, o + 1);
  return r;
}

Range getOutputRangeForInputIndex(unsigned dim, Range outputRange, unsigned inputIndex, const ConvParams &params) {
  Range r{0, 0};
  for (unsigned o = outputRange.first; o < outputRange.second; ++o)
    if (getKernelIndex(dim, o, inputIndex, params) != none)
      grow(r, o, o + 1);
  return r;
}

Range getOutputRangeForKernelRange(unsigned dim, Range outputRange, Range kernelIndexRange,
                                   const ConvParams &params) {
  Range r{0, 0};
  for (unsigned k = kernelIndexRange.first; k < kernelIndexRange.second; ++k) {
    const Range part = getOutputRangeForKernelIndex(dim, outputRange, k, params);
    grow(r, part.first, part.second);
  }
  return r;
}

Range getOutputRangeForInputRange(unsigned dim, Range outputRange, Range inputRange, const ConvParams &params) {
  Range r{0, 0};
  for (unsigned i = inputRange.first; i < inputRange.second; ++i) {
    const Range part = getOutputRangeForInputIndex(dim, outputRange, i, params);
    grow(r, part.first, part.second);
  }
  return r;
}

Range getInputRange(unsigned dim, Range outputRange, unsigned kernelIndex, const ConvParams &params) {
  Range r{0, 0};
  for (unsigned o = outputRange.first; o < outputRange.second; ++o) {
    const unsigned i = getInputIndex(dim, o, kernelIndex, params);
    if (i != none)
      grow(r, i, i + 1);
  }
  return r;
}

Range getKernelRange(unsigned dim, Range outputRange, unsigned inputIndex, const ConvParams &params) {
  Range r{0, 0};
  for (unsigned o = outputRange.first; o < outputRange.second; ++o) {
    const unsigned k = getKernelIndex(dim, o, inputIndex, params);
    if (k != none)
      grow(r, k, k + 1);
  }
  return r;
}

Range getInputRange(unsigned dim, Range outputRange, Range kernelIndexRange, const ConvParams &params) {
  Range r{0, 0};
  for (unsigned k = kernelIndexRange.first; k < kernelIndexRange.second; ++k) {
    const Range part = getInputRange(dim, outputRange, k, params);
    grow(r, part.first, part.second);
  }
  return r;
}

Range getKernelRange(unsigned dim, Range outputRange, Range inputRange, const ConvParams &params) {
  Range r{0, 0};
  for (unsigned i = inputRange.first; i < inputRange.second; ++i) {
    const Range part = getKernelRange(dim, outputRange, i, params);
    grow(r, part.first, part.second);
  }
  return r;
}

ConvParams getWeightUpdateParams(const ConvParams &f) {
  f.validate();
  // The weight update correlates the forward input (batch and channels swapped) with the output gradient used as
  // the kernel. The gradient undoes the forward's output transform on its way into the correlation, and the
  // result lands on the transformed kernel, so the forward kernel transform is undone on the way out:
  //   output padding -> kernel truncation, stride -> kernel dilation, output truncation -> kernel padding;
  //   kernel padding -> output truncation, kernel dilation -> stride, kernel truncation -> output padding.
  ConvParams w(f.inputType, f.outputType, f.inputChannels, f.inputFieldShape, f.getOutputFieldShape(), f.batchSize,
               f.outputChannels, f.numConvGroups);
  w.inputTransform = f.inputTransform;
  const auto &kt = f.kernelTransform;
  const auto &ot = f.outputTransform;
  for (unsigned d = 0; d < f.getNumFieldDims(); ++d) {
    // A flipped forward kernel reverses the result: flip both operands of the weight update instead.
    if (kt.flip[d]) {
      w.inputTransform.flip[d] = !w.inputTransform.flip[d];
      w.kernelTransform.flip[d] = true;
    }
    w.kernelTransform.truncationLower[d] = ot.paddingLower[d];
    w.kernelTransform.truncationUpper[d] = ot.paddingUpper[d];
    w.kernelTransform.dilation[d] = ot.stride[d];
    w.kernelTransform.paddingLower[d] = ot.truncationLower[d];
    w.kernelTransform.paddingUpper[d] = ot.truncationUpper[d];
    w.outputTransform.truncationLower[d] = kt.paddingLower[d];
    w.outputTransform.truncationUpper[d] = kt.paddingUpper[d];
    w.outputTransform.stride[d] = kt.dilation[d];
    w.outputTransform.paddingLower[d] = kt.truncationLower[d];
    w.outputTransform.paddingUpper[d] = kt.truncationUpper[d];
    // With a stride that does not divide the input's span, the correlation runs past the last kernel position
    // (forward inputs no output reads): drop those positions, at the end the flips make the far one.
    auto &cut = w.inputTransform.flip[d] ? w.outputTransform.truncationLower : w.outputTransform.truncationUpper;
    while (w.getOutputSize(d) > f.kernelShape[d])
      ++cut[d];
  }
  return w;
}

} // namespace poplin
