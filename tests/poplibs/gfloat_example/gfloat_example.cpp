// popfloat::experimental::GfloatCast (popfloat/experimental/CastToGfloat.hpp) as a user of Graphcore's SDK writes
// it (C++11, linked with -lpopfloat -lpopops -lpoputil -lpoplar), on a one-tile and the full ipu2 IPU Model:
// - the configurations: format type, calculation and storage types of several formats; the option-flag forms;
//   bad formats, storage and rounding refused with a message naming the fix;
// - casts of FLOAT and HALF inputs to gfloat formats (8-bit 1/5/2 and 1/4/3, bfloat16, a 16-bit format without
//   denormals, a 20-bit one held as FLOAT, IEEE half itself) with each deterministic rounding (RZ, RN, RA, RU,
//   RD), and back to native, against a host reference that lists every value of the format and picks a
//   neighbour of the input by the rounding (ties to the even bit pattern for RN), Inf/NaN/overflow included;
// - the packed bits: a 1/5/2 gfloat is the top byte of the IEEE half of its value, a bfloat16 the top half of
//   the IEEE single;
// - the in-place and compute-set forms, and parameters made from a packed format held in a tensor;
// - stochastic rounding: every result is one of the input's two neighbours; SR (24 bits), SX with 2 bits and
//   UNIFORM noise are unbiased on average, BERNOULLI rounds up with its probability, and each other density
//   gives both neighbours.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <popfloat/experimental/CastToGfloat.hpp>
#include <popfloat/experimental/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace popfloat::experimental;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Fmt {
  unsigned man, exp;
  int bias;
  bool denorms, infNan;
  std::string name;
};

// Every non-negative finite value of a format, ascending, with whether its bit pattern is even (for RN's ties).
struct Values {
  std::vector<double> v;
  std::vector<bool> even;
  double nextAboveMax; // where the value after the largest would be (overflow)
};

Values listValues(const Fmt &f) {
  Values out;
  const unsigned fields = 1u << f.exp, fracs = 1u << f.man;
  for (unsigned e = 0; e < fields; ++e) {
    if (f.infNan && e == fields - 1)
      break;
    for (unsigned m = 0; m < fracs; ++m) {
      double x;
      if (e == 0)
        x = f.denorms ? std::ldexp(double(m), 1 - f.bias - int(f.man)) : 0.0;
      else
        x = std::ldexp(1.0 + std::ldexp(double(m), -int(f.man)), int(e) - f.bias);
      if (!out.v.empty() && x == out.v.back())
        continue; // without denormals every E = 0 pattern is zero
      out.v.push_back(x);
      out.even.push_back(((e * fracs + m) & 1u) == 0);
    }
  }
  const double top = out.v.back();
  int e2;
  std::frexp(top, &e2);
  out.nextAboveMax = std::ldexp(1.0, e2);
  return out;
}

// The host reference of a cast of x to format `f` rounded by `mode` (no NaN-on-overflow).
double reference(const Fmt &f, const Values &vals, double x, RoundType mode) {
  if (x != x)
    return f.infNan ? kNaN : 0.0;
  const double sign = std::signbit(x) ? -1.0 : 1.0, a = std::fabs(x);
  const double top = vals.v.back();
  if (a == kInf)
    return f.infNan ? x : sign * top;
  std::size_t hiIndex = std::lower_bound(vals.v.begin(), vals.v.end(), a) - vals.v.begin();
  if (hiIndex < vals.v.size() && vals.v[hiIndex] == a)
    return sign * a;
  const double lo = vals.v[hiIndex - 1];
  const double hi = hiIndex < vals.v.size() ? vals.v[hiIndex] : vals.nextAboveMax;
  const bool loEven = vals.even[hiIndex - 1];
  double r;
  switch (mode) {
  case RoundType::RZ: r = lo; break;
  case RoundType::RA: r = a - lo >= hi - a ? hi : lo; break;
  case RoundType::RU: r = sign > 0 ? hi : lo; break;
  case RoundType::RD: r = sign > 0 ? lo : hi; break;
  default: r = a - lo < hi - a ? lo : a - lo > hi - a ? hi : (loEven ? lo : hi); break;
  }
  return sign * (r > top ? top : r);
}

// Input values for format f: zeros, values around its smallest and largest, a tie and a near-tie in each binade
// of a few, beyond the largest, infinities and NaN; rounded to `t` (HALF inputs are halves).
std::vector<double> inputs(const Target &target, const Fmt &f, const Values &vals, const Type &t) {
  std::vector<double> xs = {0.0, -0.0, kInf, -kInf, kNaN, vals.v.back() * 1.0001, -vals.v.back() * 3, vals.v.back()};
  for (std::size_t i = 1; i < vals.v.size(); i += std::max<std::size_t>(1, vals.v.size() / 24)) {
    const double lo = vals.v[i - 1], hi = vals.v[i];
    xs.push_back((lo + hi) / 2);               // a tie
    xs.push_back(-(lo + hi) / 2);
    xs.push_back(lo + (hi - lo) * 0.3);         // nearer lo
    xs.push_back(-(lo + (hi - lo) * 0.7));      // nearer hi
  }
  for (std::size_t i = 0; i < xs.size(); ++i) {
    float fl = float(xs[i]);
    if (t == HALF) {
      unsigned short bits;
      copyFloatToDeviceHalf(target, &fl, &bits, 1);
      copyDeviceHalfToFloat(target, &bits, &fl, 1);
    }
    xs[i] = fl;
  }
  return xs;
}

std::vector<unsigned char> toDevice(const Target &target, const Type &t, const std::vector<double> &v) {
  std::vector<unsigned char> bytes(v.size() * target.getTypeSize(t));
  for (std::size_t i = 0; i < v.size(); ++i) {
    const float f = float(v[i]);
    if (t == FLOAT)
      std::memcpy(&bytes[4 * i], &f, 4);
    else
      copyFloatToDeviceHalf(target, &f, &bytes[2 * i], 1);
  }
  return bytes;
}

std::vector<double> fromDevice(const Target &target, const Type &t, const std::vector<unsigned char> &bytes) {
  const std::size_t size = target.getTypeSize(t);
  std::vector<double> v(bytes.size() / size);
  for (std::size_t i = 0; i < v.size(); ++i) {
    float f;
    if (t == FLOAT)
      std::memcpy(&f, &bytes[4 * i], 4);
    else
      copyDeviceHalfToFloat(target, &bytes[2 * i], &f, 1);
    v[i] = f;
  }
  return v;
}

bool same(double got, double want) {
  return (got != got && want != want) || (got == want && std::signbit(got) == std::signbit(want)) ||
         (got == 0 && want == 0);
}

// One cast case on a device: the input written, the gfloat (packed or native) and its native round trip read.
struct Case {
  Fmt fmt;
  Type in;
  RoundType mode;
  std::string form; // "prog", "cs", "inPlace", "tensorParams"
  std::vector<double> values;
  Tensor input, gf, back;
  Type gfType;
};

std::string describe(const Case &c) {
  return c.fmt.name + " from " + c.in.toString() + " " + roundTypeToString(c.mode) + " (" + c.form + ")";
}

void runCasts(Device device, const std::string &where, bool full) {
  Graph graph(device.getTarget());
  const Target &target = graph.getTarget();
  popfloat::experimental::addCodelets(graph);
  Sequence prog;
  const Fmt fmts[] = {{2, 5, 15, true, true, "1/5/2 GF8"},         {3, 4, 7, true, false, "1/4/3 GF8"},
                      {7, 8, 127, true, true, "bfloat16"},          {9, 6, 31, false, true, "GF16 no denormals"},
                      {12, 7, 63, true, true, "20-bit held as FLOAT"}, {10, 5, 15, true, true, "IEEE half"}};
  const RoundType modes[] = {RoundType::RZ, RoundType::RN, RoundType::RA, RoundType::RU, RoundType::RD};
  std::vector<Case> cases;
  Tensor structWord = graph.addVariable(UNSIGNED_INT, {1}, "structWord");
  graph.setTileMapping(structWord, 0);
  graph.createHostWrite("structWord", structWord);
  unsigned structFor = 0;
  for (std::size_t fi = 0; fi < 6; ++fi)
    for (std::size_t mi = 0; mi < 5; ++mi)
      for (int ti = 0; ti < 2; ++ti) {
        if (!full && (mi > 1 || fi % 2 == 1))
          continue; // ipu2: RZ and RN of half the formats
        Case c;
        c.fmt = fmts[fi];
        c.in = ti == 0 ? FLOAT : HALF;
        c.mode = modes[mi];
        if (c.in == HALF && c.fmt.man > 10)
          continue; // a HALF input has no more than half's bits to round
        const GfloatCast::FormatConfig fc(c.fmt.man, c.fmt.exp, c.fmt.bias, c.fmt.denorms, c.fmt.infNan,
                                          SpecType::FP32);
        const GfloatCast::RoundConfig rc(c.mode, 24, fc.getCalculationType());
        const bool native = fi == 4 || (fi == 2 && ti == 1);
        GfloatCast cast(fc, rc, false, native ? SpecType::FP32 : SpecType::AUTO, SpecType::AUTO);
        c.gfType = cast.getGFStorageType();
        c.values = inputs(target, c.fmt, listValues(c.fmt), c.in);
        c.input = graph.addVariable(c.in, {c.values.size()}, "in");
        poputil::mapTensorLinearly(graph, c.input, 1, 4);
        graph.createHostWrite("w" + std::to_string(cases.size()), c.input);
        // The forms: in place once (a format held as FLOAT), parameters from a tensor once, then compute sets
        // and programs in turn.
        if (fi == 4 && ti == 0 && mi == 0)
          c.form = "inPlace";
        else if (cases.size() == 1)
          c.form = "tensorParams";
        else
          c.form = cases.size() % 2 ? "cs" : "prog";
        if (c.form == "tensorParams") {
          structFor = fc.getPackedFloatParameters();
          Tensor param = GfloatCast::createCastOpParamsTensor(graph, prog, FLOAT, structWord);
          cast.setGfloatCastParameters(new Tensor(param));
        } else {
          cast.createCastOpParamsTensor(graph, prog);
        }
        Tensor x = c.input;
        if (c.form == "inPlace") {
          x = graph.clone(c.input);
          prog.add(Copy(c.input, x));
          cast.castNativeToGfloatInPlace(graph, x, prog);
          c.gf = x;
        } else if (c.form == "cs") {
          ComputeSet cs = graph.addComputeSet("toGfloat");
          c.gf = GfloatCast::castNativeToGfloat(graph, x, cast.getCastOpParams(), cs, cast.getNativeToGFConfig());
          prog.add(Execute(cs));
        } else {
          c.gf = cast.castNativeToGfloat(graph, x, prog);
        }
        const bool kind1 = c.form == "cs";
        if (kind1) {
          ComputeSet cs = graph.addComputeSet("toNative");
          c.back = cast.castGfloatToNative(graph, c.gf, cs);
          prog.add(Execute(cs));
        } else {
          c.back = cast.castGfloatToNative(graph, c.gf, prog);
        }
        graph.createHostRead("gf" + std::to_string(cases.size()), c.gf);
        graph.createHostRead("back" + std::to_string(cases.size()), c.back);
        cases.push_back(c);
      }
  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("structWord", &structFor, &structFor + 1);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::vector<unsigned char> bytes = toDevice(target, cases[i].in, cases[i].values);
    engine.writeTensor("w" + std::to_string(i), bytes.data(), bytes.data() + bytes.size());
  }
  engine.run(0);
  bool allOk = true, bitsOk = true, formsSeen[4] = {false, false, false, false};
  std::size_t checked = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    const Values vals = listValues(c.fmt);
    const Type backType = c.back.elementType();
    std::vector<unsigned char> bytes(c.values.size() * target.getTypeSize(backType));
    engine.readTensor("back" + std::to_string(i), bytes.data(), bytes.data() + bytes.size());
    const std::vector<double> got = fromDevice(target, backType, bytes);
    std::vector<unsigned char> gfBytes(c.values.size() * target.getTypeSize(c.gfType));
    engine.readTensor("gf" + std::to_string(i), gfBytes.data(), gfBytes.data() + gfBytes.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      double want = reference(c.fmt, vals, c.values[k], c.mode);
      if (backType == HALF && want == want) { // the native result is a half
        float fl = float(want);
        unsigned short hb;
        copyFloatToDeviceHalf(target, &fl, &hb, 1);
        copyDeviceHalfToFloat(target, &hb, &fl, 1);
        want = fl;
      }
      ++checked;
      if (!same(got[k], want)) {
        if (allOk)
          std::cout << "  " << where << ": " << describe(c) << " element " << k << " (" << c.values[k]
                    << "): got " << got[k] << ", want " << want << "\n";
        allOk = false;
      }
      // The packed bits, where an IEEE type gives them independently.
      if (want == want && c.gfType == SIGNED_CHAR && c.fmt.name == "1/5/2 GF8") {
        const float fl = float(want);
        unsigned short hb;
        copyFloatToDeviceHalf(target, &fl, &hb, 1);
        bitsOk = bitsOk && gfBytes[k] == (hb >> 8);
      }
      if (want == want && c.gfType == SHORT && c.fmt.name == "bfloat16") {
        const float fl = float(want);
        unsigned fb;
        std::memcpy(&fb, &fl, 4);
        bitsOk = bitsOk && (gfBytes[2 * k] | (gfBytes[2 * k + 1] << 8)) == int(fb >> 16);
      }
    }
    const char *forms[] = {"prog", "cs", "inPlace", "tensorParams"};
    for (int f = 0; f < 4; ++f)
      formsSeen[f] = formsSeen[f] || c.form == forms[f];
  }
  std::cout << "  " << where << ": " << cases.size() << " casts, " << checked << " elements checked\n";
  check(allOk && checked > 0, where + ": gfloat casts and their round trips match the host reference");
  check(bitsOk, where + ": packed 1/5/2 and bfloat16 bits are the top bits of the IEEE half/single");
  check(formsSeen[0] && formsSeen[1] && formsSeen[2] && formsSeen[3],
        where + ": program, compute-set, in-place and tensor-parameter forms were run");
}

// Stochastic rounding of x = 1.0625 to 1/5/2 (neighbours 1.0 and 1.25, a quarter of the way up) over n elements.
void stochastic(Device device, const std::string &where) {
  Graph graph(device.getTarget());
  const Target &target = graph.getTarget();
  popfloat::experimental::addCodelets(graph);
  Sequence prog;
  const std::size_t n = 4000;
  Tensor x = graph.addVariable(FLOAT, {n}, "x");
  poputil::mapTensorLinearly(graph, x, 1, 4);
  graph.createHostWrite("x", x);
  const GfloatCast::FormatConfig fc(2, 5, 15, true, true, SpecType::FP32);
  struct SrCase {
    std::string name;
    RoundType mode;
    unsigned bits;
    SRDensityType density;
    float offset, scale, max, min, p;
    Tensor out;
  };
  std::vector<SrCase> srs = {
      {"SR, 24 bits", RoundType::SR, 24, SRDensityType::INVALID, 0, 0, 0, 0, 0, Tensor()},
      {"SX, 2 bits", RoundType::SX, 2, SRDensityType::INVALID, 0, 0, 0, 0, 0, Tensor()},
      {"UNIFORM", RoundType::SR, 24, SRDensityType::UNIFORM, 0, 1, 1, 0, 0, Tensor()},
      {"BERNOULLI 0.75", RoundType::SR, 24, SRDensityType::BERNOULLI, 0, 0, 0, 0, 0.75f, Tensor()},
      {"NORMAL", RoundType::SR, 24, SRDensityType::NORMAL, 0.5f, 0.2f, 1, 0, 0, Tensor()},
      {"TRUNCATED_NORMAL", RoundType::SR, 24, SRDensityType::TRUNCATED_NORMAL, 0.5f, 0.2f, 1, 0, 0, Tensor()},
      {"LOGISTIC", RoundType::SR, 24, SRDensityType::LOGISTIC, 0.5f, 0.2f, 1, 0, 0, Tensor()},
      {"TRUNCATED_LOGISTIC", RoundType::SR, 24, SRDensityType::TRUNCATED_LOGISTIC, 0.5f, 0.2f, 1, 0, 0, Tensor()},
      {"LAPLACE", RoundType::SR, 24, SRDensityType::LAPLACE, 0.5f, 0.2f, 1, 0, 0, Tensor()},
      {"TRUNCATED_LAPLACE", RoundType::SR, 24, SRDensityType::TRUNCATED_LAPLACE, 0.5f, 0.2f, 1, 0, 0, Tensor()},
      {"LOGIT_NORMAL", RoundType::SR, 24, SRDensityType::LOGIT_NORMAL, 0, 1, 1, 0, 0, Tensor()},
      {"TRUNCATED_LOGIT_NORMAL", RoundType::SR, 24, SRDensityType::TRUNCATED_LOGIT_NORMAL, 0, 1, 1, 0, 0,
       Tensor()}};
  for (std::size_t i = 0; i < srs.size(); ++i) {
    SrCase &s = srs[i];
    const GfloatCast::RoundConfig rc(s.mode, s.bits, FLOAT, s.density, s.offset, s.scale, s.max, s.min, s.p);
    GfloatCast cast(fc, rc, false, SpecType::FP32);
    cast.createCastOpParamsTensor(graph, prog);
    s.out = cast.castNativeToGfloat(graph, x, prog);
    graph.createHostRead("sr" + std::to_string(i), s.out);
  }
  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> in(n, 1.0625f), out(n);
  engine.writeTensor("x", in.data(), in.data() + n);
  engine.run(0);
  for (std::size_t i = 0; i < srs.size(); ++i) {
    engine.readTensor("sr" + std::to_string(i), out.data(), out.data() + n);
    std::size_t up = 0, other = 0;
    for (std::size_t k = 0; k < n; ++k) {
      up += out[k] == 1.25f;
      other += out[k] != 1.25f && out[k] != 1.0f;
    }
    const double fractionUp = double(up) / n;
    std::cout << "  " << where << ": " << srs[i].name << " rounds up " << fractionUp << " of the time\n";
    bool ok = other == 0;
    if (i <= 2)
      ok = ok && std::fabs(fractionUp - 0.25) < 0.04; // unbiased: the mean stays 1.0625
    else if (i == 3)
      ok = ok && std::fabs(fractionUp - 0.75) < 0.04;
    else
      ok = ok && up > 0 && up < n;
    check(ok, where + ": stochastic rounding " + srs[i].name + " gives only the two neighbours, " +
                  (i <= 2 ? "unbiased" : i == 3 ? "up with probability 0.75" : "both of them"));
  }
  (void)target;
}

void configurations() {
  const GfloatCast::FormatConfig gf8(2, 5, 15, true, true);
  check(gf8.getFormatType() == FormatType::ONE_FIVE_TWO_GF8 && gf8.getCalculationType() == HALF &&
            gf8.getStorageType() == SIGNED_CHAR && gf8.getPackedFloatBits() == 8 && gf8.isPackedFloatFormat(),
        "1/5/2 with Infs/NaNs is ONE_FIVE_TWO_GF8, computed in HALF, packed in SIGNED_CHAR");
  const GfloatCast::FormatConfig gf8b(2, 5, 15, true, false);
  const GfloatCast::FormatConfig gf8c(3, 4, 7, true, false);
  check(gf8b.getFormatType() == FormatType::MAX_NORM_ALIGN_GF8 &&
            gf8c.getFormatType() == FormatType::MIN_NORM_ALIGN_GF8,
        "1/5/2 without Infs/NaNs is MAX_NORM_ALIGN_GF8, 1/4/3 MIN_NORM_ALIGN_GF8");
  const GfloatCast::FormatConfig bf16(7, 8, 127, true, true);
  check(bf16.getFormatType() == FormatType::BFLOAT16 && bf16.getCalculationType() == FLOAT &&
            bf16.getStorageType() == SHORT,
        "1/8/7 is BFLOAT16, computed in FLOAT, packed in SHORT");
  const GfloatCast::FormatConfig half(10, 5, 15, true, true);
  const GfloatCast::FormatConfig q32(12, 7, 63, true, true);
  check(half.getFormatType() == FormatType::IEEE_FP16 && !half.isPackedFloatFormat() &&
            q32.getFormatType() == FormatType::QUANTISED_FP32 && q32.getStorageType() == FLOAT,
        "IEEE half's own format is IEEE_FP16; a 20-bit format is QUANTISED_FP32 held as FLOAT");
  GfloatCast::FormatConfig copy(bf16);
  check(copy == const_cast<GfloatCast::FormatConfig &>(bf16) && !(copy == const_cast<GfloatCast::FormatConfig &>(half)),
        "FormatConfig copies compare equal, different formats do not");
  OptionFlags fo;
  fo.set("numMantissaBits", "7");
  fo.set("numExponentBits", "8");
  fo.set("numExponentBias", "127");
  OptionFlags co;
  co.set("roundMode", "SR");
  co.set("srNoiseDensity", "BERNOULLI");
  co.set("bernoulliProb", "0.5");
  co.set("enableNanooMode", "false");
  const GfloatCast fromOptions(GfloatCast::GfloatFormatOptions(fo), GfloatCast::GfloatCastOptions(co), FLOAT);
  check(fromOptions.getFormatConfig().getFormatType() == FormatType::BFLOAT16 &&
            fromOptions.getRoundMode() == RoundType::SR && !fromOptions.isNanooModeEnabled() &&
            fromOptions.getNativeToGFConfig().getBernoulliProbability() == 0.5f,
        "GfloatCast from option flags (format, SR with BERNOULLI 0.5, no NaN on overflow)");
  OptionFlags bad;
  bad.set("numMantisaBits", "7");
  checkThrows([&] { GfloatCast::GfloatFormatOptions o(bad); (void)o; }, "numMantisaBits",
              "a misspelt format option is refused");
  checkThrows([] { GfloatCast::FormatConfig f(24, 8, 127, true, true); (void)f; }, "at most 23 mantissa",
              "a format of 24 mantissa bits is refused");
  checkThrows([] { GfloatCast::FormatConfig f(7, 8, 127, true, true, SpecType::FP16); (void)f; }, "FP32 or AUTO",
              "computing bfloat16 in FP16 is refused");
  checkThrows([&] { GfloatCast c(bf16, GfloatCast::RoundConfig(RoundType::RN, 24, FLOAT), true, SpecType::INT8); },
              "INT16", "packing a 16-bit format into INT8 is refused");
  checkThrows([] { GfloatCast::RoundConfig r(RoundType::INV, 24, FLOAT); (void)r; }, "pick RZ",
              "round mode INV is refused");
  IPUModel model("ipu2");
  model.tilesPerIPU = 1;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popfloat::experimental::addCodelets(graph);
  Sequence prog;
  Tensor t = graph.addVariable(FLOAT, {4}, "t");
  graph.setTileMapping(t, 0);
  GfloatCast packed(gf8, GfloatCast::RoundConfig(RoundType::RN, 24, HALF), true);
  checkThrows([&] { packed.castNativeToGfloat(graph, t, prog); }, "createCastOpParamsTensor",
              "a member cast before createCastOpParamsTensor is refused");
  packed.createCastOpParamsTensor(graph, prog);
  checkThrows([&] { packed.castNativeToGfloatInPlace(graph, t, prog); }, "cannot be in place",
              "an in-place cast to a packed format is refused");
}

} // namespace

int main() {
  try {
    configurations();
    IPUModel tiny("ipu2");
    tiny.tilesPerIPU = 1;
    runCasts(tiny.createDevice(), "one tile", true);
    stochastic(tiny.createDevice(), "one tile");
    IPUModel ipu2("ipu2");
    runCasts(ipu2.createDevice(), "ipu2", false);
    stochastic(ipu2.createDevice(), "ipu2");
  } catch (const std::exception &e) {
    std::cout << "FAIL: unexpected exception: " << e.what() << "\n";
    return 1;
  }
  return checksDone("all gfloat checks passed");
}
