// The description of a convolution: types, batch, input field, kernel, channels, groups, and the transforms of
// the input, the kernel and the output (truncation, dilation, padding, flip, stride).
#ifndef POPLIN_CONVPARAMS_HPP
#define POPLIN_CONVPARAMS_HPP

#include <cstddef>
#include <iosfwd>
#include <vector>

#include <poplar/Type.hpp>

namespace poplin {

/// A convolution of `numConvGroups` groups: each group convolves `inputChannels` channels of the input with its
/// kernels into `outputChannels` channels. Activations are {batch, groups * channels, field...}, weights
/// {groups, outputChannels, inputChannels, kernel...}.
struct ConvParams {
  /// What is done to each spatial dimension of the input (or of the kernel) before the convolution, in order:
  /// truncation, dilation (zeros between elements), padding (zeros at the ends), flip.
  struct InputTransform {
    std::vector<unsigned> truncationLower;
    std::vector<unsigned> truncationUpper;
    std::vector<unsigned> dilation;
    std::vector<unsigned> paddingLower;
    std::vector<unsigned> paddingUpper;
    std::vector<bool> flip;

    InputTransform() {}
    /// No transform of `size` dimensions (truncation 0, dilation 1, padding 0, no flip).
    explicit InputTransform(std::size_t size);
    InputTransform(std::vector<unsigned> truncationLower, std::vector<unsigned> truncationUpper,
                   std::vector<unsigned> dilation, std::vector<unsigned> paddingLower,
                   std::vector<unsigned> paddingUpper, std::vector<bool> flip);
    friend bool operator<(const InputTransform &a, const InputTransform &b);
    friend bool operator==(const InputTransform &a, const InputTransform &b);
    friend bool operator!=(const InputTransform &a, const InputTransform &b);
  };

  /// What is done to each spatial dimension of the output, in order: truncation, striding, padding.
  struct OutputTransform {
    std::vector<unsigned> truncationLower;
    std::vector<unsigned> truncationUpper;
    std::vector<unsigned> stride;
    std::vector<unsigned> paddingLower;
    std::vector<unsigned> paddingUpper;

    OutputTransform() {}
    /// No transform of `size` dimensions (stride 1).
    explicit OutputTransform(std::size_t size);
    OutputTransform(std::vector<unsigned> truncationLower, std::vector<unsigned> truncationUpper,
                    std::vector<unsigned> stride, std::vector<unsigned> paddingLower,
                    std::vector<unsigned> paddingUpper);
    friend bool operator<(const OutputTransform &a, const OutputTransform &b);
    friend bool operator==(const OutputTransform &a, const OutputTransform &b);
    friend bool operator!=(const OutputTransform &a, const OutputTransform &b);
  };

  poplar::Type inputType;
  poplar::Type outputType;
  std::size_t batchSize;
  std::vector<std::size_t> inputFieldShape;
  std::vector<std::size_t> kernelShape;
  /// Input channels per group.
  std::size_t inputChannels;
  /// Output channels per group.
  std::size_t outputChannels;
  std::size_t numConvGroups;
  InputTransform inputTransform;
  InputTransform kernelTransform;
  OutputTransform outputTransform;

  ConvParams() : batchSize(0), inputChannels(0), outputChannels(0), numConvGroups(1) {}
  /// No transforms; input and output of `dataType`.
  ConvParams(poplar::Type dataType, std::size_t batchSize, std::vector<std::size_t> inputFieldShape,
             std::vector<std::size_t> kernelShape, std::size_t inputChannels, std::size_t outputChannels,
             std::size_t numConvGroups);
  ConvParams(poplar::Type inputType, poplar::Type outputType, std::size_t batchSize,
             std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
             std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups);
  ConvParams(poplar::Type inputType, poplar::Type outputType, std::size_t batchSize,
             std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
             std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups,
             InputTransform inputTransform, InputTransform kernelTransform, OutputTransform outputTransform);

  /// The output size of dimension `dim` before the output transform.
  std::size_t getUntransformedOutputSize(unsigned dim) const;
  /// The output size of dimension `dim`.
  std::size_t getOutputSize(unsigned dim) const;
  std::size_t getNumOutputChansPerConvGroup() const { return outputChannels; }
  std::size_t getNumOutputChans() const { return outputChannels * numConvGroups; }
  std::size_t getInputSize(unsigned dim) const { return inputFieldShape[dim]; }
  std::size_t getNumInputChansPerConvGroup() const { return inputChannels; }
  std::size_t getNumInputChans() const { return inputChannels * numConvGroups; }
  std::size_t getNumConvGroups() const { return numConvGroups; }
  std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
  std::size_t getBatchSize() const { return batchSize; }
  /// Sizes of dimension `dim` of the input (kernel) after truncation, and after the whole transform.
  unsigned getTruncatedInputSize(unsigned dim) const;
  unsigned getTruncatedKernelSize(unsigned dim) const;
  unsigned getTransformedInputSize(unsigned dim) const;
  unsigned getTransformedKernelSize(unsigned dim) const;
  /// The output field's shape.
  std::vector<std::size_t> getOutputFieldShape() const;
  /// Throws poputil::poplibs_error naming the first inconsistency (transform vectors of the wrong length, a
  /// dilation or stride of 0, a truncation longer than the field, a kernel larger than the input, no channels).
  void validate() const;
  /// The same convolution (this implementation keeps every form as given).
  ConvParams canonicalize() const;

  friend bool operator<(const ConvParams &a, const ConvParams &b);
  friend bool operator==(const ConvParams &a, const ConvParams &b);
  friend bool operator!=(const ConvParams &a, const ConvParams &b);
};

/// Prints the parameters on one line per part.
std::ostream &operator<<(std::ostream &os, const ConvParams &p);
/// Reads parameters as operator<< prints them (the words, braces and commas; any whitespace between them;
/// outputFieldShape, derived from the rest, must match it). Throws poputil::poplibs_error naming the first part
/// that is missing or malformed, or the inconsistency ConvParams::validate finds; `p` is left as it was then.
std::istream &operator>>(std::istream &is, ConvParams &p);
/// A hash of every field of the transform (equal transforms hash equal), for hashed containers.
std::size_t hash_value(const ConvParams::InputTransform &it);
/// The same for an output transform.
std::size_t hash_value(const ConvParams::OutputTransform &ot);

} // namespace poplin

#endif // POPLIN_CONVPARAMS_HPP
