// libFuzzer entry point for the serialized executable reader (Executable::deserialize, format 4): any bytes must
// be refused with poplar_error, naming what is wrong, or give an executable whose checked fields hold, so that an
// Engine built from it cannot index, allocate or copy out of bounds (issue 36, findings 3 and 12).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "executable_impl.hpp"
#include "poplar/exceptions.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char *>(data), size), std::ios::binary);
  poplar::detail::ExecutableImpl exe;
  try {
    exe = poplar::detail::readExecutable(in);
  } catch (const poplar::poplar_error &e) {
    if (std::string(e.what()).empty()) {
      std::fprintf(stderr, "readExecutable refused an input with no message\n");
      std::abort();
    }
    return 0;
  }
  // Accepted (the checksum matched): writing it again must give the same bytes, so nothing was read loosely.
  std::ostringstream out(std::ios::binary);
  poplar::detail::writeExecutable(out, exe);
  if (out.str() != std::string(reinterpret_cast<const char *>(data), size)) {
    std::fprintf(stderr, "an accepted executable does not write back to the same bytes\n");
    std::abort();
  }
  return 0;
}
