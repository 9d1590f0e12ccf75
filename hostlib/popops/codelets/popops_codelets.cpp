// popops' tile code, compiled with popc at build time into popops.gp (loaded by popops::addCodelets):
//  - popops::MapInterpreter evaluates a serialized expression (map_code.h) for every element of its output runs,
//    so every element-wise operation and every popops::map expression is one vertex type and one compute set (a
//    MultiVertex: one per tile, its workers sharing the tile's elements);
//  - popops::Reduce<In, Out> reduces runs of partials into one output each (one stage of popops::reduce); HALF
//    accumulates in float (Reduce<half, half>, and Reduce<half, float> / Reduce<float, half> for float partials).
// Vertices that differ only in element types are class templates (Reduce here, the sort vertices in
// sort_codelets.h, the spline vertices in spline_codelets.h), their vertex classes listed with VertexInstances
// below.
#include <math.h>
#include <poplar/Vertex.hpp>

#include "map_code.h"
#include "popops/ExprOp.hpp"

using namespace poplar;

namespace popops {

// `template struct VertexInstances<X<float>, X<half>>;` makes X<float> and X<half> vertex classes. popc finds
// vertex classes in the codelets' debug information, where a specialization of a class template appears once the
// class is instantiated; completing each type (sizeof) instantiates the class and nothing else. An explicit
// instantiation (`template class X<float>;`) would work too, but it also emits every member function out of line,
// and that second copy of compute() changes what g++ inlines into the entry point popc generates (which calls
// compute() and so instantiates it there): the tile code would grow.
template <typename... Vertices> struct VertexInstances {
  static_assert(((sizeof(Vertices) > 0) && ...), "a vertex class template instance must be complete");
};
namespace {

using expr::BinaryOpType;
using expr::TernaryOpType;
using expr::UnaryOpType;

union Val {
  float f;
  int i;
  unsigned u;
};

Val fromF(float f) {
  Val v;
  v.f = f;
  return v;
}
Val fromI(int i) {
  Val v;
  v.i = i;
  return v;
}
Val fromU(unsigned u) {
  Val v;
  v.u = u;
  return v;
}

float sign(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f; }

Val unaryF(UnaryOpType op, float a) {
  switch (op) {
  case UnaryOpType::ABSOLUTE: return fromF(fabsf(a));
  case UnaryOpType::ASIN: return fromF(asinf(a));
  case UnaryOpType::CBRT: return fromF(cbrtf(a));
  case UnaryOpType::CEIL: return fromF(ceilf(a));
  case UnaryOpType::COS: return fromF(cosf(a));
  case UnaryOpType::EXPONENT: return fromF(expf(a));
  case UnaryOpType::EXPONENT_MINUS_ONE: return fromF(expm1f(a));
  case UnaryOpType::FLOOR: return fromF(floorf(a));
  case UnaryOpType::INVERSE: return fromF(1.0f / a);
  case UnaryOpType::IS_FINITE: return fromI(isfinite(a) ? 1 : 0);
  case UnaryOpType::IS_INF: return fromI(isinf(a) ? 1 : 0);
  case UnaryOpType::IS_NAN: return fromI(isnan(a) ? 1 : 0);
  case UnaryOpType::LOGARITHM: return fromF(logf(a));
  case UnaryOpType::LOGARITHM_ONE_PLUS: return fromF(log1pf(a));
  case UnaryOpType::NEGATE: return fromF(-a);
  case UnaryOpType::SIGNUM: return fromF(sign(a));
  case UnaryOpType::SIN: return fromF(sinf(a));
  case UnaryOpType::TAN: return fromF(tanf(a));
  case UnaryOpType::TANH: return fromF(tanhf(a));
  case UnaryOpType::ROUND: return fromF(roundf(a));
  case UnaryOpType::SQRT: return fromF(sqrtf(a));
  case UnaryOpType::SQUARE: return fromF(a * a);
  case UnaryOpType::SIGMOID: return fromF(1.0f / (1.0f + expf(-a)));
  case UnaryOpType::RSQRT: return fromF(1.0f / sqrtf(a));
  case UnaryOpType::RELU: return fromF(a > 0.0f ? a : 0.0f);
  case UnaryOpType::TRUNC: return fromF(truncf(a));
  case UnaryOpType::ERF: return fromF(erff(a));
  case UnaryOpType::EXPONENT2: return fromF(exp2f(a));
  // GELU with the exact (erf) form: x * Phi(x).
  case UnaryOpType::GELU_ERF: return fromF(0.5f * a * (1.0f + erff(a * 0.70710678f)));
  case UnaryOpType::NEARBY_INT: return fromF(nearbyintf(a));
  default: return fromF(a);
  }
}

Val unaryI(UnaryOpType op, int a) {
  switch (op) {
  case UnaryOpType::ABSOLUTE: return fromI(a < 0 ? -a : a);
  case UnaryOpType::BITWISE_NOT: return fromI(~a);
  case UnaryOpType::COUNT_LEADING_ZEROS: return fromI(a == 0 ? 32 : __builtin_clz(unsigned(a)));
  case UnaryOpType::NEGATE: return fromI(-a);
  case UnaryOpType::POPCOUNT: return fromI(__builtin_popcount(unsigned(a)));
  case UnaryOpType::SIGNUM: return fromI(a > 0 ? 1 : a < 0 ? -1 : 0);
  case UnaryOpType::SQUARE: return fromI(a * a);
  case UnaryOpType::RELU: return fromI(a > 0 ? a : 0);
  case UnaryOpType::LOGICAL_NOT: return fromI(a == 0 ? 1 : 0);
  default: return fromI(a);
  }
}

Val unaryU(UnaryOpType op, unsigned a) {
  switch (op) {
  case UnaryOpType::BITWISE_NOT: return fromU(~a);
  case UnaryOpType::COUNT_LEADING_ZEROS: return fromU(a == 0 ? 32 : __builtin_clz(a));
  case UnaryOpType::POPCOUNT: return fromU(__builtin_popcount(a));
  case UnaryOpType::SIGNUM: return fromU(a > 0 ? 1 : 0);
  case UnaryOpType::SQUARE: return fromU(a * a);
  case UnaryOpType::LOGICAL_NOT: return fromU(a == 0 ? 1 : 0);
  default: return fromU(a);
  }
}

template <typename T> Val put(T x);
template <> Val put<float>(float x) { return fromF(x); }
template <> Val put<int>(int x) { return fromI(x); }
template <> Val put<unsigned>(unsigned x) { return fromU(x); }

// Arithmetic and comparisons common to every type; comparisons give 0/1 (bool).
template <typename T> bool common(BinaryOpType op, T a, T b, Val &r) {
  switch (op) {
  case BinaryOpType::ADD: r = put<T>(a + b); return true;
  case BinaryOpType::SUBTRACT: r = put<T>(a - b); return true;
  case BinaryOpType::MULTIPLY: r = put<T>(a * b); return true;
  case BinaryOpType::MAXIMUM: r = put<T>(a > b ? a : b); return true;
  case BinaryOpType::MINIMUM: r = put<T>(a < b ? a : b); return true;
  case BinaryOpType::EQUAL: r = fromI(a == b); return true;
  case BinaryOpType::NOT_EQUAL: r = fromI(a != b); return true;
  case BinaryOpType::LESS_THAN: r = fromI(a < b); return true;
  case BinaryOpType::LESS_THAN_EQUAL: r = fromI(a <= b); return true;
  case BinaryOpType::GREATER_THAN: r = fromI(a > b); return true;
  case BinaryOpType::GREATER_THAN_EQUAL: r = fromI(a >= b); return true;
  case BinaryOpType::LOGICAL_AND: r = fromI(a != T(0) && b != T(0)); return true;
  case BinaryOpType::LOGICAL_OR: r = fromI(a != T(0) || b != T(0)); return true;
  default: return false;
  }
}

Val binaryF(BinaryOpType op, float a, float b) {
  Val r;
  if (common<float>(op, a, b, r))
    return r;
  switch (op) {
  case BinaryOpType::ATAN2: return fromF(atan2f(a, b));
  case BinaryOpType::DIVIDE: return fromF(a / b);
  case BinaryOpType::POWER: return fromF(powf(a, b));
  case BinaryOpType::REMAINDER: return fromF(fmodf(a, b));
  case BinaryOpType::INV_STD_DEV_TO_VARIANCE: return fromF(1.0f / (a * a) - b);
  case BinaryOpType::VARIANCE_TO_INV_STD_DEV: return fromF(1.0f / sqrtf(a + b));
  default: return fromF(a);
  }
}

// Integer division and remainder by zero give 0 here (RISC-V would give -1 and a), as a defined result.
template <typename T> Val binaryInt(BinaryOpType op, T a, T b) {
  Val r;
  if (common<T>(op, a, b, r))
    return r;
  switch (op) {
  case BinaryOpType::BITWISE_AND: return put<T>(a & b);
  case BinaryOpType::BITWISE_OR: return put<T>(a | b);
  case BinaryOpType::BITWISE_XOR: return put<T>(a ^ b);
  case BinaryOpType::BITWISE_XNOR: return put<T>(~(a ^ b));
  case BinaryOpType::DIVIDE: return put<T>(b == 0 ? T(0) : T(a / b));
  case BinaryOpType::REMAINDER: return put<T>(b == 0 ? T(0) : T(a % b));
  case BinaryOpType::SHIFT_LEFT: return put<T>(T(unsigned(a) << (unsigned(b) & 31u)));
  case BinaryOpType::SHIFT_RIGHT: return put<T>(T(unsigned(a) >> (unsigned(b) & 31u)));
  case BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND: return put<T>(T(int(a) >> (unsigned(b) & 31u)));
  case BinaryOpType::POWER: {
    T p = 1;
    for (T k = 0; k < b; ++k)
      p *= a;
    return put<T>(p);
  }
  default: return put<T>(a);
  }
}

// A float rounded to the nearest half (ties to even): a half result held as a float.
float roundH(float f) { return float(half(f)); }

bool isBoolResult(UnaryOpType op) {
  return op == UnaryOpType::IS_FINITE || op == UnaryOpType::IS_INF || op == UnaryOpType::IS_NAN;
}
bool isBoolResult(BinaryOpType op) {
  switch (op) {
  case BinaryOpType::EQUAL: case BinaryOpType::NOT_EQUAL: case BinaryOpType::LESS_THAN:
  case BinaryOpType::LESS_THAN_EQUAL: case BinaryOpType::GREATER_THAN: case BinaryOpType::GREATER_THAN_EQUAL:
  case BinaryOpType::LOGICAL_AND: case BinaryOpType::LOGICAL_OR:
    return true;
  default:
    return false;
  }
}

// Half values are floats on the stack: a half source converts like a float one and a half target rounds.
Val cast(unsigned from, unsigned to, Val v) {
  using namespace mapcode;
  if (from == H)
    from = F;
  if (to == H)
    return fromF(roundH(cast(from, F, v).f));
  if (from == to)
    return v;
  if (to == F)
    return fromF(from == F ? v.f : from == U ? float(v.u) : float(v.i));
  if (to == B)
    return fromI(from == F ? v.f != 0.0f : v.i != 0);
  if (to == I)
    return fromI(from == F ? int(v.f) : v.i);
  return fromU(from == F ? unsigned(v.f) : v.u);
}

// The fast path of the commonest map, a FLOAT binary arithmetic operation on two full runs (popops::add and
// relatives): one loop, no decoding per element. Returns false when `op` has no fast path.
bool binaryFloatRun(BinaryOpType op, const float *a, const float *b, float *o, unsigned n) {
  switch (op) {
  case BinaryOpType::ADD: for (unsigned i = 0; i < n; ++i) o[i] = a[i] + b[i]; return true;
  case BinaryOpType::SUBTRACT: for (unsigned i = 0; i < n; ++i) o[i] = a[i] - b[i]; return true;
  case BinaryOpType::MULTIPLY: for (unsigned i = 0; i < n; ++i) o[i] = a[i] * b[i]; return true;
  case BinaryOpType::DIVIDE: for (unsigned i = 0; i < n; ++i) o[i] = a[i] / b[i]; return true;
  default: return false;
  }
}

} // namespace

/// Runs `code` (map_code.h) for each element of each output run. The output is the one non-empty out list. A
/// MultiVertex: one per tile, each worker takes an equal share of the concatenated output elements (cut at
/// multiples of 4 elements, so workers do not share a 32-bit word of a half or bool output when runs start on one).
class MapInterpreter : public MultiVertex {
public:
  Input<VectorList<float>> inF;
  Input<VectorList<int>> inI;
  Input<VectorList<unsigned>> inU;
  Input<VectorList<bool>> inB;
  Input<VectorList<half>> inH;
  Output<VectorList<float>> outF;
  Output<VectorList<int>> outI;
  Output<VectorList<unsigned>> outU;
  Output<VectorList<bool>> outB;
  Output<VectorList<half>> outH;
  Input<Vector<unsigned>> code;

  unsigned numRuns(unsigned t) const {
    using namespace mapcode;
    return t == F ? outF.size() : t == I ? outI.size() : t == U ? outU.size() : t == H ? outH.size() : outB.size();
  }
  unsigned runSize(unsigned t, unsigned r) const {
    using namespace mapcode;
    return t == F ? outF[r].size() : t == I ? outI[r].size() : t == U ? outU[r].size() : t == H ? outH[r].size()
                                                                                                : outB[r].size();
  }

  // The part [b, e) of run r (which starts at element `off` of the concatenation) in the share [lo, hi).
  static bool part(unsigned off, unsigned n, unsigned lo, unsigned hi, unsigned &b, unsigned &e) {
    if (off >= hi || off + n <= lo)
      return false;
    b = lo > off ? lo - off : 0;
    e = hi - off < n ? hi - off : n;
    return b < e;
  }

  // The code `_1 op _2` on two FLOAT operands with a FLOAT result, every run full-length: the fast path.
  bool fastBinaryFloat(const unsigned *c, unsigned runs, unsigned lo, unsigned hi) {
    using namespace mapcode;
    const unsigned h = kHeaderWords;
    if (c[0] != 2 || c[1] != 0 || c[2] != 0 || c[3] != 0 || c[4] != 0 || c[kResultWord] != F ||
        c[h] != encode(LOAD, F, 0, 0) ||
        c[h + 1] != encode(LOAD, F, 0, 1) || (c[h + 2] & 0xffu) != (BINARY | F << 4) || c[h + 3] != END)
      return false;
    BinaryOpType op = BinaryOpType((c[h + 2] >> 8) & 255u);
    float dummy = 0.0f;
    if (!binaryFloatRun(op, &dummy, &dummy, &dummy, 0))
      return false;
    for (unsigned r = 0; r < runs; ++r)
      if (inF[2 * r].size() != outF[r].size() || inF[2 * r + 1].size() != outF[r].size())
        return false;
    unsigned off = 0, b, e;
    for (unsigned r = 0; r < runs; off += outF[r].size(), ++r)
      if (part(off, outF[r].size(), lo, hi, b, e))
        binaryFloatRun(op, inF[2 * r].data() + b, inF[2 * r + 1].data() + b, outF[r].data() + b, e - b);
    return true;
  }

  // The code `CONST v` (fill, zero): every output element gets v.
  bool fastFill(const unsigned *c, unsigned runs, unsigned lo, unsigned hi) {
    using namespace mapcode;
    const unsigned h = kHeaderWords, t = c[kResultWord];
    if (c[h] != encode(CONST, t, 0, 0) || c[h + 2] != END)
      return false;
    Val v = fromU(c[h + 1]);
    unsigned off = 0, b, e;
    for (unsigned r = 0; r < runs; off += runSize(t, r), ++r) {
      if (!part(off, runSize(t, r), lo, hi, b, e))
        continue;
      for (unsigned i = b; i < e; ++i) {
        if (t == F)
          outF[r][i] = v.f;
        else if (t == I)
          outI[r][i] = v.i;
        else if (t == U)
          outU[r][i] = v.u;
        else if (t == H)
          outH[r][i] = half(v.f);
        else
          outB[r][i] = v.i != 0;
      }
    }
    return true;
  }

  Val load(unsigned type, unsigned item, unsigned i) const {
    using namespace mapcode;
    switch (type) {
    case F: { const auto &s = inF[item]; return fromF(s[s.size() == 1 ? 0 : i]); }
    case I: { const auto &s = inI[item]; return fromI(s[s.size() == 1 ? 0 : i]); }
    case U: { const auto &s = inU[item]; return fromU(s[s.size() == 1 ? 0 : i]); }
    case H: { const auto &s = inH[item]; return fromF(float(s[s.size() == 1 ? 0 : i])); }
    default: { const auto &s = inB[item]; return fromI(s[s.size() == 1 ? 0 : i] ? 1 : 0); }
    }
  }

  // Evaluates the code for element i of run r.
  Val eval(const unsigned *c, unsigned r, unsigned i) const {
    using namespace mapcode;
    Val st[kMaxStack];
    unsigned sp = 0;
    for (unsigned pc = kHeaderWords;; ++pc) {
      unsigned w = c[pc], kind = w & kKindMask, type = (w >> 4) & 15u, op = (w >> 8) & 255u, arg = w >> 16;
      if (kind == END)
        break;
      switch (kind) {
      case LOAD: st[sp++] = load(type, r * c[type] + arg, i); break;
      case CONST:
        st[sp] = fromU(c[++pc]);
        if (type == H)
          st[sp].f = roundH(st[sp].f);
        ++sp;
        break;
      case UNARY: {
        Val a = st[sp - 1];
        UnaryOpType u = UnaryOpType(op);
        if (type == H) {
          st[sp - 1] = unaryF(u, a.f);
          if (!isBoolResult(u))
            st[sp - 1].f = roundH(st[sp - 1].f);
        } else {
          st[sp - 1] = type == F ? unaryF(u, a.f) : type == U ? unaryU(u, a.u) : unaryI(u, a.i);
        }
        break;
      }
      case BINARY: {
        Val b = st[--sp], a = st[sp - 1];
        BinaryOpType o = BinaryOpType(op);
        if (type == H) {
          st[sp - 1] = binaryF(o, a.f, b.f);
          if (!isBoolResult(o))
            st[sp - 1].f = roundH(st[sp - 1].f);
        } else {
          st[sp - 1] = type == F ? binaryF(o, a.f, b.f) : type == U ? binaryInt<unsigned>(o, a.u, b.u)
                                                                    : binaryInt<int>(o, a.i, b.i);
        }
        break;
      }
      case TERNARY: {
        Val z = st[--sp], y = st[--sp], x = st[sp - 1];
        if (TernaryOpType(op) == TernaryOpType::SELECT)
          st[sp - 1] = z.i ? x : y;
        else if (type == F || type == H)
          st[sp - 1] = fromF(x.f < y.f ? y.f : x.f > z.f ? z.f : x.f);
        else if (type == U)
          st[sp - 1] = fromU(x.u < y.u ? y.u : x.u > z.u ? z.u : x.u);
        else
          st[sp - 1] = fromI(x.i < y.i ? y.i : x.i > z.i ? z.i : x.i);
        break;
      }
      default: st[sp - 1] = cast(type, arg, st[sp - 1]); break;
      }
    }
    return st[0];
  }

  bool compute(unsigned workerId) {
    using namespace mapcode;
    const unsigned *c = code.data();
    const unsigned outType = c[kResultWord];
    const unsigned runs = numRuns(outType);
    unsigned total = 0;
    for (unsigned r = 0; r < runs; ++r)
      total += runSize(outType, r);
    const unsigned per = ((total + numWorkers() - 1) / numWorkers() + 3u) & ~3u;
    const unsigned lo = workerId * per < total ? workerId * per : total;
    const unsigned hi = total - lo < per ? total : lo + per;
    if (lo >= hi)
      return true;
    if (fastBinaryFloat(c, runs, lo, hi) || fastFill(c, runs, lo, hi))
      return true;
    unsigned off = 0, b, e;
    for (unsigned r = 0; r < runs; off += runSize(outType, r), ++r) {
      if (!part(off, runSize(outType, r), lo, hi, b, e))
        continue;
      for (unsigned i = b; i < e; ++i) {
        Val v = eval(c, r, i);
        switch (outType) {
        case F: outF[r][i] = v.f; break;
        case I: outI[r][i] = v.i; break;
        case U: outU[r][i] = v.u; break;
        case H: outH[r][i] = half(v.f); break;
        default: outB[r][i] = v.i != 0; break;
        }
      }
    }
    return true;
  }
};

namespace {

// Reduction operators (popops::Operation order): ADD, MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR, SQUARE_ADD, LOG_ADD.
template <typename T> T reduceInit(unsigned op, T lowest, T highest) {
  switch (op) {
  case 1: return T(1);
  case 2: return highest;
  case 3: return lowest;
  case 7: return lowest; // log(0): -inf for the float accumulator (LOG_ADD reduces FLOAT and HALF only)
  case 4: return T(1);
  default: return T(0);
  }
}

template <typename T> struct StepAdd { static T f(T a, T x) { return a + x; } };
template <typename T> struct StepMul { static T f(T a, T x) { return a * x; } };
template <typename T> struct StepMin { static T f(T a, T x) { return x < a ? x : a; } };
template <typename T> struct StepMax { static T f(T a, T x) { return x > a ? x : a; } };
template <typename T> struct StepAnd { static T f(T a, T x) { return T(a && x); } };
template <typename T> struct StepOr { static T f(T a, T x) { return T(a || x); } };
template <typename T> struct StepSquareAdd { static T f(T a, T x) { return a + x * x; } };
// log(exp(a) + exp(x)) without overflow: the larger plus log1p of the exponential of the (non-positive) difference;
// exactly the larger when the smaller is log(0). The host only asks for it on float accumulators.
template <typename T> struct StepLogAdd { static T f(T a, T x) { return a + x; } };
template <> struct StepLogAdd<float> {
  static float f(float a, float x) {
    const float hi = a > x ? a : x, lo = a > x ? x : a;
    return lo == -INFINITY ? hi : hi + log1pf(expf(lo - hi));
  }
};

// out[o] = the reduction of the next counts[o] runs of `in`, with the operation's step inlined in the loop.
template <typename T, typename Step, typename In, typename Out, typename Counts>
void reduceWith(T init, const In &in, const Counts &counts, Out &out) {
  unsigned item = 0;
  for (unsigned o = 0; o < out.size(); ++o) {
    T acc = init;
    for (unsigned k = 0; k < counts[o]; ++k, ++item) {
      const auto &run = in[item];
      for (unsigned i = 0; i < run.size(); ++i)
        acc = Step::f(acc, T(run[i]));
    }
    out[o] = acc;
  }
}

template <typename T, typename In, typename Out, typename Counts>
void reduceRuns(unsigned op, T lowest, T highest, const In &in, const Counts &counts, Out &out) {
  T init = reduceInit<T>(op, lowest, highest);
  switch (op) {
  case 1: reduceWith<T, StepMul<T> >(init, in, counts, out); break;
  case 2: reduceWith<T, StepMin<T> >(init, in, counts, out); break;
  case 3: reduceWith<T, StepMax<T> >(init, in, counts, out); break;
  case 4: reduceWith<T, StepAnd<T> >(init, in, counts, out); break;
  case 5: reduceWith<T, StepOr<T> >(init, in, counts, out); break;
  case 6: reduceWith<T, StepSquareAdd<T> >(init, in, counts, out); break;
  case 7: reduceWith<T, StepLogAdd<T> >(init, in, counts, out); break;
  default: reduceWith<T, StepAdd<T> >(init, in, counts, out); break;
  }
}

// Per input element type: the type a stage accumulates in and the identities of MIN and MAX in it. Half is
// accumulated in float and rounded once into each half output; bool as unsigned 0/1.
template <typename In> struct ReduceAcc;
template <> struct ReduceAcc<float> {
  typedef float type;
  static float lowest() { return -INFINITY; }
  static float highest() { return INFINITY; }
};
template <> struct ReduceAcc<half> : ReduceAcc<float> {};
template <> struct ReduceAcc<int> {
  typedef int type;
  static int lowest() { return int(0x80000000u); }
  static int highest() { return 0x7fffffff; }
};
template <> struct ReduceAcc<unsigned> {
  typedef unsigned type;
  static unsigned lowest() { return 0u; }
  static unsigned highest() { return 0xffffffffu; }
};
template <> struct ReduceAcc<bool> {
  typedef unsigned type;
  static unsigned lowest() { return 0u; }
  static unsigned highest() { return 1u; }
};

} // namespace

/// One stage of a reduction: out[o] reduces the next counts[o] runs of `in` with `op` (MIN, MAX, ADD and MUL on
/// bool act on 0/1). The instances listed below are the vertex classes, named popops::Reduce<In, Out> (the host
/// spells them with poputil::detail::templateVertex): same-type for every element type, and HALF/FLOAT either way
/// for the partials of a half reduction or a result of the other type.
template <typename In, typename Out> class Reduce : public Vertex {
public:
  Input<VectorList<In>> in;
  Input<Vector<unsigned>> counts;
  Output<Vector<Out>> out;
  unsigned op;
  bool compute() {
    typedef ReduceAcc<In> Acc;
    reduceRuns<typename Acc::type>(op, Acc::lowest(), Acc::highest(), in, counts, out);
    return true;
  }
};

template struct VertexInstances<Reduce<float, float>, Reduce<half, half>, Reduce<half, float>, Reduce<float, half>,
                                Reduce<int, int>, Reduce<unsigned, unsigned>, Reduce<bool, bool>>;

/// Every element of `out` = `in`: popops::fill of the integral types of 1, 2 and 8 bytes, which the map
/// interpreter has no code for (and the identity of an empty reduction of SHORT or CHAR). The host sees those types
/// as the unsigned type of their size and passes the value's bits. Each element is stored with a store of its own
/// width, so a region that starts or ends inside a 32-bit word leaves the word's other bytes alone.
template <typename T> class Fill : public Vertex {
public:
  Output<Vector<T>> out;
  T in;
  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = in;
    return true;
  }
};

/// The same over several regions of a tile (one vertex per tile instead of one per region).
template <typename T> class Fill2d : public Vertex {
public:
  Output<VectorList<T>> out;
  T in;
  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r)
      for (unsigned i = 0; i < out[r].size(); ++i)
        out[r][i] = in;
    return true;
  }
};

template struct VertexInstances<Fill<unsigned char>, Fill<unsigned short>, Fill<unsigned long long>,
                                Fill2d<unsigned char>, Fill2d<unsigned short>, Fill2d<unsigned long long>>;

} // namespace popops
#include "cast_int_codelets.h"
#include "histogram_codelets.h"
#include "image_codelets.h"
#include "loop_codelets.h"
#include "quarter_codelets.h"
#include "rearrange_codelets.h"
#include "slice_codelets.h"
#include "sort_codelets.h"
#include "spline_codelets.h"
