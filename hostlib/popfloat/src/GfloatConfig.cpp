// GfloatCast's configurations (popfloat/experimental/CastToGfloat.hpp): FormatConfig (which IEEE type computes a
// format, how it is stored, its packed struct word), RoundConfig, CastConfig, the option-flag forms, and the
// GfloatCast constructors, which pick the storage and native types. The casts themselves are in CastToGfloat.cpp.
#include "popfloat/experimental/CastToGfloat.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>

#include "poputil/OptionParsing.hpp"

namespace popfloat {
namespace experimental {

using poputil::poplibs_error;

namespace {

unsigned floatBits(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Whether every value of the format is an IEEE half: at most half's mantissa bits, and its largest value and
// smallest step within half's range (65504 and 2^-24).
bool fitsHalf(unsigned man, unsigned exp, int bias, bool infNan) {
  if (man > 10 || exp > 5)
    return false;
  const int topField = exp == 0 ? 0 : (1 << exp) - (infNan ? 2 : 1);
  const double largest = exp == 0 ? std::ldexp(1.0 - std::ldexp(1.0, -int(man)), 1 - bias)
                                  : std::ldexp(2.0 - std::ldexp(1.0, -int(man)), topField - bias);
  const double step = std::ldexp(1.0, 1 - bias - int(man));
  return largest <= 65504.0 && step >= std::ldexp(1.0, -24);
}

poplar::Type calculationTypeFor(unsigned man, unsigned exp, int bias, bool infNan, SpecType spec) {
  switch (spec) {
  case SpecType::AUTO:
    return fitsHalf(man, exp, bias, infNan) ? poplar::HALF : poplar::FLOAT;
  case SpecType::FP32:
    return poplar::FLOAT;
  case SpecType::FP16:
    if (!fitsHalf(man, exp, bias, infNan))
      throw poplibs_error("GfloatCast::FormatConfig: the format (" + std::to_string(man) + " mantissa bits, " +
                          std::to_string(exp) + " exponent bits, bias " + std::to_string(bias) +
                          ") has values that are not IEEE halves; compute it in FP32 or AUTO");
    return poplar::HALF;
  default:
    throw poplibs_error("GfloatCast::FormatConfig: a format is computed in FP32, FP16 or AUTO, not " +
                        specTypeToString(spec));
  }
}

SpecType specOf(const poplar::Type &t, const char *what) {
  if (t == poplar::FLOAT)
    return SpecType::FP32;
  if (t == poplar::HALF)
    return SpecType::FP16;
  throw poplibs_error(std::string(what) + ": the calculation type must be FLOAT or HALF, not " + t.toString());
}

FormatType formatTypeOf(unsigned man, unsigned exp, int bias, bool denorms, bool infNan, const poplar::Type &calc) {
  const unsigned bits = 1 + man + exp;
  if (calc == poplar::HALF && man == 10 && exp == 5 && bias == 15 && denorms && infNan)
    return FormatType::IEEE_FP16;
  if (bits <= 8)
    return exp == 5 ? (infNan ? FormatType::ONE_FIVE_TWO_GF8 : FormatType::MAX_NORM_ALIGN_GF8)
                    : FormatType::MIN_NORM_ALIGN_GF8;
  if (bits <= 16)
    return man == 7 && exp == 8 ? FormatType::BFLOAT16
           : denorms            ? FormatType::ENABLE_DENORM_GF16
                                : FormatType::NO_DENORM_GF16;
  return calc == poplar::HALF ? FormatType::QUANTISED_FP16 : FormatType::QUANTISED_FP32;
}

bool isGf8(FormatType f) {
  return f == FormatType::MIN_NORM_ALIGN_GF8 || f == FormatType::ONE_FIVE_TWO_GF8 ||
         f == FormatType::MAX_NORM_ALIGN_GF8;
}
bool isGf16(FormatType f) {
  return f == FormatType::BFLOAT16 || f == FormatType::NO_DENORM_GF16 || f == FormatType::ENABLE_DENORM_GF16;
}

unsigned typeBits(const poplar::Type &t) {
  return t == poplar::FLOAT || t == poplar::INT ? 32 : t == poplar::HALF || t == poplar::SHORT ? 16 : 8;
}

} // namespace

// --- FormatConfig ---------------------------------------------------------------------------------------------

GfloatCast::FormatConfig::FormatConfig(unsigned numMantissaBits_, unsigned numExponentBits_, int exponentBias_,
                                       bool enableDenorms_, bool enableInfsAndNans_, SpecType specCalculationType) {
  // An exponent field wider than an IEEE single's (8 bits) is accepted, as Graphcore's tests use one: its
  // values are those of the single's range (it never overflows before the single does).
  if (numMantissaBits_ > 23 || numExponentBits_ > 30 || numMantissaBits_ + numExponentBits_ == 0)
    throw poplibs_error("GfloatCast::FormatConfig: " + std::to_string(numMantissaBits_) + " mantissa and " +
                        std::to_string(numExponentBits_) +
                        " exponent bits; a format has at most 23 mantissa and 30 exponent bits, at least one in all");
  if (exponentBias_ < -128 || exponentBias_ > 127)
    throw poplibs_error("GfloatCast::FormatConfig: exponent bias " + std::to_string(exponentBias_) +
                        " is outside -128 .. 127");
  numMantissaBits = numMantissaBits_;
  numExponentBits = numExponentBits_;
  exponentBias = exponentBias_;
  enableDenorms = enableDenorms_;
  enableInfsAndNans = enableInfsAndNans_;
  calculationType = calculationTypeFor(numMantissaBits, numExponentBits, exponentBias,
                                       enableInfsAndNans && numExponentBits > 0, specCalculationType);
  nativeType = calculationType;
  formatType = formatTypeOf(numMantissaBits, numExponentBits, exponentBias, enableDenorms, enableInfsAndNans,
                            calculationType);
  storageType = isGf8(formatType) ? poplar::SIGNED_CHAR : isGf16(formatType) ? poplar::SHORT : calculationType;
  packedFloatBits = typeBits(storageType);
  blockFloat = numExponentBits == 0;
  packedFloatParameters = (numMantissaBits & 255u) | ((numExponentBits & 255u) << 8) |
                          ((unsigned(exponentBias) & 255u) << 16) | (enableDenorms ? 1u << 24 : 0u) |
                          (enableInfsAndNans ? 1u << 25 : 0u);
}

GfloatCast::FormatConfig::FormatConfig(GfloatFormatOptions o, poplar::Type calculationType_)
    : FormatConfig(o.numMantissaBits, o.numExponentBits, int(o.numExponentBias), o.enableDenorms,
                   o.enableInfsAndNans, specOf(calculationType_, "GfloatCast::FormatConfig")) {}

GfloatCast::FormatConfig::FormatConfig(unsigned numMantissaBits_, unsigned numExponentBits_, int exponentBias_,
                                       bool enableDenorms_, bool enableInfsAndNans_, poplar::Type calculationType_)
    : FormatConfig(numMantissaBits_, numExponentBits_, exponentBias_, enableDenorms_, enableInfsAndNans_,
                   specOf(calculationType_, "GfloatCast::FormatConfig")) {}

GfloatCast::FormatConfig::FormatConfig(const FormatConfig &other) = default;

void GfloatCast::GfloatFormatOptions::parseGfloatFormatOptions(const poplar::OptionFlags &options) {
  using poplibs::OptionHandler;
  const poplibs::OptionSpec spec{
      {"numMantissaBits", OptionHandler::createWithInteger(numMantissaBits)},
      {"numExponentBits", OptionHandler::createWithInteger(numExponentBits)},
      {"numExponentBias", OptionHandler::createWithInteger(numExponentBias)},
      {"enableDenorms", OptionHandler::createWithBool(enableDenorms)},
      {"enableInfsAndNans", OptionHandler::createWithBool(enableInfsAndNans)}};
  for (const auto &o : options)
    spec.parse(o.first, o.second);
}

// --- RoundConfig ----------------------------------------------------------------------------------------------

GfloatCast::RoundConfig::RoundConfig(RoundType roundMode, unsigned numSRBits_, poplar::Type calculationType,
                                     SRDensityType srNoiseDensity_, float srNoiseOffset_, float srNoiseScale_,
                                     float srNoiseMax_, float srNoiseMin_, float bernoulliProb_)
    : roundModeType(roundMode), numSRBits(numSRBits_), srNoiseDensity(srNoiseDensity_), bernoulliProb(bernoulliProb_),
      srNoiseOffset(srNoiseOffset_), srNoiseScale(srNoiseScale_), srNoiseMax(srNoiseMax_), srNoiseMin(srNoiseMin_) {
  const char *what = "GfloatCast::RoundConfig";
  specOf(calculationType, what);
  if (roundMode == RoundType::INV)
    throw poplibs_error(std::string(what) + ": round mode INV is not a rounding; pick RZ, RN, RA, RU, RD, SR or SX");
  const unsigned mantissa = calculationType == poplar::FLOAT ? 23 : 10;
  if ((roundMode == RoundType::SR || roundMode == RoundType::SX) && (numSRBits == 0 || numSRBits > 24))
    throw poplibs_error(std::string(what) + ": " + std::to_string(numSRBits) +
                        " stochastic-rounding bits; pass 1 .. 24");
  if (srNoiseDensity == SRDensityType::BERNOULLI && !(bernoulliProb >= 0.0f && bernoulliProb <= 1.0f))
    throw poplibs_error(std::string(what) + ": the Bernoulli probability " + std::to_string(bernoulliProb) +
                        " is outside [0, 1]");
  if (srNoiseDensity != SRDensityType::INVALID && srNoiseDensity != SRDensityType::BERNOULLI &&
      !(srNoiseMin <= srNoiseMax))
    throw poplibs_error(std::string(what) + ": the noise minimum " + std::to_string(srNoiseMin) +
                        " is above its maximum " + std::to_string(srNoiseMax) + "; pass min <= max");
  const unsigned kept = numSRBits < mantissa ? numSRBits : mantissa;
  srBitMask = {kept == 0 ? 0u : ((1u << kept) - 1u) << (mantissa - kept)};
  noiseParams = {floatBits(srNoiseOffset), floatBits(srNoiseScale), floatBits(srNoiseMax), floatBits(srNoiseMin)};
  densityParam = floatBits(bernoulliProb);
  roundingParams = {unsigned(roundModeType), numSRBits, unsigned(srNoiseDensity)};
}

GfloatCast::RoundConfig::RoundConfig(const RoundConfig &other) = default;

GfloatCast::RoundConfig::RoundConfig(GfloatCastOptions o, poplar::Type calculationType)
    : RoundConfig(o.roundMode, o.numSRBits, calculationType, o.srNoiseDensity, float(o.srNoiseOffset),
                  float(o.srNoiseScale), float(o.srNoiseMax), float(o.srNoiseMin), float(o.bernoulliProb)) {}

void GfloatCast::GfloatCastOptions::parseGfloatCastOptions(const poplar::OptionFlags &options) {
  using poplibs::OptionHandler;
  const double lowest = -std::numeric_limits<double>::max();
  const poplibs::OptionSpec spec{
      {"roundMode", OptionHandler::createWithEnum(roundMode, std::map<std::string, RoundType>{
                                                                 {"RZ", RoundType::RZ},
                                                                 {"RN", RoundType::RN},
                                                                 {"RA", RoundType::RA},
                                                                 {"RU", RoundType::RU},
                                                                 {"RD", RoundType::RD},
                                                                 {"SR", RoundType::SR},
                                                                 {"SX", RoundType::SX}})},
      {"srNoiseDensity",
       OptionHandler::createWithEnum(srNoiseDensity, std::map<std::string, SRDensityType>{
                                                         {"UNIFORM", SRDensityType::UNIFORM},
                                                         {"NORMAL", SRDensityType::NORMAL},
                                                         {"TRUNCATED_NORMAL", SRDensityType::TRUNCATED_NORMAL},
                                                         {"BERNOULLI", SRDensityType::BERNOULLI},
                                                         {"LOGISTIC", SRDensityType::LOGISTIC},
                                                         {"TRUNCATED_LOGISTIC", SRDensityType::TRUNCATED_LOGISTIC},
                                                         {"LAPLACE", SRDensityType::LAPLACE},
                                                         {"TRUNCATED_LAPLACE", SRDensityType::TRUNCATED_LAPLACE},
                                                         {"LOGIT_NORMAL", SRDensityType::LOGIT_NORMAL},
                                                         {"TRUNCATED_LOGIT_NORMAL",
                                                          SRDensityType::TRUNCATED_LOGIT_NORMAL}})},
      {"numSRBits", OptionHandler::createWithInteger(numSRBits)},
      {"srNoiseOffset", OptionHandler::createWithDouble(srNoiseOffset, lowest)},
      {"srNoiseScale", OptionHandler::createWithDouble(srNoiseScale, lowest)},
      {"srNoiseMax", OptionHandler::createWithDouble(srNoiseMax, lowest)},
      {"srNoiseMin", OptionHandler::createWithDouble(srNoiseMin, lowest)},
      {"bernoulliProb", OptionHandler::createWithDouble(bernoulliProb, 0.0)},
      {"enableNanooMode", OptionHandler::createWithBool(enableNanooMode)}};
  for (const auto &o : options)
    spec.parse(o.first, o.second);
}

// --- CastConfig -----------------------------------------------------------------------------------------------

GfloatCast::CastConfig::CastConfig(FormatType floatFormatType_, poplar::Type calculationType_,
                                   poplar::Type storageType_, RoundConfig roundCfg, bool enableNanooMode_)
    : calculationType(calculationType_), storageType(storageType_), roundConfig(roundCfg),
      enableNanooMode(enableNanooMode_), floatFormatType(floatFormatType_),
      storeAsNative(storageType_ == poplar::FLOAT || storageType_ == poplar::HALF),
      castParams{unsigned(floatFormatType_), typeBits(storageType_)} {}

GfloatCast::CastConfig GfloatCast::CastConfig::createCastNativeToGF(FormatType formatType,
                                                                    poplar::Type calculationType,
                                                                    poplar::Type storageType, RoundConfig roundCfg,
                                                                    bool enableNanooMode) {
  specOf(calculationType, "GfloatCast::CastConfig::createCastNativeToGF");
  const bool packed8 = storageType == poplar::SIGNED_CHAR || storageType == poplar::CHAR;
  if (!(storageType == poplar::FLOAT || storageType == poplar::HALF || packed8 || storageType == poplar::SHORT))
    throw poplibs_error("GfloatCast::CastConfig::createCastNativeToGF: a gfloat is held as FLOAT, HALF, "
                        "SIGNED_CHAR or SHORT, not " + storageType.toString());
  if ((packed8 && !isGf8(formatType)) || (storageType == poplar::SHORT && !isGf16(formatType) && !isGf8(formatType)))
    throw poplibs_error("GfloatCast::CastConfig::createCastNativeToGF: format " + formatTypeToString(formatType) +
                        " does not pack into " + storageType.toString() + "; hold it as " +
                        calculationType.toString());
  return CastConfig(formatType, calculationType, storageType, roundCfg, enableNanooMode);
}

GfloatCast::CastConfig GfloatCast::CastConfig::createCastGFToNative(FormatType formatType,
                                                                    poplar::Type calculationType,
                                                                    poplar::Type storageType) {
  specOf(calculationType, "GfloatCast::CastConfig::createCastGFToNative");
  specOf(storageType, "GfloatCast::CastConfig::createCastGFToNative (native type)");
  return CastConfig(formatType, calculationType, storageType,
                    RoundConfig(RoundType::RZ, 24, calculationType), false);
}

// --- GfloatCast -----------------------------------------------------------------------------------------------

namespace {

poplar::Type gfStorageFor(const GfloatCast::FormatConfig &f, SpecType spec) {
  const unsigned bits = 1 + f.getNumMantissaBits() + f.getNumExponentBits();
  switch (spec) {
  case SpecType::AUTO:
    return f.getStorageType();
  case SpecType::FP32:
  case SpecType::BF16:
    return poplar::FLOAT;
  case SpecType::FP16:
    if (f.getCalculationType() != poplar::HALF)
      throw poplibs_error("GfloatCast: the format has values that are not IEEE halves; hold it as FP32 or AUTO");
    return poplar::HALF;
  case SpecType::INT8:
    if (bits > 8)
      throw poplibs_error("GfloatCast: the format has " + std::to_string(bits) +
                          " bits and does not pack into INT8; use INT16, AUTO or a native type");
    return poplar::SIGNED_CHAR;
  case SpecType::INT16:
    if (bits > 16)
      throw poplibs_error("GfloatCast: the format has " + std::to_string(bits) +
                          " bits and does not pack into INT16; use AUTO or a native type");
    return poplar::SHORT;
  default:
    throw poplibs_error("GfloatCast: a gfloat is held as AUTO, FP32, BF16, FP16, INT8 or INT16, not " +
                        specTypeToString(spec));
  }
}

poplar::Type nativeFor(const GfloatCast::FormatConfig &f, SpecType spec) {
  if (spec == SpecType::AUTO)
    return f.getCalculationType();
  if (spec == SpecType::FP32)
    return poplar::FLOAT;
  if (spec == SpecType::FP16)
    return poplar::HALF;
  throw poplibs_error("GfloatCast: the native type is AUTO, FP32 or FP16, not " + specTypeToString(spec));
}

} // namespace

GfloatCast::GfloatCast(const FormatConfig &formatCfg_, const RoundConfig &roundCfg, const bool enableNanooMode,
                       const SpecType &GFType, const SpecType &NativeType)
    : formatCfg(formatCfg_), castOpParamSet(false) {
  const poplar::Type storage = gfStorageFor(formatCfg, GFType);
  // A 1/5/2 format's packed form is defined only with its own switches; any other 8-bit one packs too.
  FormatType type = formatCfg.getFormatType();
  if (storage == poplar::SHORT && isGf8(type))
    type = formatCfg.isDenormEnabled() ? FormatType::ENABLE_DENORM_GF16 : FormatType::NO_DENORM_GF16;
  nativeToGFCastCfg =
      CastConfig::createCastNativeToGF(type, formatCfg.getCalculationType(), storage, roundCfg, enableNanooMode);
  gfToNativeCastCfg =
      CastConfig::createCastGFToNative(type, formatCfg.getCalculationType(), nativeFor(formatCfg, NativeType));
}

GfloatCast::GfloatCast(const GfloatFormatOptions &formatOptions, const GfloatCastOptions &castOptions,
                       poplar::Type calculationType, const SpecType &GFType, const SpecType &NativeType)
    : GfloatCast(FormatConfig(formatOptions, calculationType), RoundConfig(castOptions, calculationType),
                 castOptions.enableNanooMode, GFType, NativeType) {}

GfloatCast::GfloatCast(const GfloatCast &other)
    : nativeToGFCastCfg(other.nativeToGFCastCfg), gfToNativeCastCfg(other.gfToNativeCastCfg),
      formatCfg(other.formatCfg), gfParams(other.gfParams ? new poplar::Tensor(*other.gfParams) : nullptr),
      castOpParamSet(other.castOpParamSet) {}

poplar::Tensor GfloatCast::getCastOpParams() const {
  if (!gfParams)
    throw poplibs_error("GfloatCast::getCastOpParams: no parameters yet; call createCastOpParamsTensor first");
  return *gfParams;
}

} // namespace experimental
} // namespace popfloat
