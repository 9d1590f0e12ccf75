// nlohmann-json's parse errors in libpoplar's words (json_read.hpp).
#include "json_read.hpp"

namespace poplar::detail {

namespace {

/// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1, column 4: " lead.
std::string withoutLead(std::string what) {
  if (what.rfind("[json.exception.", 0) == 0 && what.find("] ") != std::string::npos)
    what.erase(0, what.find("] ") + 2);
  if (what.rfind("parse error", 0) == 0 && what.find(": ") != std::string::npos)
    what.erase(0, what.find(": ") + 2);
  const std::string value = "syntax error while parsing value - ";
  if (what.rfind(value, 0) == 0)
    what.erase(0, value.size());
  return what;
}

} // namespace

std::string jsonParseProblem(std::size_t position, const std::string &lastToken,
                             const nlohmann::json::exception &error) {
  const std::string what = error.what();
  const auto has = [&](const char *s) { return what.find(s) != std::string::npos; };
  std::string problem;
  // The string problems the readers named before they were nlohmann's (tests and users match these words).
  if (has("must be followed by U+DC00"))
    problem = "a UTF-16 high surrogate not followed by a low one";
  else if (has("must follow U+D800"))
    problem = "a UTF-16 low surrogate without a high one before it";
  else if (has("must be followed by 4 hex digits"))
    problem = "a \\u escape without four hex digits";
  else if (has("forbidden character after backslash"))
    problem = "an unknown escape '\\" + (lastToken.empty() ? std::string("?") : lastToken.substr(lastToken.size() - 1)) + "'";
  else if (error.id == 406) // nlohmann's number overflow: a double beyond DBL_MAX
    problem = "the number " + lastToken + " is out of range (a double)";
  else
    problem = withoutLead(what);
  return problem + " at offset " + std::to_string(position ? position - 1 : 0);
}

} // namespace poplar::detail
