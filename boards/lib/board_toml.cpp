// The TOML side of the board reader: toml11 (Debian's libtoml11-dev, header only) parses the document; this file
// maps its keys onto the board key table (board_keys.h) and turns toml11's several-line diagnostics into one line
// that names the file, the line and the fix. The board format is stricter than TOML on integers (boards/README.md),
// so every integer's own text in the file goes through the board's rules, not the value toml11 made of it (toml11
// clamps an overflowing integer and reads 0o/0b prefixes).
#include "board_keys.h"

#include <algorithm>
#include <cerrno>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <toml.hpp>

namespace {

// toml11 parses nested arrays and inline tables recursively, so thousands of '[' overflow the stack. A board is
// flat; a document that nests deeper than this is refused before toml11 sees it.
constexpr unsigned kMaxNesting = 32;

// The line on which the brackets first nest deeper than kMaxNesting, or 0.
unsigned tooDeepLine(std::string_view text) {
  unsigned depth = 0, line = 1;
  for (const char c : text) {
    if (c == '\n')
      line++;
    else if ((c == '[' || c == '{') && ++depth > kMaxNesting)
      return line;
    else if ((c == ']' || c == '}') && depth > 0)
      depth--;
  }
  return 0;
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos)
    return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// The text a value was written as in the file (toml11 keeps the line and the value's column and length).
std::string tokenOf(const toml::value &v) {
  const toml::source_location loc = v.location();
  const std::string &line = loc.line_str();
  const std::size_t start = loc.column() > 0 ? loc.column() - 1 : 0;
  if (start >= line.size())
    return {};
  return line.substr(start, std::min<std::size_t>(loc.region(), line.size() - start));
}

// A toml11 message on one line: its first line without the "[error] toml::function: " prefix, plus the remark
// under the caret when it says more than "here".
std::string oneLineReason(const char *what) {
  const std::string_view all(what);
  std::string_view first = all.substr(0, all.find('\n'));
  if (first.substr(0, 8) == "[error] ")
    first.remove_prefix(8);
  if (first.substr(0, 6) == "toml::" && first.find(": ") != std::string_view::npos)
    first.remove_prefix(first.find(": ") + 2);
  std::string reason(first);
  const auto caret = all.find("^--- ");
  if (caret != std::string_view::npos) {
    const std::string_view remark = trim(all.substr(caret + 5, all.find('\n', caret) - caret - 5));
    if (!remark.empty() && remark != "here")
      reason += " (" + std::string(remark) + ")";
  }
  return reason;
}

// A line toml11 could not parse. When it is `key = value` for a board key, the board's own rules for that key say
// what is wrong, in the words boards/README.md uses; otherwise toml11's reason, on one line.
int syntaxError(const toml::syntax_error &e, const char *path, char *err, std::size_t err_len) {
  const toml::source_location loc = e.location();
  const unsigned line = loc.line();
  const std::string_view text = loc.line_str();
  const auto eq = text.find('=');
  const std::string key(eq == std::string_view::npos ? std::string_view() : trim(text.substr(0, eq)));
  const ipu_board_key *k = key.empty() ? nullptr : ipu_board_find_key(key.c_str());
  if (k && std::string_view(e.what()).find("already exists") != std::string_view::npos)
    return ipu_board_fail(err, err_len, -EINVAL, "%s:%u: key '%s' is given twice; keep one of the lines", path,
                          line, k->key);
  if (k) {
    std::string_view value = text.substr(eq + 1);
    value = trim(value.substr(0, value.find('#')));
    const std::string token(value);
    if (k->kind == IPU_BOARD_KEY_TEXT && token[0] != '"' && token[0] != '\'')
      return ipu_board_fail(err, err_len, -EINVAL, "%s:%u: key '%s': expected a quoted string (%s), got '%.200s'",
                            path, line, k->key, k->meaning, token.c_str());
    if (k->kind != IPU_BOARD_KEY_TEXT) {
      ipu_board scratch;
      const std::string where = std::string(path) + ":" + std::to_string(line);
      const int rc = ipu_board_set_integer(&scratch, k, token.c_str(), where.c_str(), err, err_len);
      if (rc != 0)
        return rc;
    }
  }
  return ipu_board_fail(err, err_len, -EINVAL, "%s:%u:%u: %s; a board file holds `key = integer` and "
                        "`key = \"string\"` lines (boards/README.md)", path, line, loc.column(),
                        oneLineReason(e.what()).c_str());
}

// Stores one top-level key of the document into the board.
int storeKey(const std::string &key, const toml::value &v, const char *path, ipu_board *board, unsigned char *seen,
             char *err, std::size_t err_len) {
  const unsigned line = v.location().line();
  // A quoted key may hold a NUL: "name\u0000x" is not the key name.
  const ipu_board_key *k = key.find('\0') == std::string::npos ? ipu_board_find_key(key.c_str()) : nullptr;
  if (!k)
    return ipu_board_fail(err, err_len, -EINVAL, "%s:%u: unknown key '%.200s' (see boards/README.md for the keys)",
                          path, line, key.c_str());
  const std::size_t index = static_cast<std::size_t>(k - ipu_board_keys);
  if (seen[index])
    return ipu_board_fail(err, err_len, -EINVAL, "%s:%u: key '%s' is given twice; keep one of the lines", path, line,
                          k->key);
  seen[index] = 1;
  const std::string token = tokenOf(v);
  const std::string where = std::string(path) + ":" + std::to_string(line);
  if (k->kind == IPU_BOARD_KEY_TEXT) {
    if (!v.is_string())
      return ipu_board_fail(err, err_len, -EINVAL, "%s:%u: key '%s': expected a quoted string (%s), got '%.200s'",
                            path, line, k->key, k->meaning, token.c_str());
    const std::string &s = v.as_string().str;
    return ipu_board_set_text(board, k, s.data(), s.size(), where.c_str(), err, err_len);
  }
  if (!v.is_integer())
    return ipu_board_fail(err, err_len, -EINVAL, "%s:%u: key '%s': expected an integer (%s), got '%.200s'", path,
                          line, k->key, k->meaning, token.c_str());
  return ipu_board_set_integer(board, k, token.c_str(), where.c_str(), err, err_len);
}

int parseDocument(const char *text, std::size_t len, const char *path, ipu_board *board, unsigned char *seen,
                  char *err, std::size_t err_len) {
  const std::string_view doc(text, len);
  if (const unsigned line = tooDeepLine(doc))
    return ipu_board_fail(err, err_len, -EINVAL, "%s:%u: brackets nest more than %u deep; a board file holds flat "
                          "`key = value` lines (boards/README.md)", path, line, kMaxNesting);
  // toml11 3.7.1 reads past its buffer on some ill-formed UTF-8 (board_text.c): it sees well-formed text only.
  if (const int rc = ipu_board_check_text(text, len, path, err, err_len); rc != 0)
    return rc;
  std::istringstream in{std::string(doc)};
  toml::value root;
  try {
    root = toml::parse(in, path);
  } catch (const toml::syntax_error &e) {
    return syntaxError(e, path, err, err_len);
  }
  // Report in file order: the first wrong line is the one to fix first.
  std::vector<std::pair<unsigned, const std::string *>> keys;
  for (const auto &[key, value] : root.as_table())
    keys.emplace_back(value.location().line(), &key);
  std::sort(keys.begin(), keys.end(), [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first < b.first : *a.second < *b.second;
  });
  for (const auto &entry : keys) {
    const int rc = storeKey(*entry.second, root.as_table().at(*entry.second), path, board, seen, err, err_len);
    if (rc != 0)
      return rc;
  }
  return 0;
}

} // namespace

extern "C" int ipu_board_parse_toml(const char *text, std::size_t len, const char *path, ipu_board *board,
                                    unsigned char *seen, char *err, std::size_t err_len) {
  // The C ABI: nothing toml11 throws may cross it.
  try {
    return parseDocument(text, len, path, board, seen, err, err_len);
  } catch (const std::exception &e) {
    std::string why(e.what());
    std::replace(why.begin(), why.end(), '\n', ' ');
    return ipu_board_fail(err, err_len, -EINVAL, "%s: not a board file: %.300s", path, why.c_str());
  } catch (...) {
    return ipu_board_fail(err, err_len, -EINVAL, "%s: not a board file (the TOML reader failed)", path);
  }
}
