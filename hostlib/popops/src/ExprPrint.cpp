// Printing of expressions and of their operation types (popops/ExprOpUtils.hpp, operator<< of popops/Expr.hpp).
// An operation prints as its type's enumerator name applied to its operands: "MULTIPLY(ADD(_1, _2), 0.5)".
#include <ostream>

#include "popops/Expr.hpp"
#include "popops/ExprOpUtils.hpp"

namespace popops {
namespace expr {

namespace {

// In the order of the enumerations in popops/ExprOp.hpp (their values are also the interpreter's opcodes).
const char *const kUnary[] = {"ABSOLUTE", "ASIN", "BITWISE_NOT", "CBRT", "CEIL", "COS", "COUNT_LEADING_ZEROS",
                              "EXPONENT", "EXPONENT_MINUS_ONE", "FLOOR", "INVERSE", "IS_FINITE", "IS_INF", "IS_NAN",
                              "LOGARITHM", "LOGARITHM_ONE_PLUS", "LOGICAL_NOT", "NEGATE", "POPCOUNT", "SIGNUM", "SIN",
                              "TAN", "TANH", "ROUND", "SQRT", "SQUARE", "SIGMOID", "RSQRT", "RELU", "TRUNC", "ERF",
                              "EXPONENT2", "GELU_ERF", "NEARBY_INT"};
const char *const kBinary[] = {"ADD", "ATAN2", "BITWISE_AND", "BITWISE_OR", "BITWISE_XOR", "BITWISE_XNOR", "DIVIDE",
                               "EQUAL", "GREATER_THAN_EQUAL", "GREATER_THAN", "LESS_THAN_EQUAL", "LOGICAL_AND",
                               "LOGICAL_OR", "LESS_THAN", "MAXIMUM", "MINIMUM", "MULTIPLY", "NOT_EQUAL", "POWER",
                               "REMAINDER", "SHIFT_LEFT", "SHIFT_RIGHT", "SHIFT_RIGHT_SIGN_EXTEND", "SUBTRACT",
                               "INV_STD_DEV_TO_VARIANCE", "VARIANCE_TO_INV_STD_DEV"};
const char *const kTernary[] = {"CLAMP", "SELECT"};

// Keeps the tables in step with the enumerations: a new last enumerator without a name fails to compile.
static_assert(sizeof(kUnary) / sizeof(kUnary[0]) == unsigned(UnaryOpType::NEARBY_INT) + 1, "a unary name is missing");
static_assert(sizeof(kBinary) / sizeof(kBinary[0]) == unsigned(BinaryOpType::VARIANCE_TO_INV_STD_DEV) + 1,
              "a binary name is missing");
static_assert(sizeof(kTernary) / sizeof(kTernary[0]) == unsigned(TernaryOpType::SELECT) + 1,
              "a ternary name is missing");

template <std::size_t N> std::ostream &printName(std::ostream &os, const char *const (&names)[N], unsigned i) {
  return i < N ? os << names[i] : os << "op" << i;
}

} // namespace

namespace ostream_ext {

std::ostream &operator<<(std::ostream &os, const UnaryOpType &t) { return printName(os, kUnary, unsigned(t)); }
std::ostream &operator<<(std::ostream &os, const BinaryOpType &t) { return printName(os, kBinary, unsigned(t)); }
std::ostream &operator<<(std::ostream &os, const TernaryOpType &t) { return printName(os, kTernary, unsigned(t)); }

} // namespace ostream_ext

std::ostream &operator<<(std::ostream &os, const Expr &expr) {
  using namespace ostream_ext;
  if (const Const *c = expr.getAs<Const>())
    return os << c->printValue();
  if (const PlaceHolder *p = expr.getAs<PlaceHolder>())
    return os << "_" << p->getIndex();
  if (const Cast *c = expr.getAs<Cast>())
    return os << "Cast(" << c->getLHS() << ", " << c->getRHSType() << ")";
  if (const UnaryOp *u = expr.getAs<UnaryOp>())
    return os << u->getOpType() << "(" << u->getArg() << ")";
  if (const BinaryOp *b = expr.getAs<BinaryOp>())
    return os << b->getOpType() << "(" << b->getLHS() << ", " << b->getRHS() << ")";
  if (const TernaryOp *t = expr.getAs<TernaryOp>())
    return os << t->getOpType() << "(" << t->getArg0() << ", " << t->getArg1() << ", " << t->getArg2() << ")";
  return os << "<expression>";
}

} // namespace expr
} // namespace popops
