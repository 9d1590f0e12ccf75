// The SDK's tensor print format, shared by PrintTensor (values the tiles printed) and ErrorProgram (raw bytes).
#include "print_format.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <sstream>

#include "half.hpp"

namespace poplar::detail {

static std::string fixed7(double d) {
  if (std::isnan(d))
    return "nan";
  if (std::isinf(d))
    return d < 0 ? "-inf" : "inf";
  std::ostringstream os;
  os << std::fixed << std::setprecision(7) << d;
  return os.str();
}

std::string formatElementText(const std::string &text, const Type &type) {
  if (!type.isFloatingPoint())
    return text;
  char *end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0')
    return text;
  return fixed7(d);
}

std::string formatElementBytes(const std::uint8_t *data, std::size_t i, const Type &type) {
  const std::uint8_t *p = data + i * type.getSize();
  if (type == FLOAT) {
    float f;
    std::memcpy(&f, p, 4);
    return fixed7(f);
  }
  if (type == HALF) {
    std::uint16_t h;
    std::memcpy(&h, p, 2);
    return fixed7(halfToFloat(h));
  }
  if (type == INT) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return std::to_string(v);
  }
  if (type == UNSIGNED_INT) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return std::to_string(v);
  }
  if (type == SHORT) {
    std::int16_t v;
    std::memcpy(&v, p, 2);
    return std::to_string(v);
  }
  if (type == UNSIGNED_SHORT) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return std::to_string(v);
  }
  if (type == CHAR)
    return std::to_string(int(static_cast<std::int8_t>(*p)));
  if (type == BOOL)
    return *p ? "1" : "0";
  return std::to_string(unsigned(*p));
}

std::string formatTensor(const std::vector<std::string> &values, const std::vector<std::size_t> &shape) {
  std::size_t pos = 0;
  std::ostringstream os;
  std::function<void(std::size_t, const std::string &)> rec = [&](std::size_t d, const std::string &indent) {
    if (d + 1 >= shape.size()) {
      std::size_t n = shape.empty() ? 1 : shape[d];
      os << "[";
      for (std::size_t i = 0; i < n; ++i)
        os << (i ? " " : "") << (pos < values.size() ? values[pos++] : "?");
      os << "]";
      return;
    }
    os << "[\n";
    for (std::size_t i = 0; i < shape[d]; ++i) {
      os << indent << " ";
      rec(d + 1, indent + " ");
      os << "\n";
    }
    os << indent << "]";
  };
  rec(0, "");
  return os.str();
}

/// One floating-point element as `fmt` asks; text that is not a number (nan, inf) stays as the tile wrote it.
static std::string formatFloat(const std::string &text, const PrintTensorFmt &fmt) {
  if (fmt.floatFormat == PrintTensorFmt::FloatFormat::None || fmt.digits == 0)
    return text;
  char *end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(d))
    return text;
  std::ostringstream os;
  if (fmt.floatFormat == PrintTensorFmt::FloatFormat::Fixed)
    os << std::fixed;
  else if (fmt.floatFormat == PrintTensorFmt::FloatFormat::Scientific)
    os << std::scientific;
  os << std::setprecision(int(fmt.digits)) << d;
  return os.str();
}

std::string formatTensor(const std::vector<std::string> &values, const std::vector<std::size_t> &shape,
                         const Type &type, const PrintTensorFmt &fmt) {
  std::size_t total = 1;
  for (std::size_t d : shape)
    total *= d;
  const bool summarise = total > fmt.summariseThreshold;
  // Row-major strides: the element at index list (i0, i1, ...) is values[sum(ik * stride[k])].
  std::vector<std::size_t> stride(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;)
    stride[k - 1] = stride[k] * shape[k];
  // The entries of a dimension of size n that are shown; ~0 marks the "..." between the two edges.
  auto shown = [&](std::size_t n) {
    std::vector<std::size_t> idx;
    if (!summarise || n <= 2 * std::size_t(fmt.edgeItems)) {
      for (std::size_t i = 0; i < n; ++i)
        idx.push_back(i);
      return idx;
    }
    for (std::size_t i = 0; i < fmt.edgeItems; ++i)
      idx.push_back(i);
    idx.push_back(~std::size_t(0));
    for (std::size_t i = n - fmt.edgeItems; i < n; ++i)
      idx.push_back(i);
    return idx;
  };
  auto element = [&](std::size_t at) {
    std::string v = at < values.size() ? values[at] : "?";
    return type.isFloatingPoint() ? formatFloat(v, fmt) : v;
  };
  std::ostringstream os;
  std::function<void(std::size_t, std::size_t, const std::string &)> rec = [&](std::size_t d, std::size_t base,
                                                                             const std::string &indent) {
    if (d + 1 >= shape.size()) {
      os << fmt.openBracket;
      bool first = true;
      for (std::size_t i : shown(shape.empty() ? 1 : shape[d])) {
        if (!first)
          os << fmt.separator;
        first = false;
        os << (i == ~std::size_t(0) ? std::string("...") : element(base + (shape.empty() ? 0 : i)));
      }
      os << fmt.closeBracket;
      return;
    }
    os << fmt.openBracket << "\n";
    for (std::size_t i : shown(shape[d])) {
      os << indent << " ";
      if (i == ~std::size_t(0))
        os << "...";
      else
        rec(d + 1, base + i * stride[d], indent + " ");
      os << "\n";
    }
    os << indent << fmt.closeBracket;
  };
  rec(0, 0, "");
  return os.str();
}

} // namespace poplar::detail
