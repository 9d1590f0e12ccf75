// Writes the hand-assembled test programs as ELF files for the gc-run tests: write_test_elfs DIR.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/stat.h>

#include "programs.hpp"

namespace {

bool save(const std::string &path, const std::vector<std::uint8_t> &b) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  const bool ok = f && std::fwrite(b.data(), 1, b.size(), f) == b.size();
  if (f && std::fclose(f) != 0)
    return false;
  if (!ok)
    std::fprintf(stderr, "write_test_elfs: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_test_elfs DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "write_test_elfs: cannot create %s: %s\n", dir.c_str(), std::strerror(errno));
    return 1;
  }
  std::vector<std::uint8_t> bad = programs::hello();
  bad[4] = 2; // ELFCLASS64
  const bool ok = save(dir + "/hello.elf", programs::hello()) && save(dir + "/exit.elf", programs::exitCodes()) &&
                  save(dir + "/fault.elf", programs::faultIfArg()) && save(dir + "/hang.elf", programs::hangOnTile2()) &&
                  save(dir + "/bad.elf", bad);
  return ok ? 0 : 1;
}
