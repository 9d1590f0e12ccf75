// popops::outputGeneratedCodelet: the C++ codelet of one map expression. map itself runs expressions on the
// MapInterpreter vertex; this writes the same computation as a stand-alone vertex class a program can compile
// with Graph::addCodelets. The source is generated from the interpreter's code for the expression (compileExpr),
// so every node has the type map gives it, and each operation is spelled as the interpreter computes it (half
// values held as float and rounded to half after each operation, integer division by zero giving 0).
#include <cmath>
#include <cstring>
#include <functional>
#include <ostream>
#include <sstream>

#include "expr_compile.hpp"
#include "../codelets/map_code.h"
#include "map_internal.hpp"
#include "popops/ElementWise.hpp"
#include "popops/ExprOpUtils.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poputil::poplibs_error;

namespace {

// One value on the interpreter's stack: its C++ text and its mapcode value type.
struct Value {
  std::string text;
  unsigned type;
};

// The C++ type a value of mapcode type `t` is computed in (half in float).
const char *computeType(unsigned t) {
  using namespace mapcode;
  return t == F || t == H ? "float" : t == I ? "int" : t == U ? "unsigned" : "bool";
}

// The C++ element type of a field of poplar type `t`.
const char *fieldType(const poplar::Type &t) {
  return t == poplar::FLOAT ? "float"
         : t == poplar::HALF ? "half"
         : t == poplar::INT ? "int"
         : t == poplar::UNSIGNED_INT ? "unsigned"
                                     : "bool";
}

// `text` of type `t` made a result of that type: a half rounds to half once per operation, as the interpreter's.
std::string result(const std::string &text, unsigned t) {
  return t == mapcode::H ? "float(half(" + text + "))" : text;
}

std::string literal(std::uint32_t bits, unsigned t) {
  using namespace mapcode;
  std::ostringstream s;
  s.precision(9);
  if (t == F || t == H) {
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f))
      s << "__builtin_nanf(\"\")";
    else if (std::isinf(f))
      s << (f < 0 ? "-" : "") << "__builtin_inff()";
    else
      s << std::showpoint << f << "f"; // 9 significant digits give the float back exactly
    return t == H ? result(s.str(), H) : s.str();
  }
  if (t == I)
    s << "int(" << std::int32_t(bits) << ")";
  else if (t == U)
    s << bits << "u";
  else
    s << (bits ? "true" : "false");
  return s.str();
}

std::string unaryText(expr::UnaryOpType op, const Value &a) {
  using expr::UnaryOpType;
  const std::string x = "(" + a.text + ")";
  const bool flt = a.type == mapcode::F || a.type == mapcode::H;
  switch (op) {
  case UnaryOpType::ABSOLUTE: return flt ? "fabsf" + x : "(" + x + " < 0 ? -" + x + " : " + x + ")";
  case UnaryOpType::ASIN: return "asinf" + x;
  case UnaryOpType::BITWISE_NOT: return "~" + x;
  case UnaryOpType::CBRT: return "cbrtf" + x;
  case UnaryOpType::CEIL: return "ceilf" + x;
  case UnaryOpType::COS: return "cosf" + x;
  case UnaryOpType::COUNT_LEADING_ZEROS:
    return "(" + x + " == 0 ? 32 : __builtin_clz(unsigned" + x + "))";
  case UnaryOpType::EXPONENT: return "expf" + x;
  case UnaryOpType::EXPONENT_MINUS_ONE: return "expm1f" + x;
  case UnaryOpType::FLOOR: return "floorf" + x;
  case UnaryOpType::INVERSE: return "(1.0f / " + x + ")";
  case UnaryOpType::IS_FINITE: return "bool(isfinite" + x + ")";
  case UnaryOpType::IS_INF: return "bool(isinf" + x + ")";
  case UnaryOpType::IS_NAN: return "bool(isnan" + x + ")";
  case UnaryOpType::LOGARITHM: return "logf" + x;
  case UnaryOpType::LOGARITHM_ONE_PLUS: return "log1pf" + x;
  case UnaryOpType::LOGICAL_NOT: return "!" + x;
  case UnaryOpType::NEGATE: return "-" + x;
  case UnaryOpType::POPCOUNT: return "__builtin_popcount(unsigned" + x + ")";
  case UnaryOpType::SIGNUM:
    return flt ? "(" + x + " > 0.0f ? 1.0f : " + x + " < 0.0f ? -1.0f : 0.0f)"
               : std::string(computeType(a.type)) + "(" + x + " > 0 ? 1 : " + x + " < 0 ? -1 : 0)";
  case UnaryOpType::SIN: return "sinf" + x;
  case UnaryOpType::TAN: return "tanf" + x;
  case UnaryOpType::TANH: return "tanhf" + x;
  case UnaryOpType::ROUND: return "roundf" + x;
  case UnaryOpType::SQRT: return "sqrtf" + x;
  case UnaryOpType::SQUARE: return "(" + x + " * " + x + ")";
  case UnaryOpType::SIGMOID: return "(1.0f / (1.0f + expf(-" + x + ")))";
  case UnaryOpType::RSQRT: return "(1.0f / sqrtf" + x + ")";
  case UnaryOpType::RELU: return "(" + x + " > 0 ? " + x + " : " + computeType(a.type) + "(0))";
  case UnaryOpType::TRUNC: return "truncf" + x;
  case UnaryOpType::ERF: return "erff" + x;
  case UnaryOpType::EXPONENT2: return "exp2f" + x;
  case UnaryOpType::GELU_ERF: return "(0.5f * " + x + " * (1.0f + erff(" + x + " * 0.70710678f)))";
  case UnaryOpType::NEARBY_INT: return "nearbyintf" + x;
  }
  return x;
}

// The C++ operator of a binary operation written infix, or null.
const char *infixOf(expr::BinaryOpType op) {
  using expr::BinaryOpType;
  static const struct {
    BinaryOpType op;
    const char *text;
  } kInfix[] = {{BinaryOpType::ADD, "+"},         {BinaryOpType::SUBTRACT, "-"},
                {BinaryOpType::MULTIPLY, "*"},    {BinaryOpType::BITWISE_AND, "&"},
                {BinaryOpType::BITWISE_OR, "|"},  {BinaryOpType::BITWISE_XOR, "^"},
                {BinaryOpType::EQUAL, "=="},      {BinaryOpType::NOT_EQUAL, "!="},
                {BinaryOpType::LESS_THAN, "<"},   {BinaryOpType::LESS_THAN_EQUAL, "<="},
                {BinaryOpType::GREATER_THAN, ">"}, {BinaryOpType::GREATER_THAN_EQUAL, ">="},
                {BinaryOpType::LOGICAL_AND, "&&"}, {BinaryOpType::LOGICAL_OR, "||"}};
  for (const auto &entry : kInfix)
    if (entry.op == op)
      return entry.text;
  return nullptr;
}

std::string binaryText(expr::BinaryOpType op, const Value &a, const Value &b) {
  using expr::BinaryOpType;
  const std::string x = "(" + a.text + ")", y = "(" + b.text + ")", T = computeType(a.type);
  const bool flt = a.type == mapcode::F || a.type == mapcode::H;
  if (const char *infix = infixOf(op))
    return "(" + x + " " + infix + " " + y + ")";
  // Integer division and remainder by zero give 0, as the interpreter defines them.
  const auto integerOp = [&](const char *sym) {
    return "(" + y + " == 0 ? " + T + "(0) : " + T + "(" + x + " " + sym + " " + y + "))";
  };
  const std::string shift = "(unsigned" + y + " & 31u)";
  switch (op) {
  case BinaryOpType::ATAN2: return "atan2f(" + x + ", " + y + ")";
  case BinaryOpType::BITWISE_XNOR: return "~(" + x + " ^ " + y + ")";
  case BinaryOpType::DIVIDE: return flt ? "(" + x + " / " + y + ")" : integerOp("/");
  case BinaryOpType::MAXIMUM: return "(" + x + " > " + y + " ? " + x + " : " + y + ")";
  case BinaryOpType::MINIMUM: return "(" + x + " < " + y + " ? " + x + " : " + y + ")";
  case BinaryOpType::POWER: return flt ? "powf(" + x + ", " + y + ")" : "ipow(" + x + ", " + y + ")";
  case BinaryOpType::REMAINDER: return flt ? "fmodf(" + x + ", " + y + ")" : integerOp("%");
  case BinaryOpType::SHIFT_LEFT: return T + "(unsigned" + x + " << " + shift + ")";
  case BinaryOpType::SHIFT_RIGHT: return T + "(unsigned" + x + " >> " + shift + ")";
  case BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND: return T + "(int" + x + " >> " + shift + ")";
  case BinaryOpType::INV_STD_DEV_TO_VARIANCE: return "(1.0f / (" + x + " * " + x + ") - " + y + ")";
  case BinaryOpType::VARIANCE_TO_INV_STD_DEV: return "(1.0f / sqrtf(" + x + " + " + y + "))";
  default: return x;
  }
}

bool isBoolResult(expr::UnaryOpType op) {
  return op == expr::UnaryOpType::IS_FINITE || op == expr::UnaryOpType::IS_INF || op == expr::UnaryOpType::IS_NAN ||
         op == expr::UnaryOpType::LOGICAL_NOT;
}

bool isBoolResult(expr::BinaryOpType op) {
  using expr::BinaryOpType;
  return op == BinaryOpType::EQUAL || op == BinaryOpType::NOT_EQUAL || op == BinaryOpType::LESS_THAN ||
         op == BinaryOpType::LESS_THAN_EQUAL || op == BinaryOpType::GREATER_THAN ||
         op == BinaryOpType::GREATER_THAN_EQUAL || op == BinaryOpType::LOGICAL_AND ||
         op == BinaryOpType::LOGICAL_OR;
}

// The statements that compute one element's result, by running the interpreter's code on texts instead of
// values: each value the code pushes becomes a local (so an operand used twice, as by max, is computed once).
// `operandText(type, index)` names operand `index` of value list `type`. Returns the result's local.
std::string elementText(const detail::CompiledExpr &c,
                        const std::function<std::string(unsigned, unsigned)> &operandText,
                        std::vector<std::string> &lines) {
  using namespace mapcode;
  std::vector<Value> stack;
  const auto pop = [&stack]() {
    Value v = stack.back();
    stack.pop_back();
    return v;
  };
  const auto push = [&stack, &lines](const Value &v) {
    const std::string local = "v" + std::to_string(lines.size());
    lines.push_back(std::string("const ") + computeType(v.type) + " " + local + " = " + v.text + ";");
    stack.push_back({local, v.type});
  };
  for (std::size_t pc = kHeaderWords; pc < c.code.size();) {
    const std::uint32_t w = c.code[pc++];
    const unsigned kind = w & kKindMask, type = (w >> 4) & 15u, op = (w >> 8) & 255u, arg = w >> 16;
    if (kind == END)
      break;
    if (kind == LOAD) {
      push({type == H ? "float(" + operandText(type, arg) + ")" : operandText(type, arg), type});
    } else if (kind == CONST) {
      push({literal(c.code[pc++], type), type});
    } else if (kind == CAST) {
      Value a = pop();
      push({result(std::string(computeType(arg)) + "(" + a.text + ")", arg), arg});
    } else if (kind == UNARY) {
      Value a = pop();
      const auto u = expr::UnaryOpType(op);
      const unsigned t = isBoolResult(u) ? B : a.type;
      push({isBoolResult(u) ? unaryText(u, a) : result(unaryText(u, a), t), t});
    } else if (kind == BINARY) {
      Value b = pop(), a = pop();
      const auto bo = expr::BinaryOpType(op);
      const unsigned t = isBoolResult(bo) ? B : a.type;
      push({isBoolResult(bo) ? binaryText(bo, a, b) : result(binaryText(bo, a, b), t), t});
    } else if (kind == TERNARY) {
      Value z = pop(), y = pop(), x = pop();
      const std::string text =
          expr::TernaryOpType(op) == expr::TernaryOpType::SELECT
              ? "((" + z.text + ") ? (" + x.text + ") : (" + y.text + "))"
              : "((" + x.text + ") < (" + y.text + ") ? (" + y.text + ") : (" + x.text + ") > (" + z.text + ") ? (" +
                    z.text + ") : (" + x.text + "))";
      push({text, x.type});
    } else {
      throw poplibs_error("popops::outputGeneratedCodelet: unknown instruction kind " + std::to_string(kind));
    }
  }
  if (stack.size() != 1)
    throw poplibs_error("popops::outputGeneratedCodelet: the expression's code leaves " +
                        std::to_string(stack.size()) + " values");
  return stack.back().text;
}

} // namespace

void outputGeneratedCodelet(const poplar::Target &, const expr::Expr &expr, const std::vector<poplar::Tensor> &ts,
                            const poplar::OptionFlags &, std::ostream &os) {
  const std::string name = "popops::outputGeneratedCodelet";
  std::vector<poplar::Type> types;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    if (!ts[i].valid())
      throw poplibs_error(name + ": operand " + std::to_string(i + 1) + " is an invalid tensor");
    types.push_back(ts[i].elementType());
  }
  const detail::CompiledExpr c = detail::compileExpr(expr, types, name);
  // Operand k of value list t is the tensor whose list and index match (the interpreter's numbering).
  const auto operandText = [&c](unsigned t, unsigned index) {
    for (std::size_t i = 0; i < c.operandList.size(); ++i)
      if (c.operandList[i] == t && c.operandIndex[i] == index)
        return "in" + std::to_string(i + 1) + "[in" + std::to_string(i + 1) + ".size() == 1 ? 0 : i]";
    throw poplibs_error("popops::outputGeneratedCodelet: the code loads an operand it was not given");
  };
  std::vector<std::string> lines;
  const std::string element = elementText(c, operandText, lines);
  std::ostringstream printed;
  printed << expr;
  // The class name is a hash of the expression and its operand types, so several generated codelets can share a
  // graph.
  std::string key = printed.str();
  for (const poplar::Type &t : types)
    key += "," + t.toString();
  const std::size_t hash = std::hash<std::string>()(key);
  os << "// Generated by popops::outputGeneratedCodelet: out[i] = " << printed.str() << "\n"
     << "// over operands";
  for (std::size_t i = 0; i < ts.size(); ++i)
    os << " in" << (i + 1) << " (" << types[i] << ")";
  os << "; an operand of one element is used for every i. Add it with Graph::addCodelets.\n"
     << "#include <math.h>\n#include <poplar/Vertex.hpp>\n\n"
     << "using namespace poplar;\n\n"
     << "namespace {\n"
     << "// Integer power by repeated multiplication (a negative exponent gives 1), as popops' map computes it.\n"
     << "template <typename T> inline T ipow(T a, T b) {\n  T p = 1;\n  for (T k = 0; k < b; ++k)\n    p *= a;\n"
     << "  return p;\n}\n} // namespace\n\n"
     << "class GeneratedMap_" << std::hex << hash << std::dec << " : public Vertex {\npublic:\n";
  for (std::size_t i = 0; i < ts.size(); ++i)
    os << "  Input<Vector<" << fieldType(types[i]) << ">> in" << (i + 1) << ";\n";
  os << "  Output<Vector<" << fieldType(c.resultType) << ">> out;\n"
     << "  bool compute() {\n    for (unsigned i = 0; i < out.size(); ++i) {\n";
  for (const std::string &line : lines)
    os << "      " << line << "\n";
  os << "      out[i] = " << element << ";\n    }\n    return true;\n  }\n};\n";
}

} // namespace popops
