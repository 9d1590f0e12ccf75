// libFuzzer entry point for the profile.cbor reader (parseProfileCBOR, what popvis and libpva open): any bytes
// must be refused with poplar::profiling_error or give a value that is written the same way after a write and read.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "poplar/ProfileValue.hpp"
#include "poplar/exceptions.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  poplar::ProfileValue v;
  try {
    v = poplar::parseProfileCBOR(std::string(reinterpret_cast<const char *>(data), size));
  } catch (const poplar::profiling_error &) {
    return 0; // refused with a message: fine
  }
  // Accepted: what the writer makes of it must read back to a value that the writer writes the same way (a
  // fixed point of write and read: values are compared through their text, as NaN equals nothing, itself too).
  std::ostringstream out, again;
  poplar::serializeToCBOR(out, v);
  try {
    const poplar::ProfileValue back = poplar::parseProfileCBOR(out.str());
    poplar::serializeToCBOR(again, back);
  } catch (const poplar::profiling_error &e) {
    std::fprintf(stderr, "the reader refuses what the writer made of an accepted profile: %s\n", e.what());
    std::abort();
  }
  if (again.str() != out.str()) {
    std::fprintf(stderr, "a profile read, written and read again is written differently\n");
    std::abort();
  }
  return 0;
}
