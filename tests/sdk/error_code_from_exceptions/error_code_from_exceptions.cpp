// A user's catch site that includes only poplar/exceptions.hpp and compares runtime_error's ErrorInfo::code with
// poplar::ErrorCode's enumerators, as a program that handles device errors does: the header must make them visible.
#include <cstdio>

#include <poplar/exceptions.hpp>

int main() {
  try {
    throw poplar::runtime_error("no device error behind this one");
  } catch (const poplar::runtime_error &e) {
    const poplar::runtime_error::ErrorInfo &info = e.getErrorInfo();
    bool none = info.code == poplar::ErrorCode::NONE;
    std::printf("code is NONE: %s\n", none ? "yes" : "no");
    std::printf("code is TRAP: %s\n", info.code == poplar::ErrorCode::TRAP ? "yes" : "no");
    return none ? 0 : 1;
  }
}
