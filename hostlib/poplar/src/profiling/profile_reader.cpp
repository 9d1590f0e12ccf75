// Profiles read through nlohmann-json's SAX interface (profile_reader.hpp). SAX rather than nlohmann::json
// values: the handler counts the nesting before anything is built (nlohmann's CBOR reader recurses once per
// level, so a crafted file would exhaust the stack), and the numbers keep their kinds (2^64 is refused, not
// rounded; a double stays a double).
#include "profile_reader.hpp"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_read.hpp"
#include "profile_limits.hpp"

namespace poplar::detail {

namespace {

using Json = nlohmann::json;

class Builder final : public nlohmann::json_sax<Json> {
public:
  explicit Builder(ProfileFormat format) : format_(format) {}

  ProfileValue take() { return std::move(root_); }

  bool null() override {
    if (format_ == ProfileFormat::CBOR)
      fail("a simple value other than false or true (null)");
    return add(ProfileValue(std::nan(""))); // the JSON writer writes a NaN or an infinity as null
  }
  bool boolean(bool b) override { return add(ProfileValue(b)); }
  bool number_integer(std::int64_t i) override {
    // nlohmann gives negative integers here. A CBOR negative integer below -2^63 reaches us wrapped to a value
    // of 0 or more (its -1 - n in 64 bits); JSON's "-0" is the one integer 0 that is real.
    if (format_ == ProfileFormat::CBOR && i >= 0)
      fail("a negative integer below -2^63");
    return add(ProfileValue((long long)i));
  }
  bool number_unsigned(std::uint64_t u) override { return add(ProfileValue((unsigned long long)u)); }
  bool number_float(double d, const std::string &text) override {
    // nlohmann reads an integer that does not fit 64 bits as a double; a count shown rounded would lie.
    if (format_ == ProfileFormat::JSON && text.find_first_of(".eE") == std::string::npos)
      fail("the number " + text + " is out of range (a 64-bit integer)");
    return add(ProfileValue(d));
  }
  bool string(std::string &s) override { return add(ProfileValue(std::move(s))); }
  bool binary(Json::binary_t &) override { fail("a byte string (profiles hold text strings only)"); }
  bool start_object(std::size_t elements) override { return open(ProfileValue(ProfileValue::Map{}), elements); }
  bool key(std::string &k) override {
    open_.back().key = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t elements) override { return open(ProfileValue(ProfileValue::Vector{}), elements); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string &lastToken, const nlohmann::detail::exception &e) override {
    fail(jsonParseProblem(position, lastToken, e));
  }

  /// Throws profiling_error naming the reader (problems found here have no offset: SAX events carry none).
  [[noreturn]] void fail(const std::string &what) const {
    throw profiling_error(std::string(format_ == ProfileFormat::JSON ? "parseProfileJSON: " : "parseProfileCBOR: ") +
                          what);
  }

private:
  struct Open {
    ProfileValue value;
    std::string key; // an object's key awaiting its value
  };
  ProfileFormat format_;
  std::vector<Open> open_; // the arrays and objects being read, outermost first
  ProfileValue root_;

  bool add(ProfileValue v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return true;
    }
    Open &top = open_.back();
    if (top.value.isVector())
      top.value.asVector().push_back(std::move(v));
    else
      top.value.asMap()[top.key] = std::move(v); // a repeated key: the last value wins
    return true;
  }
  bool open(ProfileValue empty, std::size_t elements) {
    // nlohmann passes -1 for "unknown": JSON always, CBOR for an indefinite length, which our writer never uses.
    if (format_ == ProfileFormat::CBOR && elements == std::size_t(-1))
      fail("an indefinite length (profiles use definite lengths)");
    if (open_.size() >= kProfileMaxDepth)
      fail(std::string(format_ == ProfileFormat::JSON ? "arrays and objects" : "arrays and maps") +
           " nested deeper than " + std::to_string(kProfileMaxDepth) +
           " levels (a profile nests a few; the file is corrupt)");
    open_.push_back({std::move(empty), {}});
    return true;
  }
  bool close() {
    ProfileValue v = std::move(open_.back().value);
    open_.pop_back();
    return add(std::move(v));
  }
};

} // namespace

ProfileValue readProfile(const std::string &document, ProfileFormat format) {
  Builder builder(format);
  const bool ok = Json::sax_parse(document, &builder,
                                  format == ProfileFormat::JSON ? nlohmann::detail::input_format_t::json
                                                                : nlohmann::detail::input_format_t::cbor);
  if (!ok) // every refusal throws above; a false here would be a handler returning false without a reason
    builder.fail("the document was refused");
  return builder.take();
}

} // namespace poplar::detail
