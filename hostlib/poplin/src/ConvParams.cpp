// ConvParams: sizes after each transform, validation, comparison and printing; getGradientParams.
#include "poplin/ConvParams.hpp"

#include <boost/container_hash/hash.hpp>
#include <ostream>
#include <sstream>
#include <tuple>

#include "poplin/ConvUtil.hpp"
#include "conv_fields.hpp"
#include "poputil/exceptions.hpp"

namespace poplin {

using poputil::poplibs_error;

ConvParams::InputTransform::InputTransform(std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), dilation(size, 1), paddingLower(size, 0),
      paddingUpper(size, 0), flip(size, false) {}

ConvParams::InputTransform::InputTransform(std::vector<unsigned> tl, std::vector<unsigned> tu,
                                           std::vector<unsigned> d, std::vector<unsigned> pl,
                                           std::vector<unsigned> pu, std::vector<bool> f)
    : truncationLower(std::move(tl)), truncationUpper(std::move(tu)), dilation(std::move(d)),
      paddingLower(std::move(pl)), paddingUpper(std::move(pu)), flip(std::move(f)) {}

static auto tie(const ConvParams::InputTransform &t) {
  return std::tie(t.truncationLower, t.truncationUpper, t.dilation, t.paddingLower, t.paddingUpper, t.flip);
}
bool operator<(const ConvParams::InputTransform &a, const ConvParams::InputTransform &b) { return tie(a) < tie(b); }
bool operator==(const ConvParams::InputTransform &a, const ConvParams::InputTransform &b) { return tie(a) == tie(b); }
bool operator!=(const ConvParams::InputTransform &a, const ConvParams::InputTransform &b) { return !(a == b); }

ConvParams::OutputTransform::OutputTransform(std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), stride(size, 1), paddingLower(size, 0),
      paddingUpper(size, 0) {}

ConvParams::OutputTransform::OutputTransform(std::vector<unsigned> tl, std::vector<unsigned> tu,
                                             std::vector<unsigned> s, std::vector<unsigned> pl,
                                             std::vector<unsigned> pu)
    : truncationLower(std::move(tl)), truncationUpper(std::move(tu)), stride(std::move(s)),
      paddingLower(std::move(pl)), paddingUpper(std::move(pu)) {}

static auto tie(const ConvParams::OutputTransform &t) {
  return std::tie(t.truncationLower, t.truncationUpper, t.stride, t.paddingLower, t.paddingUpper);
}
bool operator<(const ConvParams::OutputTransform &a, const ConvParams::OutputTransform &b) { return tie(a) < tie(b); }
bool operator==(const ConvParams::OutputTransform &a, const ConvParams::OutputTransform &b) {
  return tie(a) == tie(b);
}
bool operator!=(const ConvParams::OutputTransform &a, const ConvParams::OutputTransform &b) { return !(a == b); }

ConvParams::ConvParams(poplar::Type dataType, std::size_t batch, std::vector<std::size_t> field,
                       std::vector<std::size_t> kernel, std::size_t inChans, std::size_t outChans,
                       std::size_t groups)
    : ConvParams(dataType, dataType, batch, std::move(field), std::move(kernel), inChans, outChans, groups) {}

ConvParams::ConvParams(poplar::Type inType, poplar::Type outType, std::size_t batch, std::vector<std::size_t> field,
                       std::vector<std::size_t> kernel, std::size_t inChans, std::size_t outChans,
                       std::size_t groups)
    : inputType(inType), outputType(outType), batchSize(batch), inputFieldShape(std::move(field)),
      kernelShape(std::move(kernel)), inputChannels(inChans), outputChannels(outChans), numConvGroups(groups),
      inputTransform(inputFieldShape.size()), kernelTransform(inputFieldShape.size()),
      outputTransform(inputFieldShape.size()) {}

ConvParams::ConvParams(poplar::Type inType, poplar::Type outType, std::size_t batch, std::vector<std::size_t> field,
                       std::vector<std::size_t> kernel, std::size_t inChans, std::size_t outChans,
                       std::size_t groups, InputTransform inT, InputTransform kT, OutputTransform outT)
    : inputType(inType), outputType(outType), batchSize(batch), inputFieldShape(std::move(field)),
      kernelShape(std::move(kernel)), inputChannels(inChans), outputChannels(outChans), numConvGroups(groups),
      inputTransform(std::move(inT)), kernelTransform(std::move(kT)), outputTransform(std::move(outT)) {}

static unsigned transformed(std::size_t size, const ConvParams::InputTransform &t, unsigned d) {
  std::size_t n = size - t.truncationLower[d] - t.truncationUpper[d];
  std::size_t dilated = n == 0 ? 0 : (n - 1) * t.dilation[d] + 1;
  return unsigned(dilated + t.paddingLower[d] + t.paddingUpper[d]);
}

unsigned ConvParams::getTruncatedInputSize(unsigned d) const {
  return unsigned(inputFieldShape[d] - inputTransform.truncationLower[d] - inputTransform.truncationUpper[d]);
}
unsigned ConvParams::getTruncatedKernelSize(unsigned d) const {
  return unsigned(kernelShape[d] - kernelTransform.truncationLower[d] - kernelTransform.truncationUpper[d]);
}
unsigned ConvParams::getTransformedInputSize(unsigned d) const { return transformed(inputFieldShape[d], inputTransform, d); }
unsigned ConvParams::getTransformedKernelSize(unsigned d) const { return transformed(kernelShape[d], kernelTransform, d); }

std::size_t ConvParams::getUntransformedOutputSize(unsigned d) const {
  std::size_t in = getTransformedInputSize(d), k = getTransformedKernelSize(d);
  return in + 1 >= k ? in + 1 - k : 0;
}

std::size_t ConvParams::getOutputSize(unsigned d) const {
  std::size_t u = getUntransformedOutputSize(d);
  std::size_t cut = outputTransform.truncationLower[d] + outputTransform.truncationUpper[d];
  std::size_t kept = u > cut ? u - cut : 0;
  std::size_t s = outputTransform.stride[d];
  return (kept + s - 1) / s + outputTransform.paddingLower[d] + outputTransform.paddingUpper[d];
}

std::vector<std::size_t> ConvParams::getOutputFieldShape() const {
  std::vector<std::size_t> s;
  for (unsigned d = 0; d < inputFieldShape.size(); ++d)
    s.push_back(getOutputSize(d));
  return s;
}

void ConvParams::validate() const {
  const std::size_t n = inputFieldShape.size();
  auto fail = [](const std::string &m) { throw poplibs_error("poplin::ConvParams: " + m); };
  if (n == 0)
    fail("the input field has no dimensions; give inputFieldShape, e.g. {H, W}");
  if (kernelShape.size() != n)
    fail("the kernel has " + std::to_string(kernelShape.size()) + " dimensions but the field has " +
         std::to_string(n) + "; give one kernel size per field dimension");
  auto check = [&](std::size_t size, const char *what) {
    if (size != n)
      fail(std::string(what) + " has " + std::to_string(size) + " entries for " + std::to_string(n) +
           " field dimensions; give one per dimension (the InputTransform(n)/OutputTransform(n) constructors fill "
           "the identity)");
  };
  const InputTransform *ts[] = {&inputTransform, &kernelTransform};
  const char *names[] = {"inputTransform", "kernelTransform"};
  for (int i = 0; i < 2; ++i) {
    const InputTransform &t = *ts[i];
    std::string nm = names[i];
    check(t.truncationLower.size(), (nm + ".truncationLower").c_str());
    check(t.truncationUpper.size(), (nm + ".truncationUpper").c_str());
    check(t.dilation.size(), (nm + ".dilation").c_str());
    check(t.paddingLower.size(), (nm + ".paddingLower").c_str());
    check(t.paddingUpper.size(), (nm + ".paddingUpper").c_str());
    check(t.flip.size(), (nm + ".flip").c_str());
    const std::vector<std::size_t> &shape = i == 0 ? inputFieldShape : kernelShape;
    for (std::size_t d = 0; d < n; ++d) {
      if (t.dilation[d] == 0)
        fail(nm + ".dilation[" + std::to_string(d) + "] is 0; use 1 for no dilation");
      if (t.truncationLower[d] + t.truncationUpper[d] > shape[d])
        fail(nm + " truncates " + std::to_string(t.truncationLower[d] + t.truncationUpper[d]) +
             " elements of dimension " + std::to_string(d) + " of size " + std::to_string(shape[d]));
    }
  }
  check(outputTransform.truncationLower.size(), "outputTransform.truncationLower");
  check(outputTransform.truncationUpper.size(), "outputTransform.truncationUpper");
  check(outputTransform.stride.size(), "outputTransform.stride");
  check(outputTransform.paddingLower.size(), "outputTransform.paddingLower");
  check(outputTransform.paddingUpper.size(), "outputTransform.paddingUpper");
  for (std::size_t d = 0; d < n; ++d) {
    if (outputTransform.stride[d] == 0)
      fail("outputTransform.stride[" + std::to_string(d) + "] is 0; use 1 for no stride");
    if (getTransformedKernelSize(unsigned(d)) > getTransformedInputSize(unsigned(d)))
      fail("the kernel (" + std::to_string(getTransformedKernelSize(unsigned(d))) + " after its transform) is larger "
           "than the input (" + std::to_string(getTransformedInputSize(unsigned(d))) + ") in dimension " +
           std::to_string(d) + "; pad the input");
  }
  if (batchSize == 0 || inputChannels == 0 || outputChannels == 0 || numConvGroups == 0)
    fail("batchSize, inputChannels, outputChannels and numConvGroups must each be at least 1");
}

ConvParams ConvParams::canonicalize() const { return *this; }

static auto tie(const ConvParams &p) {
  return std::make_tuple(p.inputType, p.outputType, p.batchSize, p.inputFieldShape, p.kernelShape,
                         p.inputChannels, p.outputChannels, p.numConvGroups, p.inputTransform, p.kernelTransform,
                         p.outputTransform);
}
bool operator<(const ConvParams &a, const ConvParams &b) { return tie(a) < tie(b); }
bool operator==(const ConvParams &a, const ConvParams &b) { return tie(a) == tie(b); }
bool operator!=(const ConvParams &a, const ConvParams &b) { return !(a == b); }

template <typename T> static void list(std::ostream &os, const char *name, const std::vector<T> &v) {
  os << "        " << name << " {";
  for (std::size_t i = 0; i < v.size(); ++i)
    os << (i ? ", " : "") << v[i];
  os << "}\n";
}

namespace {
// Each field's values hashed as a range (so {1}, {} and {0, 1} differ), the fields combined in order.
struct FieldHasher {
  std::size_t seed = 0;
  template <typename V> void operator()(const char *, const V &v) {
    boost::hash_combine(seed, boost::hash_range(v.begin(), v.end()));
  }
};
} // namespace

std::size_t hash_value(const ConvParams::InputTransform &it) {
  FieldHasher h;
  detail::forEachInputTransformField(it, h);
  return h.seed;
}

std::size_t hash_value(const ConvParams::OutputTransform &ot) {
  FieldHasher h;
  detail::forEachOutputTransformField(ot, h);
  return h.seed;
}

std::ostream &operator<<(std::ostream &os, const ConvParams &p) {
  os << "Params: inputType " << p.inputType.toString() << ", outputType " << p.outputType.toString()
     << ", batchSize " << p.batchSize << ", numConvGroups " << p.numConvGroups << ", inputChannels "
     << p.inputChannels << ", outputChannels " << p.outputChannels << "\n";
  list(os, "inputFieldShape", p.inputFieldShape);
  list(os, "kernelShape", p.kernelShape);
  auto print = [&](const char *name, const auto &v) { list(os, name, v); };
  os << "    inputTransform:\n";
  detail::forEachInputTransformField(p.inputTransform, print);
  os << "    kernelTransform:\n";
  detail::forEachInputTransformField(p.kernelTransform, print);
  os << "    outputTransform:\n";
  detail::forEachOutputTransformField(p.outputTransform, print);
  list(os, "outputFieldShape", p.getOutputFieldShape());
  return os;
}

ConvParams getGradientParams(const ConvParams &p) {
  p.validate();
  const std::size_t n = p.getNumFieldDims();
  ConvParams g(p.outputType, p.inputType, p.batchSize, p.getOutputFieldShape(), p.kernelShape, p.outputChannels,
               p.inputChannels, p.numConvGroups);
  // The forward, per dimension: the input is truncated, dilated, padded and flipped (T, of transformed size it);
  // the correlation with the transformed kernel (size kt) gives C = it - kt + 1 positions, which are truncated,
  // strided and padded into the output. The gradient pass undoes each step in reverse order:
  for (unsigned d = 0; d < n; ++d) {
    const auto &it = p.inputTransform;
    const auto &kt = p.kernelTransform;
    const auto &ot = p.outputTransform;
    const unsigned s = ot.stride[d], k = p.getTransformedKernelSize(d);
    const std::size_t full = p.getUntransformedOutputSize(d);
    const std::size_t kept = p.getOutputSize(d) - ot.paddingLower[d] - ot.paddingUpper[d];
    if (kept == 0)
      throw poplibs_error("poplin::getGradientParams: dimension " + std::to_string(d) +
                          " keeps no output position (the output truncation removes them all), so the input "
                          "gradient is zero; nothing to compute");
    // 1. Drop the output padding, put each kept output back at its position among the C (dilation by the
    //    stride, the truncated positions as zeros) and pad by kt - 1 on both sides for the full correlation.
    g.inputTransform.truncationLower[d] = ot.paddingLower[d];
    g.inputTransform.truncationUpper[d] = ot.paddingUpper[d];
    g.inputTransform.dilation[d] = s;
    g.inputTransform.paddingLower[d] = unsigned(ot.truncationLower[d] + k - 1);
    g.inputTransform.paddingUpper[d] = unsigned(full - ot.truncationLower[d] - (kept - 1) * s - 1 + k - 1);
    // 2. The correlation with the flipped transformed kernel. The weights arrive flipped (transposeAndFlipWeights)
    //    before their transform, so the kernel's truncation and padding swap sides; a forward kernel flip stays.
    //    A forward input flip reverses T: flipping both the gradient's input and its kernel reverses its result.
    g.kernelTransform.truncationLower[d] = kt.truncationUpper[d];
    g.kernelTransform.truncationUpper[d] = kt.truncationLower[d];
    g.kernelTransform.dilation[d] = kt.dilation[d];
    g.kernelTransform.paddingLower[d] = kt.paddingUpper[d];
    g.kernelTransform.paddingUpper[d] = kt.paddingLower[d];
    g.kernelTransform.flip[d] = kt.flip[d] != it.flip[d];
    g.inputTransform.flip[d] = it.flip[d];
    // 3. From T back to the input: drop the padding, keep every dilation-th position, zeros where the forward
    //    truncated the input.
    g.outputTransform.truncationLower[d] = it.paddingLower[d];
    g.outputTransform.truncationUpper[d] = it.paddingUpper[d];
    g.outputTransform.stride[d] = it.dilation[d];
    g.outputTransform.paddingLower[d] = it.truncationLower[d];
    g.outputTransform.paddingUpper[d] = it.truncationUpper[d];
  }
  return g;
}

} // namespace poplin
