// operator>> of ConvParams: reads back what operator<< prints (ConvParams.cpp), token by token, so that a plan's
// parameters logged or saved as text can be planned again. The fields of the transforms are read through the same
// walk that prints them (conv_fields.hpp).
#include "poplin/ConvParams.hpp"

#include <cctype>
#include <istream>
#include <string>
#include <type_traits>
#include <vector>

#include <poplar/Type.hpp>
#include <poplar/exceptions.hpp>

#include "conv_fields.hpp"
#include "poputil/exceptions.hpp"

namespace poplin {

namespace {

const char *const kWhat = "poplin::ConvParams operator>>: ";

// Reads the tokens of the printed form: words (letters, digits, '_'), and one-character punctuation.
class Reader {
public:
  explicit Reader(std::istream &is) : is_(is) {}

  [[noreturn]] void fail(const std::string &expected, const std::string &got) const {
    throw poputil::poplibs_error(kWhat + std::string("expected ") + expected + " but read " +
                                 (got.empty() ? std::string("the end of the text") : "'" + got + "'") +
                                 "; give the text operator<< prints for a ConvParams");
  }

  std::string token() {
    is_ >> std::ws;
    std::string t;
    int c = is_.peek();
    if (c == std::char_traits<char>::eof())
      return t;
    if (!std::isalnum(c) && c != '_') {
      t.push_back(char(is_.get()));
      return t;
    }
    while ((c = is_.peek()) != std::char_traits<char>::eof() && (std::isalnum(c) || c == '_'))
      t.push_back(char(is_.get()));
    return t;
  }

  void expect(const std::string &want) {
    const std::string t = token();
    if (t != want)
      fail("'" + want + "'", t);
  }

  std::size_t number(const std::string &what) {
    const std::string t = token();
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 19)
      fail(what + " as a non-negative whole number", t);
    return std::stoull(t);
  }

  // The type's name runs to the next comma (it may hold spaces, as "unsigned int").
  poplar::Type type(const std::string &what) {
    is_ >> std::ws;
    std::string name;
    while (is_.peek() != std::char_traits<char>::eof() && is_.peek() != ',')
      name.push_back(char(is_.get()));
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
      name.pop_back();
    try {
      return poplar::typeFromString(name);
    } catch (const poplar::poplar_error &) {
      fail(what + " as a type name (e.g. float, half)", name);
    }
  }

  // "name {a, b, ...}" into v; an element of a flip list is 0 or 1.
  template <typename T> void list(const char *name, std::vector<T> &v) {
    expect(name);
    expect("{");
    std::vector<T> values;
    std::string t = token();
    while (t != "}") {
      if (!values.empty()) {
        if (t != ",")
          fail(std::string("',' or '}' in ") + name, t);
        t = token();
      }
      if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 9)
        fail(std::string("an element of ") + name + " as a non-negative whole number", t);
      const unsigned long x = std::stoul(t);
      if (std::is_same<T, bool>::value && x > 1)
        fail(std::string("an element of ") + name + " as 0 or 1", t);
      values.push_back(T(x));
      t = token();
    }
    v = std::move(values);
  }

private:
  std::istream &is_;
};

} // namespace

std::istream &operator>>(std::istream &is, ConvParams &out) {
  Reader r(is);
  ConvParams p;
  r.expect("Params");
  r.expect(":");
  r.expect("inputType");
  p.inputType = r.type("inputType");
  r.expect(",");
  r.expect("outputType");
  p.outputType = r.type("outputType");
  const char *const counts[] = {"batchSize", "numConvGroups", "inputChannels", "outputChannels"};
  std::size_t *const fields[] = {&p.batchSize, &p.numConvGroups, &p.inputChannels, &p.outputChannels};
  for (int i = 0; i < 4; ++i) {
    r.expect(",");
    r.expect(counts[i]);
    *fields[i] = r.number(counts[i]);
  }
  r.list("inputFieldShape", p.inputFieldShape);
  r.list("kernelShape", p.kernelShape);
  auto read = [&](const char *name, auto &v) { r.list(name, v); };
  const char *const inputs[] = {"inputTransform", "kernelTransform"};
  ConvParams::InputTransform *const transforms[] = {&p.inputTransform, &p.kernelTransform};
  for (int i = 0; i < 2; ++i) {
    r.expect(inputs[i]);
    r.expect(":");
    detail::forEachInputTransformField(*transforms[i], read);
  }
  r.expect("outputTransform");
  r.expect(":");
  detail::forEachOutputTransformField(p.outputTransform, read);
  std::vector<std::size_t> outputField;
  r.list("outputFieldShape", outputField);
  p.validate();
  if (outputField != p.getOutputFieldShape())
    throw poputil::poplibs_error(std::string(kWhat) + "outputFieldShape does not match the output the other fields "
                                 "give; print the parameters again with operator<< rather than editing that line");
  out = std::move(p);
  return is;
}

} // namespace poplin
