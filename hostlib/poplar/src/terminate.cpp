// Internal: what a program that does not catch a Poplar error prints before it stops is not lost.
//
// An uncaught exception ends in std::terminate and abort(), which does not flush C or C++ output buffers: when
// standard output is a file or a pipe (a CI log, `prog | tee`), everything the program printed since the last
// flush would vanish. libpoplar installs a terminate handler that flushes every stream first, then hands over to
// the handler that was installed before (the C++ runtime's, which names the exception and its what()).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>

namespace poplar::detail {
namespace {

std::terminate_handler previousHandler = nullptr;

[[noreturn]] void flushThenTerminate() {
  std::cout.flush();
  std::cerr.flush();
  std::clog.flush();
  std::fflush(nullptr);
  if (previousHandler)
    previousHandler();
  std::abort();
}

struct InstallTerminateHandler {
  InstallTerminateHandler() {
    std::terminate_handler old = std::set_terminate(flushThenTerminate);
    if (old != flushThenTerminate)
      previousHandler = old;
  }
};
const InstallTerminateHandler installTerminateHandler;

} // namespace
} // namespace poplar::detail
