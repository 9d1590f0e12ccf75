// libFuzzer entry point for the profile readers (what popvis and libpva open), built twice: profile_json_fuzz reads
// profile.json text (parseProfileJSON) and profile_cbor_fuzz, with IPU_PROFILE_FUZZ_CBOR=1, profile.cbor bytes
// (parseProfileCBOR). The property is the same for both formats, so it is written once: any input must be refused
// with poplar::profiling_error or give a value that is written the same way after a write and read.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <string>

#include "poplar/ProfileValue.hpp"
#include "poplar/exceptions.hpp"

namespace {

#if IPU_PROFILE_FUZZ_CBOR
poplar::ProfileValue readProfile(const std::string &bytes) { return poplar::parseProfileCBOR(bytes); }
void writeProfile(std::ostream &out, const poplar::ProfileValue &v, bool) { poplar::serializeToCBOR(out, v); }
#else
poplar::ProfileValue readProfile(const std::string &text) { return poplar::parseProfileJSON(text); }
// Both the compact and the pretty writer are exercised (chosen by the input's length, so a run is repeatable).
void writeProfile(std::ostream &out, const poplar::ProfileValue &v, bool pretty) {
  poplar::serializeToJSON(out, v, pretty);
}
#endif

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const bool pretty = (size & 1) != 0;
  poplar::ProfileValue v;
  try {
    v = readProfile(std::string(reinterpret_cast<const char *>(data), size));
  } catch (const poplar::profiling_error &) {
    return 0; // refused with a message: fine
  }
  // Accepted: what the writer makes of it must read back to a value that the writer writes the same way (a
  // fixed point of write and read: values are compared through their text, as NaN equals nothing, itself too).
  std::ostringstream out, again;
  writeProfile(out, v, pretty);
  try {
    writeProfile(again, readProfile(out.str()), pretty);
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
