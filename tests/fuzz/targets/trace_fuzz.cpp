// libFuzzer entry point for the trace reader (ipu_replay_file, what ipu-replay runs): any file must be refused with
// a negative code and a message, or replayed on the card model to a verdict (0 or 1) without crashing, reading or
// writing out of bounds, or running without end (issue 36, findings 1, 2 and 7).
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ipu_backends/record.h"
#include "memfile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  ipu_replay_result res;
  const int rc = ipu_replay_file(ipu::fuzz::memoryFile(data, size), 1, &res);
  if (std::memchr(res.message, '\0', sizeof res.message) == nullptr) {
    std::fprintf(stderr, "ipu_replay_file left its message unterminated\n");
    std::abort();
  }
  if (rc > 1 || ((rc < 0 || rc == 1) && res.message[0] == '\0')) {
    std::fprintf(stderr, "ipu_replay_file returned %d with message '%s'\n", rc, res.message);
    std::abort();
  }
  return 0;
}
