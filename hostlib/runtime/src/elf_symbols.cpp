// Symbol lookup in a tile ELF (see tileElfSymbols in elf_image.hpp): the section headers, each symbol table and its
// string table are checked to lie inside the file before they are read, as the loader does for segments.
#include <cstring>
#include <string>

#include "ipu_runtime/elf_image.hpp"

namespace ipu {
namespace runtime {
namespace {

constexpr std::size_t kEhdrSize = 52, kShdrSize = 40, kSymSize = 16;
constexpr std::uint32_t kShtSymtab = 2;

struct Reader {
  const std::uint8_t *p;
  std::size_t n;
  const std::string &name;

  std::uint16_t u16(std::size_t off) const { return std::uint16_t(p[off] | (p[off + 1] << 8)); }
  std::uint32_t u32(std::size_t off) const {
    return std::uint32_t(p[off]) | (std::uint32_t(p[off + 1]) << 8) | (std::uint32_t(p[off + 2]) << 16) |
           (std::uint32_t(p[off + 3]) << 24);
  }
  // Throws unless [off, off + len) lies inside the file; written so that it cannot overflow.
  void need(std::uint64_t off, std::uint64_t len, const std::string &field) const {
    if (off > n || len > n - off)
      throw elf_error(name + ": " + field + " = " + std::to_string(off) + ": " + std::to_string(len) +
                          " bytes from there run past the end of the " + std::to_string(n) + "-byte file",
                      field, off);
  }
};

} // namespace

std::map<std::string, std::uint32_t> tileElfSymbols(const void *data, std::size_t size, const std::string &name) {
  const Reader r{static_cast<const std::uint8_t *>(data), data != nullptr ? size : 0, name};
  r.need(0, kEhdrSize, "file size");
  if (r.p[0] != 0x7f || r.p[1] != 'E' || r.p[2] != 'L' || r.p[3] != 'F' || r.p[4] != 1)
    throw elf_error(name + ": e_ident: not an ELF32 file", "e_ident", r.u32(0));
  const std::uint32_t shoff = r.u32(32);
  const std::uint16_t shentsize = r.u16(46), shnum = r.u16(48);
  std::map<std::string, std::uint32_t> out;
  if (shnum == 0)
    return out;
  if (shentsize != kShdrSize)
    throw elf_error(name + ": e_shentsize = " + std::to_string(shentsize) + ": not 40", "e_shentsize", shentsize);
  r.need(shoff, std::uint64_t(shnum) * kShdrSize, "e_shoff");
  for (std::size_t i = 0; i < shnum; ++i) {
    const std::size_t sh = shoff + i * kShdrSize;
    if (r.u32(sh + 4) != kShtSymtab)
      continue;
    const std::uint32_t symOff = r.u32(sh + 16), symSize = r.u32(sh + 20), link = r.u32(sh + 24);
    r.need(symOff, symSize, "sh_offset");
    if (link >= shnum)
      throw elf_error(name + ": sh_link = " + std::to_string(link) + ": not a section of the file", "sh_link", link);
    const std::size_t strSh = shoff + std::size_t(link) * kShdrSize;
    const std::uint32_t strOff = r.u32(strSh + 16), strSize = r.u32(strSh + 20);
    r.need(strOff, strSize, "sh_offset");
    for (std::size_t s = 0; s + kSymSize <= symSize; s += kSymSize) {
      const std::uint32_t nameOff = r.u32(symOff + s);
      if (nameOff >= strSize)
        throw elf_error(name + ": st_name = " + std::to_string(nameOff) + ": outside the string table",
                        "st_name", nameOff);
      const char *first = reinterpret_cast<const char *>(r.p + strOff + nameOff);
      const std::size_t len = strnlen(first, strSize - nameOff);
      if (len == strSize - nameOff)
        throw elf_error(name + ": st_name = " + std::to_string(nameOff) + ": the name runs past its string table",
                        "st_name", nameOff);
      if (len != 0)
        out[std::string(first, len)] = r.u32(symOff + s + 4);
    }
  }
  return out;
}

} // namespace runtime
} // namespace ipu
