// The memory file of memfile.hpp.
#include "memfile.hpp"

#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

namespace ipu::fuzz {

const char *memoryFile(const std::uint8_t *data, std::size_t size) {
  static int fd = -1;
  static char path[64];
  if (fd < 0) {
    fd = memfd_create("ipu-fuzz-input", 0);
    if (fd < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    std::snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  }
  // A regular file of exactly these bytes: readers that check the kind of file (no FIFOs) or its size see a file.
  if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != static_cast<ssize_t>(size))) {
    std::perror("memory file");
    std::abort();
  }
  return path;
}

} // namespace ipu::fuzz
