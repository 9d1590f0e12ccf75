// popdist's error: what every popdist function throws when the run's environment, the backend or a collective's
// arguments are wrong. The message names the problem and the fix.
#ifndef POPDIST_POPDIST_ERROR_HPP
#define POPDIST_POPDIST_ERROR_HPP

#include <stdexcept>
#include <string>

namespace popdist {

/// A popdist failure (malformed POPDIST_* environment, no backend, instances disagreeing on a collective, ...).
struct popdist_error : std::runtime_error {
  explicit popdist_error(const std::string &what) : std::runtime_error(what) {}
  explicit popdist_error(const char *what) : std::runtime_error(what) {}
};

} // namespace popdist

#endif // POPDIST_POPDIST_ERROR_HPP
