// Expression trees for popops::map: placeholders (_1 .. _20) stand for the tensors passed to map, Const for
// literals, Cast for conversions, and UnaryOp/BinaryOp/TernaryOp (or their named forms Add, Exp, Select...) for
// operations. C++ operators build trees: `popops::map(graph, (_1 + _2) * Const(0.5f), {a, b}, prog)`.
#ifndef POPOPS_EXPR_HPP
#define POPOPS_EXPR_HPP

#include <iosfwd>
#include <memory>
#include <string>
#include <type_traits>

#include <poplar/Type.hpp>

#include "popops/ExprOp.hpp"

namespace popops {
namespace expr {

/// Base of every expression node. Nodes are values: copying one copies its subtree.
class Expr {
public:
  virtual ~Expr() {}
  /// A deep copy of this node and its operands.
  virtual std::unique_ptr<Expr> clone() const = 0;
  /// True when `other` is the same tree: the same node kinds and operation types, constants of the same value
  /// and kind, casts to the same type, placeholders of the same index, operand by operand.
  virtual bool deepEquals(const Expr &other) const = 0;
  /// True when this node is a T.
  template <class T> bool isA() const { return dynamic_cast<const T *>(this) != 0; }
  /// This node as a T, or null.
  template <class T> const T *getAs() const { return dynamic_cast<const T *>(this); }
};

/// Implements clone() for node class T.
template <class T> class ExprType : public Expr {
public:
  std::unique_ptr<Expr> clone() const override {
    return std::unique_ptr<Expr>(new T(static_cast<const T &>(*this)));
  }
};

/// A literal. Its element type is the type of the expression it meets (`_1 + Const(2)` with an int tensor is an
/// int addition); alone, a float, int, unsigned or bool literal has that type.
class Const : public ExprType<Const> {
public:
  /// Kinds of the literal as written.
  enum Kind { FLOAT_KIND, INT_KIND, UNSIGNED_KIND, BOOL_KIND, HALF_KIND };
  Const(float v) : value_(v), kind_(FLOAT_KIND) {}
  Const(double v) : value_(v), kind_(FLOAT_KIND) {}
  Const(int v) : value_(v), kind_(INT_KIND) {}
  Const(long v) : value_(double(v)), kind_(INT_KIND) {}
  Const(long long v) : value_(double(v)), kind_(INT_KIND) {}
  Const(unsigned v) : value_(v), kind_(UNSIGNED_KIND) {}
  Const(unsigned long v) : value_(double(v)), kind_(UNSIGNED_KIND) {}
  Const(unsigned long long v) : value_(double(v)), kind_(UNSIGNED_KIND) {}
  Const(bool v) : value_(v ? 1.0 : 0.0), kind_(BOOL_KIND) {}
  /// The value as written.
  double getValue() const { return value_; }
  /// How it was written.
  Kind getKind() const { return kind_; }
  /// The value as a double (the same as getValue).
  double getDataAsDouble() const { return value_; }
  /// The type the literal has alone: FLOAT, INT, UNSIGNED_INT, BOOL or HALF.
  poplar::Type getType() const;
  /// The value as text that reads back to the same value (all significant digits; integers without a point).
  std::string printValue() const;
  bool deepEquals(const Expr &other) const override {
    const Const *o = other.getAs<Const>();
    return o && o->value_ == value_ && o->kind_ == kind_;
  }

protected:
  Const(double v, Kind kind) : value_(v), kind_(kind) {}

private:
  double value_;
  Kind kind_;
};

/// A HALF literal: alone it has type HALF (a Const of HALF_KIND; the tile rounds the value to half).
class ConstHalf : public Const {
public:
  ConstHalf(float v) : Const(double(v), HALF_KIND) {}
};

/// A HALF literal written 1.5_half (C++11 user-defined literal).
inline ConstHalf operator"" _half(long double x) { return ConstHalf(float(x)); }

/// Converts its operand to `type`.
class Cast : public ExprType<Cast> {
public:
  Cast(const Expr &a, const poplar::Type &type) : a_(a.clone()), type_(type) {}
  Cast(const Cast &o) : ExprType<Cast>(), a_(o.a_->clone()), type_(o.type_) {}
  /// The operand.
  const Expr &getLHS() const { return *a_; }
  /// The type converted to.
  const poplar::Type &getRHSType() const { return type_; }
  bool deepEquals(const Expr &other) const override {
    const Cast *o = other.getAs<Cast>();
    return o && o->type_ == type_ && a_->deepEquals(*o->a_);
  }

private:
  std::unique_ptr<Expr> a_;
  poplar::Type type_;
};

/// The tensor at position index-1 of map's tensor list.
class PlaceHolder : public ExprType<PlaceHolder> {
public:
  explicit PlaceHolder(unsigned index) : index_(index) {}
  /// The 1-based index.
  unsigned getIndex() const { return index_; }
  bool deepEquals(const Expr &other) const override {
    const PlaceHolder *o = other.getAs<PlaceHolder>();
    return o && o->index_ == index_;
  }

private:
  unsigned index_;
};

const PlaceHolder _1(1), _2(2), _3(3), _4(4), _5(5), _6(6), _7(7), _8(8), _9(9), _10(10), _11(11), _12(12),
    _13(13), _14(14), _15(15), _16(16), _17(17), _18(18), _19(19), _20(20);

/// An operation on one operand.
class UnaryOp : public ExprType<UnaryOp> {
public:
  UnaryOp(UnaryOpType type, const Expr &a) : type_(type), a_(a.clone()) {}
  UnaryOp(const UnaryOp &o) : ExprType<UnaryOp>(), type_(o.type_), a_(o.a_->clone()) {}
  UnaryOpType getOpType() const { return type_; }
  const Expr &getArg() const { return *a_; }
  bool deepEquals(const Expr &other) const override {
    const UnaryOp *o = other.getAs<UnaryOp>();
    return o && o->type_ == type_ && a_->deepEquals(*o->a_);
  }

private:
  UnaryOpType type_;
  std::unique_ptr<Expr> a_;
};

/// An operation on two operands.
class BinaryOp : public ExprType<BinaryOp> {
public:
  BinaryOp(BinaryOpType type, const Expr &a, const Expr &b) : type_(type), a_(a.clone()), b_(b.clone()) {}
  BinaryOp(const BinaryOp &o) : ExprType<BinaryOp>(), type_(o.type_), a_(o.a_->clone()), b_(o.b_->clone()) {}
  BinaryOpType getOpType() const { return type_; }
  const Expr &getLHS() const { return *a_; }
  const Expr &getRHS() const { return *b_; }
  bool deepEquals(const Expr &other) const override {
    const BinaryOp *o = other.getAs<BinaryOp>();
    return o && o->type_ == type_ && a_->deepEquals(*o->a_) && b_->deepEquals(*o->b_);
  }

private:
  BinaryOpType type_;
  std::unique_ptr<Expr> a_, b_;
};

/// An operation on three operands (Clamp, Select).
class TernaryOp : public ExprType<TernaryOp> {
public:
  TernaryOp(TernaryOpType type, const Expr &a, const Expr &b, const Expr &c)
      : type_(type), a_(a.clone()), b_(b.clone()), c_(c.clone()) {}
  TernaryOp(const TernaryOp &o)
      : ExprType<TernaryOp>(), type_(o.type_), a_(o.a_->clone()), b_(o.b_->clone()), c_(o.c_->clone()) {}
  TernaryOpType getOpType() const { return type_; }
  const Expr &getArg0() const { return *a_; }
  const Expr &getArg1() const { return *b_; }
  const Expr &getArg2() const { return *c_; }
  bool deepEquals(const Expr &other) const override {
    const TernaryOp *o = other.getAs<TernaryOp>();
    return o && o->type_ == type_ && a_->deepEquals(*o->a_) && b_->deepEquals(*o->b_) && c_->deepEquals(*o->c_);
  }

private:
  TernaryOpType type_;
  std::unique_ptr<Expr> a_, b_, c_;
};

#define POPOPS_EXPR_UNARY(Name, Op)                                                                                  \
  class Name : public UnaryOp {                                                                                      \
  public:                                                                                                            \
    explicit Name(const Expr &a) : UnaryOp(UnaryOpType::Op, a) {}                                                    \
  };
POPOPS_EXPR_UNARY(Abs, ABSOLUTE)
POPOPS_EXPR_UNARY(Asin, ASIN)
POPOPS_EXPR_UNARY(BitwiseNot, BITWISE_NOT)
POPOPS_EXPR_UNARY(Cbrt, CBRT)
POPOPS_EXPR_UNARY(Ceil, CEIL)
POPOPS_EXPR_UNARY(Cos, COS)
POPOPS_EXPR_UNARY(Exp, EXPONENT)
POPOPS_EXPR_UNARY(Expm1, EXPONENT_MINUS_ONE)
POPOPS_EXPR_UNARY(Floor, FLOOR)
POPOPS_EXPR_UNARY(Inv, INVERSE)
POPOPS_EXPR_UNARY(IsFinite, IS_FINITE)
POPOPS_EXPR_UNARY(IsInf, IS_INF)
POPOPS_EXPR_UNARY(IsNaN, IS_NAN)
POPOPS_EXPR_UNARY(Log, LOGARITHM)
POPOPS_EXPR_UNARY(Log1p, LOGARITHM_ONE_PLUS)
POPOPS_EXPR_UNARY(Not, LOGICAL_NOT)
POPOPS_EXPR_UNARY(Neg, NEGATE)
POPOPS_EXPR_UNARY(Signum, SIGNUM)
POPOPS_EXPR_UNARY(Sin, SIN)
POPOPS_EXPR_UNARY(Tan, TAN)
POPOPS_EXPR_UNARY(Tanh, TANH)
POPOPS_EXPR_UNARY(Round, ROUND)
POPOPS_EXPR_UNARY(Sqrt, SQRT)
POPOPS_EXPR_UNARY(Square, SQUARE)
POPOPS_EXPR_UNARY(Sigmoid, SIGMOID)
POPOPS_EXPR_UNARY(Rsqrt, RSQRT)
POPOPS_EXPR_UNARY(Relu, RELU)
POPOPS_EXPR_UNARY(Trunc, TRUNC)
POPOPS_EXPR_UNARY(Erf, ERF)
POPOPS_EXPR_UNARY(Exp2, EXPONENT2)
POPOPS_EXPR_UNARY(GeluErf, GELU_ERF)
POPOPS_EXPR_UNARY(NearbyInt, NEARBY_INT)
#undef POPOPS_EXPR_UNARY

#define POPOPS_EXPR_BINARY(Name, Op)                                                                                 \
  class Name : public BinaryOp {                                                                                     \
  public:                                                                                                            \
    Name(const Expr &a, const Expr &b) : BinaryOp(BinaryOpType::Op, a, b) {}                                         \
  };
POPOPS_EXPR_BINARY(Add, ADD)
POPOPS_EXPR_BINARY(Atan2, ATAN2)
POPOPS_EXPR_BINARY(BitwiseAnd, BITWISE_AND)
POPOPS_EXPR_BINARY(BitwiseOr, BITWISE_OR)
POPOPS_EXPR_BINARY(BitwiseXor, BITWISE_XOR)
POPOPS_EXPR_BINARY(BitwiseXnor, BITWISE_XNOR)
POPOPS_EXPR_BINARY(Divide, DIVIDE)
POPOPS_EXPR_BINARY(Equal, EQUAL)
POPOPS_EXPR_BINARY(Gte, GREATER_THAN_EQUAL)
POPOPS_EXPR_BINARY(Gt, GREATER_THAN)
POPOPS_EXPR_BINARY(Lte, LESS_THAN_EQUAL)
POPOPS_EXPR_BINARY(And, LOGICAL_AND)
POPOPS_EXPR_BINARY(Or, LOGICAL_OR)
POPOPS_EXPR_BINARY(Lt, LESS_THAN)
POPOPS_EXPR_BINARY(Max, MAXIMUM)
POPOPS_EXPR_BINARY(Min, MINIMUM)
POPOPS_EXPR_BINARY(Mul, MULTIPLY)
POPOPS_EXPR_BINARY(NotEqual, NOT_EQUAL)
POPOPS_EXPR_BINARY(Pow, POWER)
POPOPS_EXPR_BINARY(Rem, REMAINDER)
POPOPS_EXPR_BINARY(Shl, SHIFT_LEFT)
POPOPS_EXPR_BINARY(Shr, SHIFT_RIGHT)
POPOPS_EXPR_BINARY(ShrSE, SHIFT_RIGHT_SIGN_EXTEND)
POPOPS_EXPR_BINARY(Sub, SUBTRACT)
POPOPS_EXPR_BINARY(InvStdDevToVariance, INV_STD_DEV_TO_VARIANCE)
POPOPS_EXPR_BINARY(VarianceToInvStdDev, VARIANCE_TO_INV_STD_DEV)
#undef POPOPS_EXPR_BINARY

/// clamp(a, lo = b, hi = c).
class Clamp : public TernaryOp {
public:
  Clamp(const Expr &a, const Expr &b, const Expr &c) : TernaryOp(TernaryOpType::CLAMP, a, b, c) {}
};
/// c ? a : b (c is bool).
class Select : public TernaryOp {
public:
  Select(const Expr &a, const Expr &b, const Expr &c) : TernaryOp(TernaryOpType::SELECT, a, b, c) {}
};

/// Any expression held by value, for lists of expressions (map with several outputs): `{_1 + _2, _1 * _2}`.
class Any {
public:
  Any(const Expr &e) : e_(e.clone()) {}
  Any(const Any &o) : e_(o.e_->clone()) {}
  Any &operator=(const Any &o) {
    if (this != &o)
      e_ = o.e_->clone();
    return *this;
  }
  /// The expression held.
  const Expr &get() const { return *e_; }
  operator const Expr &() const { return *e_; }

private:
  std::unique_ptr<Expr> e_;
};

/// a.deepEquals(b).
inline bool deepEquals(const Expr &a, const Expr &b) { return a.deepEquals(b); }

/// Prints the expression: an operation as its type's enumerator name applied to its operands
/// ("MULTIPLY(ADD(_1, _2), 0.5)"), a placeholder as _N, a literal by Const::printValue, a cast as Cast(a, type).
std::ostream &operator<<(std::ostream &os, const Expr &expr);

// C++ operators on expressions; an arithmetic operand becomes a Const.
#define POPOPS_EXPR_OPERATOR(op, Name)                                                                               \
  inline Name operator op(const Expr &a, const Expr &b) { return Name(a, b); }                                       \
  template <typename T>                                                                                              \
  typename std::enable_if<std::is_arithmetic<T>::value, Name>::type operator op(const Expr &a, const T &b) {         \
    return Name(a, Const(b));                                                                                        \
  }                                                                                                                  \
  template <typename T>                                                                                              \
  typename std::enable_if<std::is_arithmetic<T>::value, Name>::type operator op(const T &a, const Expr &b) {         \
    return Name(Const(a), b);                                                                                        \
  }
POPOPS_EXPR_OPERATOR(+, Add)
POPOPS_EXPR_OPERATOR(-, Sub)
POPOPS_EXPR_OPERATOR(*, Mul)
POPOPS_EXPR_OPERATOR(/, Divide)
POPOPS_EXPR_OPERATOR(%, Rem)
POPOPS_EXPR_OPERATOR(&, BitwiseAnd)
POPOPS_EXPR_OPERATOR(|, BitwiseOr)
POPOPS_EXPR_OPERATOR(^, BitwiseXor)
POPOPS_EXPR_OPERATOR(==, Equal)
POPOPS_EXPR_OPERATOR(!=, NotEqual)
POPOPS_EXPR_OPERATOR(<, Lt)
POPOPS_EXPR_OPERATOR(<=, Lte)
POPOPS_EXPR_OPERATOR(>, Gt)
POPOPS_EXPR_OPERATOR(>=, Gte)
POPOPS_EXPR_OPERATOR(&&, And)
POPOPS_EXPR_OPERATOR(||, Or)
POPOPS_EXPR_OPERATOR(<<, Shl)
POPOPS_EXPR_OPERATOR(>>, Shr)
#undef POPOPS_EXPR_OPERATOR
inline Neg operator-(const Expr &a) { return Neg(a); }
inline Not operator!(const Expr &a) { return Not(a); }
inline BitwiseNot operator~(const Expr &a) { return BitwiseNot(a); }

} // namespace expr
} // namespace popops

#endif // POPOPS_EXPR_HPP
