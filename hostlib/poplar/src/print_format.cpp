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

} // namespace poplar::detail
