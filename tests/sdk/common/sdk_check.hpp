// The checks of an SDK-surface program (tests/sdk): each check prints "ok: <what>" or "FAIL: <what>" (the folder's
// expected.txt lists the ok lines) and a failed one makes the program's exit status 1. run_sdk.sh copies this
// header next to the program, so a program includes it as "sdk_check.hpp".
#ifndef SDK_CHECK_HPP
#define SDK_CHECK_HPP

#include <cstdio>
#include <exception>
#include <functional>
#include <string>

namespace sdk_check {
inline int &failures() {
  static int count = 0;
  return count;
}
} // namespace sdk_check

/// Prints the outcome of one check.
inline void check(bool ok, const std::string &what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
  if (!ok)
    ++sdk_check::failures();
}

/// Whether `text` contains `part` (for checking what an error message says).
inline bool has(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

/// The message of the exception of type E that `f` throws, or "(nothing thrown)"; an exception of another type
/// goes on up (and so fails the program), since the type is part of what is checked.
template <class E> std::string refusal(const std::function<void()> &f) {
  try {
    f();
  } catch (const E &e) {
    return e.what();
  }
  return "(nothing thrown)";
}

/// Checks that f() throws a std::exception whose message contains `needle` (the message is printed indented, so a
/// reader sees what a user would).
template <typename F> void checkThrows(F f, const std::string &needle, const std::string &what) {
  std::string message;
  try {
    f();
  } catch (const std::exception &e) {
    message = e.what();
  }
  std::printf("  message: %s\n", message.c_str());
  check(!message.empty() && message.find(needle) != std::string::npos, what);
}

/// Prints `message` (what a refusal said, e.g. refusal<E>()'s result) indented, and checks that it contains
/// `needle` (the argument or the fix it must name).
inline void checkMessage(const std::string &message, const std::string &needle, const std::string &what) {
  std::printf("  message: %s\n", message.c_str());
  check(message.find(needle) != std::string::npos, what);
}

/// Prints `allPassed` when no check failed; the program's exit status (0 or 1).
inline int checksDone(const char *allPassed) {
  if (sdk_check::failures() == 0)
    std::printf("%s\n", allPassed);
  return sdk_check::failures() == 0 ? 0 : 1;
}

#endif // SDK_CHECK_HPP
