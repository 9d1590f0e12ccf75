// Writes the ELF loader fuzzer's seed corpus: the valid minimal image and variants that reach deeper checks.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <string>
#include <vector>

#include "elf_builder.hpp"

using namespace ipu::runtime::testing;

namespace {

bool save(const std::string &dir, const char *name, const std::vector<std::uint8_t> &b) {
  const std::string path = dir + "/" + name;
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(b.data(), 1, b.size(), f) != b.size()) {
    std::fprintf(stderr, "elf_fuzz_seeds: cannot write %s\n", path.c_str());
    if (f)
      std::fclose(f);
    return false;
  }
  return std::fclose(f) == 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: elf_fuzz_seeds DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "elf_fuzz_seeds: cannot create %s: %s\n", dir.c_str(), std::strerror(errno));
    return 1;
  }
  bool ok = save(dir, "minimal.elf", minimalElf().build());
  ElfBuilder three = minimalElf();
  three.data(0x00102000u, {1, 1, 2, 3, 5, 8, 13, 21});
  ElfBuilder::Segment note;
  note.type = 4;
  note.bytes = {4, 0, 0, 0};
  three.segments.push_back(note);
  ok = save(dir, "three_segments.elf", three.build()) && ok;
  std::vector<std::uint8_t> sections = minimalElf().build();
  put32(sections, off::e_shoff, 52);
  put16(sections, off::e_shnum, 1);
  put16(sections, off::e_shentsize, 40);
  ok = save(dir, "with_sections.elf", sections) && ok;
  return ok ? 0 : 1;
}
