// Internal: expression trees to interpreter code; see expr_compile.hpp.
#include "expr_compile.hpp"

#include <cstring>

#include "../codelets/map_code.h"
#include "poputil/exceptions.hpp"

namespace popops::detail {

using namespace expr;
using poputil::poplibs_error;

unsigned valueTypeOf(const poplar::Type &t, const std::string &what) {
  if (t == poplar::FLOAT)
    return mapcode::F;
  if (t == poplar::INT)
    return mapcode::I;
  if (t == poplar::UNSIGNED_INT)
    return mapcode::U;
  if (t == poplar::BOOL)
    return mapcode::B;
  if (t == poplar::HALF)
    return mapcode::H;
  throw poplibs_error(what + ": element type " + t.toString() +
                      " is not supported by popops here (FLOAT, HALF, INT, UNSIGNED_INT and BOOL are); cast the "
                      "tensor first");
}

static const poplar::Type kTypes[] = {poplar::FLOAT, poplar::INT, poplar::UNSIGNED_INT, poplar::BOOL, poplar::HALF};

/// FLOAT and HALF: the types of the floating-point operations.
static bool isFloating(unsigned t) { return t == mapcode::F || t == mapcode::H; }

namespace {

bool isFloatOnly(UnaryOpType op) {
  switch (op) {
  case UnaryOpType::ASIN: case UnaryOpType::CBRT: case UnaryOpType::CEIL: case UnaryOpType::COS:
  case UnaryOpType::EXPONENT: case UnaryOpType::EXPONENT_MINUS_ONE: case UnaryOpType::FLOOR:
  case UnaryOpType::INVERSE: case UnaryOpType::IS_FINITE: case UnaryOpType::IS_INF: case UnaryOpType::IS_NAN:
  case UnaryOpType::LOGARITHM: case UnaryOpType::LOGARITHM_ONE_PLUS: case UnaryOpType::SIN: case UnaryOpType::TAN:
  case UnaryOpType::TANH: case UnaryOpType::ROUND: case UnaryOpType::SQRT: case UnaryOpType::SIGMOID:
  case UnaryOpType::RSQRT: case UnaryOpType::TRUNC: case UnaryOpType::ERF: case UnaryOpType::EXPONENT2:
  case UnaryOpType::GELU_ERF: case UnaryOpType::NEARBY_INT:
    return true;
  default:
    return false;
  }
}
bool isIntOnly(UnaryOpType op) {
  return op == UnaryOpType::BITWISE_NOT || op == UnaryOpType::COUNT_LEADING_ZEROS || op == UnaryOpType::POPCOUNT;
}
bool isIntOnly(BinaryOpType op) {
  switch (op) {
  case BinaryOpType::BITWISE_AND: case BinaryOpType::BITWISE_OR: case BinaryOpType::BITWISE_XOR:
  case BinaryOpType::BITWISE_XNOR: case BinaryOpType::SHIFT_LEFT: case BinaryOpType::SHIFT_RIGHT:
  case BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND:
    return true;
  default:
    return false;
  }
}
bool isFloatOnly(BinaryOpType op) {
  return op == BinaryOpType::ATAN2 || op == BinaryOpType::INV_STD_DEV_TO_VARIANCE ||
         op == BinaryOpType::VARIANCE_TO_INV_STD_DEV;
}
bool isComparison(BinaryOpType op) {
  switch (op) {
  case BinaryOpType::EQUAL: case BinaryOpType::NOT_EQUAL: case BinaryOpType::LESS_THAN:
  case BinaryOpType::LESS_THAN_EQUAL: case BinaryOpType::GREATER_THAN: case BinaryOpType::GREATER_THAN_EQUAL:
    return true;
  default:
    return false;
  }
}
bool isLogical(BinaryOpType op) { return op == BinaryOpType::LOGICAL_AND || op == BinaryOpType::LOGICAL_OR; }

const unsigned kNone = ~0u;

class Compiler {
public:
  Compiler(const std::vector<poplar::Type> &types, const std::string &what) : types_(types), what_(what) {}

  // The value type of `e` when it does not depend on the context (kNone for a constant-only subtree).
  unsigned natural(const Expr &e) const {
    if (e.isA<Const>())
      return kNone;
    if (const auto *p = e.getAs<PlaceHolder>())
      return placeholderType(*p);
    if (const auto *c = e.getAs<Cast>())
      return valueTypeOf(c->getRHSType(), what_);
    if (const auto *u = e.getAs<UnaryOp>()) {
      UnaryOpType op = u->getOpType();
      if (op == UnaryOpType::IS_FINITE || op == UnaryOpType::IS_INF || op == UnaryOpType::IS_NAN ||
          op == UnaryOpType::LOGICAL_NOT)
        return mapcode::B;
      return natural(u->getArg());
    }
    if (const auto *b = e.getAs<BinaryOp>()) {
      if (isComparison(b->getOpType()) || isLogical(b->getOpType()))
        return mapcode::B;
      unsigned l = natural(b->getLHS());
      return l != kNone ? l : natural(b->getRHS());
    }
    if (const auto *t = e.getAs<TernaryOp>()) {
      unsigned a = natural(t->getArg0());
      if (a != kNone)
        return a;
      return t->getOpType() == TernaryOpType::SELECT ? natural(t->getArg1()) : natural(t->getArg1()) != kNone
                                                                                  ? natural(t->getArg1())
                                                                                  : natural(t->getArg2());
    }
    throw poplibs_error(what_ + ": unknown expression node");
  }

  // Emits `e` so that it leaves one value; `want` is the type a constant takes (kNone: its literal type).
  // Returns the type left.
  unsigned emit(const Expr &e, unsigned want, unsigned depth) {
    if (depth + 1 > mapcode::kMaxStack)
      throw poplibs_error(what_ + ": the expression needs more than " + std::to_string(mapcode::kMaxStack) +
                          " intermediate values; split it into several map calls");
    maxDepth_ = std::max(maxDepth_, depth + 1);
    if (const auto *c = e.getAs<Const>()) {
      unsigned t = want;
      if (t == kNone)
        t = c->getKind() == Const::FLOAT_KIND      ? mapcode::F
            : c->getKind() == Const::HALF_KIND     ? mapcode::H
            : c->getKind() == Const::INT_KIND      ? mapcode::I
            : c->getKind() == Const::UNSIGNED_KIND ? mapcode::U
                                                   : mapcode::B;
      std::uint32_t bits = 0;
      double v = c->getValue();
      if (isFloating(t)) { // a half constant is rounded by the tile
        float f = float(v);
        std::memcpy(&bits, &f, 4);
      } else if (t == mapcode::I || t == mapcode::B) {
        std::int32_t i = t == mapcode::B ? (v != 0.0) : std::int32_t(v);
        std::memcpy(&bits, &i, 4);
      } else {
        bits = std::uint32_t(v);
      }
      out(mapcode::encode(mapcode::CONST, t, 0, 0));
      out(bits);
      return t;
    }
    if (const auto *p = e.getAs<PlaceHolder>()) {
      unsigned t = placeholderType(*p);
      out(mapcode::encode(mapcode::LOAD, t, 0, operandIndex_[p->getIndex() - 1]));
      return t;
    }
    if (const auto *c = e.getAs<Cast>()) {
      unsigned to = valueTypeOf(c->getRHSType(), what_);
      unsigned from = emit(c->getLHS(), natural(c->getLHS()) == kNone ? to : kNone, depth);
      if (from != to)
        out(mapcode::encode(mapcode::CAST, from, 0, to));
      return to;
    }
    if (const auto *u = e.getAs<UnaryOp>()) {
      UnaryOpType op = u->getOpType();
      unsigned hint = op == UnaryOpType::LOGICAL_NOT ? mapcode::B : want;
      unsigned t = emit(u->getArg(), natural(u->getArg()) == kNone ? (hint == kNone ? mapcode::F : hint) : kNone,
                        depth);
      if (isFloatOnly(op) && !isFloating(t))
        throw typeError("unary operation " + std::to_string(int(op)), t, "FLOAT or HALF");
      if (isIntOnly(op) && (isFloating(t) || t == mapcode::B))
        throw typeError("bitwise unary operation " + std::to_string(int(op)), t, "INT or UNSIGNED_INT");
      if (op == UnaryOpType::LOGICAL_NOT && t != mapcode::B)
        throw typeError("logicalNot", t, "BOOL");
      if (op != UnaryOpType::LOGICAL_NOT && t == mapcode::B)
        throw typeError("unary operation " + std::to_string(int(op)), t, "FLOAT, HALF, INT or UNSIGNED_INT");
      out(mapcode::encode(mapcode::UNARY, t == mapcode::B ? mapcode::I : t, unsigned(op), 0));
      bool boolResult = op == UnaryOpType::IS_FINITE || op == UnaryOpType::IS_INF || op == UnaryOpType::IS_NAN ||
                        op == UnaryOpType::LOGICAL_NOT;
      return boolResult ? unsigned(mapcode::B) : t;
    }
    if (const auto *b = e.getAs<BinaryOp>()) {
      BinaryOpType op = b->getOpType();
      bool boolResult = isComparison(op) || isLogical(op);
      unsigned l = natural(b->getLHS()), r = natural(b->getRHS());
      if (l != kNone && r != kNone && l != r)
        throw poplibs_error(what_ + ": binary operation " + std::to_string(int(op)) + " has operands of types " +
                            kTypes[l].toString() + " and " + kTypes[r].toString() +
                            "; convert one with expr::Cast or popops::cast");
      unsigned t = l != kNone ? l : r;
      if (t == kNone)
        t = isLogical(op) ? unsigned(mapcode::B) : (boolResult || want == kNone) ? unsigned(mapcode::F) : want;
      if (isLogical(op) && t != mapcode::B)
        throw typeError("logical operation", t, "BOOL");
      if (isIntOnly(op) && (isFloating(t) || t == mapcode::B))
        throw typeError("bitwise or shift operation", t, "INT or UNSIGNED_INT");
      if (isFloatOnly(op) && !isFloating(t))
        throw typeError("binary operation " + std::to_string(int(op)), t, "FLOAT or HALF");
      if (t == mapcode::B && !boolResult)
        throw typeError("arithmetic operation " + std::to_string(int(op)), t, "FLOAT, HALF, INT or UNSIGNED_INT");
      emit(b->getLHS(), t, depth);
      emit(b->getRHS(), t, depth + 1);
      out(mapcode::encode(mapcode::BINARY, t == mapcode::B ? mapcode::I : t, unsigned(op), 0));
      return boolResult ? unsigned(mapcode::B) : t;
    }
    if (const auto *tr = e.getAs<TernaryOp>()) {
      bool select = tr->getOpType() == TernaryOpType::SELECT;
      unsigned t = natural(*tr);
      if (t == kNone)
        t = want == kNone ? mapcode::F : want;
      unsigned a = emit(tr->getArg0(), t, depth);
      unsigned b2 = emit(tr->getArg1(), t, depth + 1);
      unsigned c = emit(tr->getArg2(), select ? unsigned(mapcode::B) : t, depth + 2);
      if (a != t || b2 != t || (select ? c != mapcode::B : c != t))
        throw poplibs_error(what_ + (select ? ": select needs two operands of one type and a BOOL predicate"
                                            : ": clamp needs three operands of one type") +
                            "; convert with expr::Cast or popops::cast");
      if (!select && t == mapcode::B)
        throw typeError("clamp", t, "FLOAT, HALF, INT or UNSIGNED_INT");
      out(mapcode::encode(mapcode::TERNARY, t, unsigned(tr->getOpType()), 0));
      return t;
    }
    throw poplibs_error(what_ + ": unknown expression node");
  }

  CompiledExpr finish(const Expr &e) {
    CompiledExpr r;
    unsigned counts[mapcode::NUM_TYPES] = {};
    for (std::size_t i = 0; i < types_.size(); ++i) {
      unsigned t = valueTypeOf(types_[i], what_ + " (operand " + std::to_string(i + 1) + ")");
      r.operandList.push_back(t);
      r.operandIndex.push_back(counts[t]++);
    }
    operandIndex_ = r.operandIndex;
    code_.assign(counts, counts + mapcode::NUM_TYPES);
    code_.push_back(0);
    unsigned t = emit(e, kNone, 0);
    code_[mapcode::kResultWord] = t;
    out(mapcode::END);
    r.code = code_;
    r.resultType = kTypes[t];
    return r;
  }

private:
  unsigned placeholderType(const PlaceHolder &p) const {
    if (p.getIndex() == 0 || p.getIndex() > types_.size())
      throw poplibs_error(what_ + ": placeholder _" + std::to_string(p.getIndex()) + " has no tensor (" +
                          std::to_string(types_.size()) + " given); pass one tensor per placeholder");
    return valueTypeOf(types_[p.getIndex() - 1], what_ + " (operand " + std::to_string(p.getIndex()) + ")");
  }
  poplibs_error typeError(const std::string &op, unsigned t, const std::string &need) const {
    return poplibs_error(what_ + ": " + op + " does not apply to " + kTypes[t].toString() + " operands (it takes " +
                         need + "); convert them with expr::Cast or popops::cast");
  }
  void out(std::uint32_t w) { code_.push_back(w); }

  const std::vector<poplar::Type> &types_;
  std::string what_;
  std::vector<unsigned> operandIndex_;
  std::vector<std::uint32_t> code_;
  unsigned maxDepth_ = 0;
};

} // namespace

CompiledExpr compileExpr(const Expr &e, const std::vector<poplar::Type> &types, const std::string &what) {
  Compiler c(types, what);
  return c.finish(e);
}

} // namespace popops::detail
