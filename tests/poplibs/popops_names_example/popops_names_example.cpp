// The popops and poputil names the SDK has and a user program calls, as a user of Graphcore's SDK writes them
// (C++11, linked with -lpopops -lpoputil -lpoplar), each checked against a host reference on the full ipu2 IPU
// Model and on a one-tile one (FLOAT and HALF where the operation takes both):
// - the binary with-output forms with a constant on either side (subWithOutput(graph, a, 3.0f, out, prog),
//   maxWithOutput(graph, 4, b, out, prog), ...) and checkTypes, which refuses a constant of another type;
// - mapInPlace and mapWithOutput with one operation type (unary, binary, ternary);
// - createDynamicSliceOutput, then dynamicSliceWithOutput into it; SlicePlan's == and <;
// - expression printing (operator<< of popops/Expr.hpp and ExprOpUtils.hpp's op-type names) and 1.5_half;
// - outputGeneratedCodelet: the codelet it writes, compiled with Graph::addCodelets, gives map's results;
// - OperationDefUtil.hpp (poputil::asString, the vertex-template spelling of popops::Operation);
// - poputil::createConstantMetadataTensor / createVariableMetadataTensor and toProfileValue of a clone method;
// - popops::cast between QUARTER and CHAR, SIGNED_CHAR, UNSIGNED_CHAR, and QUARTER to QUARTER of other metadata,
//   against Poplar's host conversions (convertToDeviceType / convertFromDeviceType): an integer is exact on the
//   way to the 8-bit float and rounded there; a quarter value becomes the nearest integer (ties to even) taken
//   through a 32-bit integer (unsigned: negatives give 0) and cut to its low byte, as the tile's conversion does.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/MetadataCreation.hpp>
#include <poplar/TypeConversion.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ExprOpUtils.hpp>
#include <popops/OperationDefUtil.hpp>
#include <popops/codelets.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>
#include <poputil/exceptions.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "sdk_check.hpp"
#include "sdk_half.hpp"

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;
using popops::expr::operator"" _half;

namespace {

const std::size_t N = 40; // elements of each operand: spread over several tiles of ipu2 by mapTensorLinearly

float valueAt(std::size_t i, unsigned seed) { return float(int((i * 7 + seed * 5) % 19) - 9) / 4.0f; }

// One operand or result tensor with its host values; HALF values travel as half bits.
struct Host {
  Tensor t;
  std::string handle;
  std::vector<float> values; // written before the run (inputs) or read after it (outputs)
};

// A graph on one device with the tensors that are written before its single run and read after it.
class Case {
public:
  Case(Graph &graph, Sequence &prog) : graph_(graph), prog_(prog) {}

  Tensor input(const Type &type, unsigned seed) {
    Tensor t = graph_.addVariable(type, {N}, "in" + std::to_string(ins_.size()));
    poputil::mapTensorLinearly(graph_, t, 1, 4);
    Host h{t, "w" + std::to_string(ins_.size()), std::vector<float>(N)};
    for (std::size_t i = 0; i < N; ++i) {
      float x = valueAt(i, seed);
      if (type == INT)
        x = std::round(x * 4.0f); // integers from -36 to 36
      else if (type == CHAR || type == SIGNED_CHAR)
        x = float(int(i * 37 + seed * 11) % 256 - 128); // -128 .. 127
      else if (type == UNSIGNED_CHAR)
        x = float(int(i * 37 + seed * 11) % 256);
      h.values[i] = roundTo(type, x);
    }
    graph_.createHostWrite(h.handle, t);
    ins_.push_back(h);
    return t;
  }
  Tensor output(const Type &type, std::size_t n = N) {
    Tensor t = graph_.addVariable(type, {n}, "out" + std::to_string(outs_.size()));
    poputil::mapTensorLinearly(graph_, t, 1, 4);
    return read(t);
  }
  // Reads `t` back after the run; the result's index for values().
  Tensor read(const Tensor &t) {
    Host h{t, "r" + std::to_string(outs_.size()), {}};
    graph_.createHostRead(h.handle, t);
    outs_.push_back(h);
    return t;
  }
  // The values read back for output `t`, or written to input `t` (empty for a tensor of neither).
  const std::vector<float> &values(const Tensor &t) const { return find(outs_, t); }
  const std::vector<float> &inputValues(const Tensor &t) const { return find(ins_, t); }

  void run(Device &device) {
    Engine engine(graph_, prog_);
    engine.load(device);
    for (const Host &h : ins_)
      transfer(engine, h, true);
    engine.run(0);
    for (Host &h : outs_) {
      h.values.assign(h.t.numElements(), 0.0f);
      transfer(engine, h, false);
    }
  }

  float roundTo(const Type &type, float x) const {
    return asDeviceValues(graph_.getTarget(), type, std::vector<float>(1, x))[0];
  }

private:
  static const std::vector<float> &find(const std::vector<Host> &list, const Tensor &t) {
    for (const Host &h : list)
      if (h.t.getVarRegions() == t.getVarRegions())
        return h.values;
    static const std::vector<float> none;
    return none;
  }

  void transfer(Engine &engine, const Host &h, bool toDevice) {
    const Type type = h.t.elementType();
    const std::size_t n = h.t.numElements();
    std::vector<float> &vals = const_cast<Host &>(h).values;
    if (type == FLOAT || type == HALF) {
      if (toDevice)
        writeAs(engine, graph_.getTarget(), type, h.handle, vals);
      else
        vals = readAs(engine, graph_.getTarget(), type, h.handle, n);
    } else if (type == INT) {
      std::vector<int> ints(n);
      for (std::size_t i = 0; toDevice && i < n; ++i)
        ints[i] = int(vals[i]);
      toDevice ? engine.writeTensor(h.handle, ints.data(), ints.data() + n)
               : engine.readTensor(h.handle, ints.data(), ints.data() + n);
      for (std::size_t i = 0; !toDevice && i < n; ++i)
        vals[i] = float(ints[i]);
    } else if (type == BOOL || type == CHAR || type == SIGNED_CHAR || type == UNSIGNED_CHAR) {
      // One byte each: BOOL reads as 0/1, CHAR and SIGNED_CHAR as signed, UNSIGNED_CHAR as unsigned.
      std::vector<unsigned char> bytes(n);
      for (std::size_t i = 0; toDevice && i < n; ++i)
        bytes[i] = (unsigned char)(int(vals[i]) & 255);
      toDevice ? engine.writeTensor(h.handle, bytes.data(), bytes.data() + n)
               : engine.readTensor(h.handle, bytes.data(), bytes.data() + n);
      for (std::size_t i = 0; !toDevice && i < n; ++i)
        vals[i] = type == BOOL ? (bytes[i] ? 1.0f : 0.0f)
                  : type == UNSIGNED_CHAR ? float(bytes[i]) : float((signed char)bytes[i]);
    }
  }

  Graph &graph_;
  Sequence &prog_;
  std::vector<Host> ins_, outs_;
};

// A device result against its host reference: within `tol` of the reference's magnitude (at least 1).
struct Expect {
  std::string what;
  Tensor out;
  std::function<float(std::size_t)> reference;
  float tol;
};

bool close(const std::vector<float> &got, const std::function<float(std::size_t)> &ref, float tol) {
  if (got.empty())
    return false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const float want = ref(i);
    if (!(std::fabs(got[i] - want) <= tol * std::fmax(1.0f, std::fabs(want)))) {
      std::cout << "  element " << i << ": got " << got[i] << ", want " << want << "\n";
      return false;
    }
  }
  return true;
}

template <typename F> bool throwsNaming(F f, const std::string &words) {
  try {
    f();
  } catch (const poputil::poplibs_error &e) {
    return std::string(e.what()).find(words) != std::string::npos;
  }
  return false;
}

// Quarter bytes of `v` under `md`, and their values (Poplar's host conversions).
std::vector<float> quarterBytes(const std::vector<float> &v, const QuarterMetadata &md) {
  std::vector<unsigned char> q(v.size());
  convertToDeviceType(QUARTER, md, v, q.data());
  return std::vector<float>(q.begin(), q.end());
}
std::vector<float> quarterValues(const std::vector<float> &bytes, const QuarterMetadata &md) {
  std::vector<unsigned char> q(bytes.begin(), bytes.end());
  std::vector<float> v(q.size());
  convertFromDeviceType(QUARTER, md, q.data(), v);
  return v;
}
// The tile's conversion of a float to an 8-bit integer: nearest (ties to even) through a 32-bit integer, low byte.
float toInt8(float v, const Type &type) {
  if (std::isnan(v))
    return 0.0f;
  const double r = std::nearbyint(double(v));
  long long i;
  if (type == UNSIGNED_CHAR) {
    i = r <= 0.0 ? 0 : r >= 4294967295.0 ? 4294967295LL : (long long)r;
    return float(i & 255);
  }
  i = r >= 2147483647.0 ? 2147483647LL : r <= -2147483648.0 ? -2147483648LL : (long long)r;
  return float((signed char)(unsigned char)(i & 255));
}

// QUARTER to and from the 8-bit integers, and between two metadata, on `c`'s graph.
void quarterCases(Graph &graph, Sequence &prog, Case &c, std::vector<Expect> &expects, const std::string &label) {
  const QuarterMetadata f143(QuarterMetadata::Format::F143, 0), f152(QuarterMetadata::Format::F152, 2),
      f152m(QuarterMetadata::Format::F152, -2);
  const Type ints[] = {CHAR, SIGNED_CHAR, UNSIGNED_CHAR};
  unsigned seed = 5;
  for (const Type &type : ints) {
    Tensor x = c.input(type, seed++);
    const std::vector<float> xv = c.inputValues(x);
    Tensor mdA = createConstantMetadataTensor(graph, f143.getFormat(), f143.getScale());
    Tensor mdB = createVariableMetadataTensor(graph, f152.getFormat(), f152.getScale());
    Tensor qa = popops::cast(graph, x, QUARTER, mdA, prog), qb = popops::cast(graph, x, QUARTER, mdB, prog);
    c.read(qa.reinterpret(UNSIGNED_CHAR));
    c.read(qb.reinterpret(UNSIGNED_CHAR));
    const std::vector<float> wantA = quarterBytes(xv, f143), wantB = quarterBytes(xv, f152);
    expects.push_back({label + " " + type.toString() + " -> QUARTER F143", qa.reinterpret(UNSIGNED_CHAR),
                       [=](std::size_t i) { return wantA[i]; }, 0.0f});
    expects.push_back({label + " " + type.toString() + " -> QUARTER F152 scale 2", qb.reinterpret(UNSIGNED_CHAR),
                       [=](std::size_t i) { return wantB[i]; }, 0.0f});
  }
  // Quarters from FLOAT values over a wide range, then to each integer type and to other metadata.
  Tensor f = c.input(FLOAT, 9);
  std::vector<float> fv = c.inputValues(f);
  Tensor mdF = createConstantMetadataTensor(graph, f152.getFormat(), f152.getScale());
  Tensor scaled = popops::mul(graph, f, 37.0f, prog); // up to +-333, beyond a byte, with fractions
  std::vector<float> sv(fv.size());
  for (std::size_t i = 0; i < fv.size(); ++i)
    sv[i] = fv[i] * 37.0f;
  Tensor q = popops::cast(graph, scaled, QUARTER, mdF, prog);
  const std::vector<float> qValues = quarterValues(quarterBytes(sv, f152), f152);
  for (const Type &type : ints) {
    Tensor out = popops::cast(graph, q, type, prog);
    c.read(out);
    expects.push_back({label + " QUARTER F152 scale 2 -> " + type.toString(), out,
                       [=](std::size_t i) { return toInt8(qValues[i], type); }, 0.0f});
  }
  Tensor mdG = createConstantMetadataTensor(graph, f152m.getFormat(), f152m.getScale());
  Tensor requant = popops::cast(graph, q, QUARTER, mdG, prog);
  c.read(requant.reinterpret(UNSIGNED_CHAR));
  const std::vector<float> wantG = quarterBytes(qValues, f152m);
  expects.push_back({label + " QUARTER F152 scale 2 -> QUARTER F152 scale -2", requant.reinterpret(UNSIGNED_CHAR),
                     [=](std::size_t i) { return wantG[i]; }, 0.0f});
  Tensor mdH = createConstantMetadataTensor(graph, f143.getFormat(), f143.getScale());
  Tensor toF143 = graph.addVariable(QUARTER, mdH, {N}, "toF143");
  poputil::mapTensorLinearly(graph, toF143, 1, 4);
  popops::cast(graph, q, toF143, prog);
  c.read(toF143.reinterpret(UNSIGNED_CHAR));
  const std::vector<float> wantH = quarterBytes(qValues, f143);
  expects.push_back({label + " QUARTER F152 -> a QUARTER F143 variable", toF143.reinterpret(UNSIGNED_CHAR),
                     [=](std::size_t i) { return wantH[i]; }, 0.0f});
  // INT has no QUARTER conversion: refused, naming the types that have one.
  Tensor i32 = graph.addVariable(INT, {N}, "i32");
  poputil::mapTensorLinearly(graph, i32); // the refused cast may leave its output, mapped like i32, in the graph
  check(throwsNaming([&] { popops::cast(graph, i32, QUARTER, mdH, prog); }, "CHAR, SIGNED_CHAR, UNSIGNED_CHAR"),
        label + " a cast of INT to QUARTER is refused, naming the types QUARTER converts with");
}

// Every device case on one device; `label` names the device in the checks.
void deviceCases(Device device, const std::string &label) {
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Sequence prog;
  Case c(graph, prog);
  std::vector<Expect> expects;
  const Type types[] = {FLOAT, HALF};
  for (const Type &type : types) {
    const std::string tn = label + " " + type.toString();
    const float tol = type == HALF ? 2e-3f : 1e-6f;
    Tensor a = c.input(type, 1), b = c.input(type, 2), hi = c.input(type, 3);
    const std::vector<float> av = c.inputValues(a), bv = c.inputValues(b), hv = c.inputValues(hi);
    // Constant on the right, then on the left; the constant is a float for both types, as checkTypes allows.
    Tensor o1 = c.output(type), o2 = c.output(type), o3 = c.output(type);
    popops::subWithOutput(graph, a, 3.0f, o1, prog);
    popops::subWithOutput(graph, 10.0f, b, o2, prog);
    popops::mulWithOutput(graph, a, 0.5, o3, prog); // a double constant
    expects.push_back({tn + " subWithOutput(a, 3)", o1, [=](std::size_t i) { return av[i] - 3.0f; }, tol});
    expects.push_back({tn + " subWithOutput(10, b)", o2, [=](std::size_t i) { return 10.0f - bv[i]; }, tol});
    expects.push_back({tn + " mulWithOutput(a, 0.5)", o3, [=](std::size_t i) { return av[i] * 0.5f; }, tol});
    Tensor gt = c.output(BOOL);
    popops::gtWithOutput(graph, 0.25f, a, gt, prog);
    expects.push_back({tn + " gtWithOutput(0.25, a)", gt, [=](std::size_t i) { return 0.25f > av[i] ? 1.0f : 0.0f; },
                       0.0f});
    // mapInPlace and mapWithOutput with one operation type.
    Tensor m1 = c.output(type), m2 = c.output(type), m3 = c.output(type);
    popops::mapWithOutput(graph, pe::UnaryOpType::ABSOLUTE, a, m1, prog);
    popops::mapWithOutput(graph, pe::BinaryOpType::ADD, a, b, m2, prog);
    Tensor pred = popops::gt(graph, a, b, prog);
    popops::mapWithOutput(graph, pe::TernaryOpType::SELECT, a, b, pred, m3, prog);
    expects.push_back({tn + " mapWithOutput(ABSOLUTE)", m1, [=](std::size_t i) { return std::fabs(av[i]); }, tol});
    expects.push_back({tn + " mapWithOutput(ADD)", m2, [=](std::size_t i) { return c.roundTo(type, av[i] + bv[i]); },
                       tol});
    expects.push_back({tn + " mapWithOutput(SELECT)", m3,
                       [=](std::size_t i) { return av[i] > bv[i] ? av[i] : bv[i]; }, tol});
    // clamp(a, b - 1, b + 1) in place, into a copy of a.
    Tensor cl = graph.clone(a, "clamped");
    prog.add(program::Copy(a, cl));
    Tensor loT = popops::sub(graph, b, 1.0f, prog), hiT = popops::add(graph, b, 1.0f, prog);
    popops::mapInPlace(graph, pe::TernaryOpType::CLAMP, cl, loT, hiT, prog);
    c.read(cl);
    expects.push_back({tn + " mapInPlace(CLAMP)", cl,
                       [=](std::size_t i) { return std::fmin(std::fmax(av[i], bv[i] - 1.0f), bv[i] + 1.0f); }, tol});
    // A HALF literal: a + 1.5_half.
    Tensor lit = popops::map(graph, pe::_1 + 1.5_half, {a}, prog);
    c.read(lit);
    expects.push_back({tn + " map(_1 + 1.5_half)", lit, [=](std::size_t i) { return c.roundTo(type, av[i] + 1.5f); },
                       tol});
    // The generated codelet of max(_1 * 2 + _2, -_2) (with a broadcast scalar _3 added), compiled and run on tile 0,
    // against map of the same expression and a host reference.
    {
      const pe::Any e = pe::Max(pe::_1 * 2 + pe::_2, -pe::_2) + pe::_3;
      Tensor third = graph.addConstant(type, {1}, 0.5f, "third");
      graph.setTileMapping(third, 0);
      std::ostringstream code;
      popops::outputGeneratedCodelet(graph.getTarget(), e, {a, b, third}, {}, code);
      const std::string src = code.str();
      const std::size_t at = src.find("class ");
      const std::string cls = at == std::string::npos ? "" : src.substr(at + 6, src.find(' ', at + 6) - at - 6);
      const std::string file = "generated_" + type.toString() + ".cpp";
      std::ofstream(file.c_str()) << src;
      graph.addCodelets(file);
      ComputeSet cs = graph.addComputeSet("generated");
      VertexRef v = graph.addVertex(cs, cls);
      graph.setTileMapping(v, 0);
      Tensor gen = c.output(type);
      graph.connect(v["in1"], a);
      graph.connect(v["in2"], b);
      graph.connect(v["in3"], third);
      graph.connect(v["out"], gen);
      prog.add(Execute(cs));
      Tensor viaMap = popops::map(graph, e, {a, b, third}, prog);
      c.read(viaMap);
      const Case *cp = &c;
      const auto ref = [=](std::size_t i) {
        const float lhs = cp->roundTo(type, cp->roundTo(type, av[i] * 2.0f) + bv[i]);
        return cp->roundTo(type, std::fmax(lhs, -bv[i]) + 0.5f);
      };
      expects.push_back({tn + " map(max(_1 * 2 + _2, -_2) + _3)", viaMap, ref, tol});
      expects.push_back({tn + " outputGeneratedCodelet's vertex", gen, ref, tol});
    }
    // createDynamicSliceOutput: rows [offset, offset + 3) of a [10][4] view, the offset 5 set by the program.
    Tensor base = hi.reshape({10, 4});
    Tensor offset = graph.addVariable(UNSIGNED_INT, {1}, "offset");
    graph.setTileMapping(offset, 0);
    Tensor five = graph.addConstant(UNSIGNED_INT, {1}, 5u, "five");
    graph.setTileMapping(five, 0);
    prog.add(program::Copy(five, offset));
    Tensor sliceOut = popops::createDynamicSliceOutput(graph, base, offset, {0}, {3});
    check(sliceOut.shape() == std::vector<std::size_t>({3, 4}) && sliceOut.elementType() == type,
          tn + " createDynamicSliceOutput has the slice's shape and type");
    popops::dynamicSliceWithOutput(graph, sliceOut, base, offset, {0}, {3}, prog);
    Tensor sliceFlat = sliceOut.flatten();
    c.read(sliceFlat);
    expects.push_back({tn + " dynamicSliceWithOutput into createDynamicSliceOutput", sliceFlat,
                       [=](std::size_t i) { return hv[20 + i]; }, 0.0f});
  }
  // INT: an int constant on either side, and a shift.
  {
    Tensor a = c.input(INT, 4);
    const std::vector<float> av = c.inputValues(a);
    Tensor o1 = c.output(INT), o2 = c.output(INT), o3 = c.output(INT);
    popops::maxWithOutput(graph, 4, a, o1, prog);
    popops::remWithOutput(graph, a, 7, o2, prog);
    popops::shiftLeftWithOutput(graph, a, 2, o3, prog);
    expects.push_back({label + " int maxWithOutput(4, a)", o1, [=](std::size_t i) { return std::fmax(4.0f, av[i]); },
                       0.0f});
    expects.push_back({label + " int remWithOutput(a, 7)", o2,
                       [=](std::size_t i) { return float(int(av[i]) % 7); }, 0.0f});
    expects.push_back({label + " int shiftLeftWithOutput(a, 2)", o3,
                       [=](std::size_t i) { return float(int(unsigned(int(av[i])) << 2)); }, 0.0f});
    // A float constant with an INT tensor is refused, naming both types.
    Tensor bad = c.output(INT);
    check(throwsNaming([&] { popops::addWithOutput(graph, a, 1.5f, bad, prog); }, "float constant"),
          label + " addWithOutput(int tensor, 1.5f) is refused naming the float constant");
    check(throwsNaming([&] { popops::addWithOutput(graph, 2u, a, bad, prog); }, "unsigned int"),
          label + " addWithOutput(2u, int tensor) is refused naming the unsigned constant");
    prog.add(program::Copy(a, bad)); // the refused calls left `bad` unwritten
  }
  quarterCases(graph, prog, c, expects, label);
  c.run(device);
  for (const Expect &e : expects)
    check(close(c.values(e.out), e.reference, e.tol), e.what + " matches the host");
}

void hostCases() {
  // checkTypes as a user calls it.
  bool okFloat = true;
  try {
    popops::checkTypes(HALF, 1.0);
    popops::checkTypes(FLOAT, 1.0f);
    popops::checkTypes(INT, 3);
    popops::checkTypes(UNSIGNED_INT, 3u);
  } catch (const poputil::poplibs_error &) {
    okFloat = false;
  }
  check(okFloat, "checkTypes accepts float/double for FLOAT and HALF, int for INT, unsigned for UNSIGNED_INT");
  check(throwsNaming([] { popops::checkTypes(INT, 1.0f); }, "int"),
        "checkTypes refuses a float constant for an INT tensor, naming the tensor's type");
  // Expression printing.
  std::ostringstream e;
  e << (pe::_1 + 2) * pe::Sqrt(pe::_2);
  check(e.str() == "MULTIPLY(ADD(_1, 2), SQRT(_2))", "an expression prints as MULTIPLY(ADD(_1, 2), SQRT(_2))");
  std::ostringstream ops;
  {
    using namespace popops::expr::ostream_ext;
    ops << pe::UnaryOpType::GELU_ERF << " " << pe::BinaryOpType::VARIANCE_TO_INV_STD_DEV << " "
        << pe::TernaryOpType::CLAMP;
  }
  check(ops.str() == "GELU_ERF VARIANCE_TO_INV_STD_DEV CLAMP", "ExprOpUtils prints operation types by name");
  check((1.5_half).getType() == HALF && (1.5_half).getValue() == 1.5, "1.5_half is a HALF literal of 1.5");
  // OperationDefUtil.hpp.
  check(std::string(poputil::asString(popops::Operation::SQUARE_ADD)) == "Square Add" &&
            std::string(poputil::asString(popops::Operation::LOG_ADD)) == "Log Add",
        "poputil::asString names operations");
  check(poputil::templateVertex("popops::Reduce", popops::Operation::LOGICAL_OR, FLOAT) ==
            "popops::Reduce<popops::Operation::LOGICAL_OR,float>",
        "a popops::Operation template argument is spelled popops::Operation::LOGICAL_OR");
  check(throwsNaming([] { poputil::asString(popops::Operation(99)); }, "99"),
        "asString refuses a value outside the enumeration");
  // SlicePlan comparisons.
  popops::SlicePlan p1, p2;
  check(p1 == p2 && !(p1 < p2) && !(p2 < p1) && !(p1 != p2), "default SlicePlans compare equal");
  // toProfileValue of a clone method.
  check(poputil::toProfileValue(TensorCloneMethod::CREATE_NEW_ORDER).asString() == "CREATE_NEW_ORDER",
        "toProfileValue names a TensorCloneMethod");
  // The deprecated poputil metadata tensors.
  IPUModel model("ipu2");
  model.tilesPerIPU = 1;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor cm = poputil::createConstantMetadataTensor(graph, QuarterMetadata::Format::F143, -3);
  Tensor vm = poputil::createVariableMetadataTensor(graph, QuarterMetadata::Format::F152, 5);
  check(cm.elementType() == QUARTER_METADATA && cm.numElements() == 1 && vm.elementType() == QUARTER_METADATA &&
            vm.numElements() == 1,
        "poputil's metadata tensors are one QUARTER_METADATA element");
  bool refused = false;
  try {
    poputil::createConstantMetadataTensor(graph, QuarterMetadata::Format::F143, 40);
  } catch (const poplar::poplar_error &) {
    refused = true;
  }
  check(refused, "a metadata scale of 40 is refused");
  // createDynamicSliceOutput checks its arguments as dynamicSlice does.
  Tensor t = graph.addVariable(FLOAT, {4, 4}, "t");
  Tensor off = graph.addVariable(UNSIGNED_INT, {1}, "off");
  check(throwsNaming([&] { popops::createDynamicSliceOutput(graph, t, off, {2}, {1}); }, "createDynamicSliceOutput"),
        "createDynamicSliceOutput refuses a dimension the tensor lacks, naming itself");
}

} // namespace

int main() {
  try {
    hostCases();
    IPUModel tiny("ipu2");
    tiny.tilesPerIPU = 1;
    deviceCases(tiny.createDevice(), "one tile");
    IPUModel ipu2("ipu2");
    deviceCases(ipu2.createDevice(), "ipu2");
  } catch (const std::exception &e) {
    std::cout << "FAIL: unexpected exception: " << e.what() << "\n";
    return 1;
  }
  return checksDone("all popops/poputil name checks passed");
}
