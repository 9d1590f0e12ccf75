// popfloat::experimental::GfloatCast: casts between IEEE single/half tensors and "gfloat" formats, generic floats
// with a chosen number of mantissa and exponent bits, an exponent bias and switches for denormals and Infs/NaNs,
// rounded by one of five deterministic modes or stochastically (with one of ten noise densities). A gfloat value
// is kept either as an IEEE value of the calculation type (quantised) or packed into 8 or 16 bits. The casts run
// on the tiles (popfloat's codelets); what they compute is described in docs/popfloat-gfloat.md.
//
// Like Graphcore's, this API is experimental. C++11.
#ifndef POPFLOAT_EXPERIMENTAL_CASTTOGFLOAT_HPP
#define POPFLOAT_EXPERIMENTAL_CASTTOGFLOAT_HPP

#include <popfloat/experimental/GfloatExpr.hpp>
#include <popfloat/experimental/GfloatExprUtil.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Type.hpp>

#include "poputil/exceptions.hpp"

#include <functional>
#include <memory>
#include <tuple>
#include <vector>

namespace popfloat {
namespace experimental {

class GfloatCast {
public:
  /// A format given as option flags ("numMantissaBits", "numExponentBits", "numExponentBias", "enableDenorms",
  /// "enableInfsAndNans"); the default is IEEE half's (10, 5, 15, true, true).
  struct GfloatFormatOptions {
    unsigned numMantissaBits;
    unsigned numExponentBits;
    unsigned numExponentBias;
    bool enableDenorms;
    bool enableInfsAndNans;

    /// Reads the options named above over the defaults; an unknown option or a bad value throws
    /// poplar::invalid_option.
    void parseGfloatFormatOptions(const poplar::OptionFlags &options);
    GfloatFormatOptions(const poplar::OptionFlags &options) : GfloatFormatOptions() {
      parseGfloatFormatOptions(options);
    }
    GfloatFormatOptions()
        : numMantissaBits(10), numExponentBits(5), numExponentBias(15), enableDenorms(true),
          enableInfsAndNans(true) {}
  };

  /// A gfloat format and how it is computed and stored.
  struct FormatConfig {
    FormatConfig() = default;
    /// The format of `numMantissaBits` (at most 23) and `numExponentBits` (at most 30; beyond 8 the values are
    /// those of an IEEE single's range) bits with `exponentBias` (-128 .. 127). `specCalculationType` picks the IEEE type the cast computes in: FP32, FP16 (only for a
    /// format whose every value is a half) or AUTO (HALF when it can, else FLOAT).
    FormatConfig(unsigned numMantissaBits, unsigned numExponentBits, int exponentBias, bool enableDenorms,
                 bool enableInfsAndNans,
                 popfloat::experimental::SpecType specCalculationType = popfloat::experimental::SpecType::AUTO);
    FormatConfig(GfloatFormatOptions formatOptions, poplar::Type calculationType);
    /// As the first form with the calculation type given as FLOAT or HALF.
    FormatConfig(unsigned numMantissaBits, unsigned numExponentBits, int exponentBias, bool enableDenorms,
                 bool enableInfsAndNans, poplar::Type calculationType);
    FormatConfig(const FormatConfig &formatConfig);
    FormatConfig &operator=(const FormatConfig &) = default;

    poplar::Type getCalculationType() const { return calculationType; }
    poplar::Type getNativeType() const { return nativeType; }
    /// SIGNED_CHAR for an 8-bit format, SHORT for a 16-bit one, else the calculation type.
    poplar::Type getStorageType() const { return storageType; }
    popfloat::experimental::FormatType getFormatType() const { return formatType; }
    unsigned getNumMantissaBits() const { return numMantissaBits; }
    unsigned getNumExponentBits() const { return numExponentBits; }
    int getExponentBias() const { return exponentBias; }
    bool isDenormEnabled() const { return enableDenorms; }
    bool infAndNansEnabled() const { return enableInfsAndNans; }
    /// Whether the format packs into 8 or 16 bits (not held as an IEEE value).
    bool isPackedFloatFormat() const {
      return formatType != popfloat::experimental::FormatType::QUANTISED_FP16 &&
             formatType != popfloat::experimental::FormatType::QUANTISED_FP32 &&
             formatType != popfloat::experimental::FormatType::IEEE_FP16;
    }
    /// The bits of the packed storage (8 or 16), or of the IEEE type holding an unpacked format.
    unsigned getPackedFloatBits() const { return packedFloatBits; }
    /// Whether the format has no exponent bits (every value is a scaled integer).
    bool isBlockFloat() const { return blockFloat; }
    /// The format in one word, as createCastOpParamsTensor takes it: bits 0-7 the mantissa bits, 8-15 the
    /// exponent bits, 16-23 the bias (a signed byte), bit 24 denormals, bit 25 Infs/NaNs.
    unsigned getPackedFloatParameters() const { return packedFloatParameters; }
    bool operator==(FormatConfig &other) const {
      return std::make_tuple(numMantissaBits, numExponentBits, exponentBias, enableDenorms, enableInfsAndNans,
                             calculationType) ==
             std::make_tuple(other.numMantissaBits, other.numExponentBits, other.exponentBias, other.enableDenorms,
                             other.enableInfsAndNans, other.calculationType);
    }

  private:
    poplar::Type calculationType;
    unsigned numMantissaBits;
    unsigned numExponentBits;
    int exponentBias;
    bool enableDenorms;
    bool enableInfsAndNans;
    poplar::Type nativeType;
    poplar::Type storageType;
    popfloat::experimental::FormatType formatType;
    unsigned packedFloatParameters;
    bool blockFloat;
    unsigned packedFloatBits;
  };

  /// A rounding given as option flags ("roundMode" as RoundType's names, "srNoiseDensity" as SRDensityType's,
  /// "numSRBits", "srNoiseOffset", "srNoiseScale", "srNoiseMax", "srNoiseMin", "bernoulliProb",
  /// "enableNanooMode").
  struct GfloatCastOptions {
    popfloat::experimental::RoundType roundMode;
    popfloat::experimental::SRDensityType srNoiseDensity;
    unsigned numSRBits;
    double srNoiseOffset;
    double srNoiseScale;
    double srNoiseMax;
    double srNoiseMin;
    double bernoulliProb;
    bool enableNanooMode;

    /// Reads the options named above; an unknown option or a bad value throws poplar::invalid_option.
    void parseGfloatCastOptions(const poplar::OptionFlags &options);
    GfloatCastOptions(const poplar::OptionFlags &options) : GfloatCastOptions() { parseGfloatCastOptions(options); }
    GfloatCastOptions()
        : roundMode(popfloat::experimental::RoundType::INV),
          srNoiseDensity(popfloat::experimental::SRDensityType::INVALID), numSRBits(24), srNoiseOffset(0.0),
          srNoiseScale(0.0), srNoiseMax(0.0), srNoiseMin(0.0), bernoulliProb(0.0), enableNanooMode(true) {}
  };

  /// How a cast to a gfloat rounds. Stochastic rounding (SR, or SX with fewer random bits) rounds a magnitude up
  /// one step when its fraction of a step plus a noise value reaches 1: the noise is uniform over `numSRBits`
  /// bits without a density; with one it is srNoiseOffset + srNoiseScale * (a sample of the density), clipped to
  /// [srNoiseMin, srNoiseMax] (redrawn first for the truncated densities) and to [0, 1); BERNOULLI rounds up
  /// with probability bernoulliProb.
  struct RoundConfig {
    RoundConfig() = default;
    RoundConfig(popfloat::experimental::RoundType roundMode, unsigned numSRBits, poplar::Type calculationType,
                popfloat::experimental::SRDensityType srNoiseDensity = popfloat::experimental::SRDensityType::INVALID,
                float srNoiseOffset = 0.0, float srNoiseScale = 0.0, float srNoiseMax = 0.0,
                float srNoiseMin = 0.0, float bernoulliProb = 0.0);
    RoundConfig(const GfloatCast::RoundConfig &roundCfg);
    RoundConfig(GfloatCastOptions castOptions, poplar::Type calculationType);
    RoundConfig &operator=(const RoundConfig &) = default;

    popfloat::experimental::RoundType getRoundMode() const { return roundModeType; }
    unsigned getNumSRBits() const { return numSRBits; }
    popfloat::experimental::SRDensityType getSRNoiseDensity() const { return srNoiseDensity; }
    /// {round mode, SR bits, density} as numbers.
    std::vector<unsigned> getRoundingParams() const { return roundingParams; }
    /// The bits of {offset, scale, max, min} as IEEE singles.
    std::vector<unsigned> getNoiseParams() const { return noiseParams; }
    /// The bits of the Bernoulli probability as an IEEE single.
    unsigned getDensityParam() const { return densityParam; }
    float getBernoulliProbability() const { return bernoulliProb; }
    float getSRNoiseOffset() const { return srNoiseOffset; }
    float getSRNoiseScale() const { return srNoiseScale; }
    float getSRNoiseMax() const { return srNoiseMax; }
    float getSRNoiseMin() const { return srNoiseMin; }
    /// The mantissa bits of the calculation type that carry the random bits: one word, the top numSRBits bits
    /// of its mantissa field set.
    std::vector<unsigned> getSRBitMask() const { return srBitMask; }

  private:
    popfloat::experimental::RoundType roundModeType;
    unsigned numSRBits;
    popfloat::experimental::SRDensityType srNoiseDensity;
    float bernoulliProb;
    float srNoiseOffset;
    float srNoiseScale;
    float srNoiseMax;
    float srNoiseMin;
    std::vector<unsigned> noiseParams;
    unsigned densityParam;
    std::vector<unsigned> srBitMask;
    std::vector<unsigned> roundingParams;
  };

  /// One direction of a cast: native to gfloat (with its rounding) or gfloat to native.
  struct CastConfig {
    CastConfig() = default;
    /// A cast to `formatType` computed in `calculationType`, its result held as `storageType` (the calculation
    /// type, or SIGNED_CHAR/SHORT packed).
    static CastConfig createCastNativeToGF(popfloat::experimental::FormatType formatType,
                                           poplar::Type calculationType, poplar::Type storageType,
                                           RoundConfig roundCfg, bool enableNanooMode);
    /// A cast from `formatType` to the native `storageType` (FLOAT or HALF).
    static CastConfig createCastGFToNative(popfloat::experimental::FormatType formatType,
                                           poplar::Type calculationType, poplar::Type storageType);

    popfloat::experimental::RoundType getRoundMode() const { return roundConfig.getRoundMode(); }
    unsigned getNumSRBits() const { return roundConfig.getNumSRBits(); }
    popfloat::experimental::SRDensityType getSRNoiseDensity() const { return roundConfig.getSRNoiseDensity(); }
    std::vector<unsigned> getNoiseParams() const { return roundConfig.getNoiseParams(); }
    unsigned getDensityParam() const { return roundConfig.getDensityParam(); }
    float getBernoulliProbability() const { return roundConfig.getBernoulliProbability(); }
    float getSRNoiseOffset() const { return roundConfig.getSRNoiseOffset(); }
    float getSRNoiseScale() const { return roundConfig.getSRNoiseScale(); }
    float getSRNoiseMax() const { return roundConfig.getSRNoiseMax(); }
    float getSRNoiseMin() const { return roundConfig.getSRNoiseMin(); }
    std::vector<unsigned> getSRBitMask() const { return roundConfig.getSRBitMask(); }
    /// NaN on overflow: a value beyond the largest finite one becomes NaN (in a format with NaNs) instead of
    /// saturating.
    bool isNanooModeEnabled() const { return enableNanooMode; }
    /// {format type, storage bits} as numbers.
    std::vector<unsigned> getCastParams() const { return castParams; }
    poplar::Type getCalculationType() const { return calculationType; }
    poplar::Type getStorageType() const { return storageType; }
    /// Whether a cast of an input of `inType` can be done in place (the result is held in that type).
    bool inPlaceOp(poplar::Type inType) const { return inType == storageType; }
    popfloat::experimental::FormatType getFormatType() const { return floatFormatType; }
    /// Whether the gfloat side is held as an IEEE value (not packed).
    bool getStoreAsNative() const { return storeAsNative; }
    std::vector<unsigned> getRoundingParams() const { return roundConfig.getRoundingParams(); }

  private:
    CastConfig(popfloat::experimental::FormatType floatFormatType, poplar::Type calculationType,
               poplar::Type storageType, RoundConfig roundCfg, bool enableNanooMode);

    poplar::Type calculationType;
    poplar::Type storageType;
    RoundConfig roundConfig;
    bool enableNanooMode;
    popfloat::experimental::FormatType floatFormatType;
    bool storeAsNative;
    std::vector<unsigned> castParams;
  };

  /// A cast to the format of `formatCfg` rounded by `roundCfg`. `GFType` says how a gfloat is held: AUTO (packed
  /// when the format fits 8 or 16 bits, else the calculation type), FP32, FP16, INT8 or INT16 (packed, the
  /// format must fit). `NativeType` is what castGfloatToNative gives: AUTO (the calculation type), FP32 or FP16.
  GfloatCast(const FormatConfig &formatCfg, const RoundConfig &roundCfg, const bool enableNanooMode,
             const popfloat::experimental::SpecType &GFType = popfloat::experimental::SpecType::AUTO,
             const popfloat::experimental::SpecType &NativeType = popfloat::experimental::SpecType::AUTO);
  GfloatCast(const GfloatFormatOptions &formatOtions, const GfloatCastOptions &castOptions,
             poplar::Type calculationType,
             const popfloat::experimental::SpecType &GFType = popfloat::experimental::SpecType::AUTO,
             const popfloat::experimental::SpecType &NativeType = popfloat::experimental::SpecType::AUTO);
  GfloatCast(const GfloatCast &gfloatCast);

  /// The cast parameters of the format packed in `gfPacked` (FormatConfig::getPackedFloatParameters), computed
  /// on the device by a vertex added to `cs`: an INT tensor on tile 0 that the casts take as `param`.
  static poplar::Tensor createCastOpParamsTensor(poplar::Graph &graph, const poplar::ComputeSet &cs,
                                                 poplar::Type calculationType, const unsigned gfPacked,
                                                 const poplar::DebugContext &debugContext = {});
  /// The same from a one-element INT or UNSIGNED_INT tensor holding the packed format.
  static poplar::Tensor createCastOpParamsTensor(poplar::Graph &graph, const poplar::ComputeSet &cs,
                                                 poplar::Type calculationType, poplar::Tensor gfPacked,
                                                 const poplar::DebugContext &debugContext = {});
  /// The same, the vertex run by a compute set appended to `prog`.
  static poplar::Tensor createCastOpParamsTensor(poplar::Graph &graph, poplar::program::Sequence &prog,
                                                 poplar::Type calculationType, const unsigned gfStruct,
                                                 const poplar::DebugContext &debugContext = {});
  static poplar::Tensor createCastOpParamsTensor(poplar::Graph &graph, poplar::program::Sequence &prog,
                                                 poplar::Type calculationType, poplar::Tensor gfStruct,
                                                 const poplar::DebugContext &debugContext = {});
  /// This cast's parameters, kept for its member casts (getCastOpParams).
  void createCastOpParamsTensor(poplar::Graph &graph, poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {});
  void createCastOpParamsTensor(poplar::Graph &graph, const poplar::ComputeSet &cs);

  /// `input` (FLOAT or HALF) cast to the gfloat of `gfCastCfg` (a native-to-gfloat config) with parameters
  /// `param`: a new tensor of the config's storage type, mapped as `input`.
  static poplar::Tensor castNativeToGfloat(poplar::Graph &graph, poplar::Tensor input, const poplar::Tensor &param,
                                           poplar::program::Sequence &prog, const CastConfig &gfCastCfg,
                                           const poplar::DebugContext &debugContext = {});
  static poplar::Tensor castNativeToGfloat(poplar::Graph &graph, poplar::Tensor input, const poplar::Tensor &param,
                                           const poplar::ComputeSet &cs, const CastConfig &gfCastCfg,
                                           const poplar::DebugContext &debugContext = {});
  /// With this cast's configuration and parameters (createCastOpParamsTensor first).
  poplar::Tensor castNativeToGfloat(poplar::Graph &graph, poplar::Tensor input, poplar::program::Sequence &prog,
                                    const poplar::DebugContext &debugContext = {});
  /// `input` quantised in place: the config must hold the gfloat as `input`'s type.
  static void castNativeToGfloatInPlace(poplar::Graph &graph, poplar::Tensor input, const poplar::Tensor &param,
                                        poplar::program::Sequence &prog, const CastConfig &gfCastCfg,
                                        const poplar::DebugContext &debugContext = {});
  void castNativeToGfloatInPlace(poplar::Graph &graph, poplar::Tensor input, poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {});
  static void castNativeToGfloatInPlace(poplar::Graph &graph, poplar::Tensor input, const poplar::Tensor &param,
                                        const poplar::ComputeSet &cs, const CastConfig &gfCastCfg,
                                        const poplar::DebugContext &debugContext = {});
  void castNativeToGfloatInPlace(poplar::Graph &graph, poplar::Tensor input, const poplar::ComputeSet &cs);

  /// A gfloat tensor (packed, or held as FLOAT/HALF) cast to the native type of `gfCastCfg` (a gfloat-to-native
  /// config).
  static poplar::Tensor castGfloatToNative(poplar::Graph &graph, poplar::Tensor input, const poplar::Tensor &param,
                                           poplar::program::Sequence &prog, const CastConfig &gfCastCfg,
                                           const poplar::DebugContext &debugContext = {});
  poplar::Tensor castGfloatToNative(poplar::Graph &graph, poplar::Tensor input, poplar::program::Sequence &prog,
                                    const poplar::DebugContext &debugContext = {});
  static poplar::Tensor castGfloatToNative(poplar::Graph &graph, poplar::Tensor input, const poplar::Tensor &param,
                                           const poplar::ComputeSet &cs, const CastConfig &gfCastCfg,
                                           const poplar::DebugContext &debugContext = {});
  poplar::Tensor castGfloatToNative(poplar::Graph &graph, poplar::Tensor input, const poplar::ComputeSet &cs);

  poplar::Type getGFStorageType() const { return nativeToGFCastCfg.getStorageType(); }
  poplar::Type getCalculationType() const { return nativeToGFCastCfg.getCalculationType(); }
  poplar::Type getNativeStorageType() const { return gfToNativeCastCfg.getStorageType(); }
  FormatConfig getFormatConfig() const { return formatCfg; }
  CastConfig getNativeToGFConfig() const { return nativeToGFCastCfg; }
  CastConfig getGFToNativeConfig() const { return gfToNativeCastCfg; }
  bool getStoreAsNative() const { return nativeToGFCastCfg.getStoreAsNative(); }
  /// The parameters made by createCastOpParamsTensor (throws poputil::poplibs_error before it).
  poplar::Tensor getCastOpParams() const;
  bool isCastOpParamSet() const { return castOpParamSet; }
  /// Takes ownership of `gfParams_` as this cast's parameters.
  void setGfloatCastParameters(poplar::Tensor *gfParams_) {
    gfParams.reset(gfParams_);
    castOpParamSet = gfParams_ != nullptr;
  }
  bool isNanooModeEnabled() const { return nativeToGFCastCfg.isNanooModeEnabled(); }
  std::vector<unsigned> getSRBitMask() const { return nativeToGFCastCfg.getSRBitMask(); }
  popfloat::experimental::RoundType getRoundMode() const { return nativeToGFCastCfg.getRoundMode(); }
  bool inPlaceOp(poplar::Type outType) const { return nativeToGFCastCfg.inPlaceOp(outType); }
  std::vector<unsigned> getRoundingParams() const { return nativeToGFCastCfg.getRoundingParams(); }

protected:
  CastConfig nativeToGFCastCfg;
  CastConfig gfToNativeCastCfg;
  FormatConfig formatCfg;
  std::unique_ptr<poplar::Tensor> gfParams;
  bool castOpParamSet;
};

} // namespace experimental
} // namespace popfloat

#endif // POPFLOAT_EXPERIMENTAL_CASTTOGFLOAT_HPP
