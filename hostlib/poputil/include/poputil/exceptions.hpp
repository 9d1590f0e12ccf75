// PopLibs' error type: every argument error of poputil, popops and the other libraries is a poplibs_error whose
// message names the call, the problem and the fix.
#ifndef POPUTIL_EXCEPTIONS_HPP
#define POPUTIL_EXCEPTIONS_HPP

#include <stdexcept>
#include <string>

namespace poputil {

/// Thrown by PopLibs functions given arguments they cannot use (shapes, types, dimensions).
struct poplibs_error : std::runtime_error {
  /// Why the call failed.
  explicit poplibs_error(const std::string &s);
  /// As above, from a C string.
  explicit poplibs_error(const char *s);
  /// PopLibs' field naming the error kind ("poplibs_error").
  std::string type;
};

} // namespace poputil

#endif // POPUTIL_EXCEPTIONS_HPP
