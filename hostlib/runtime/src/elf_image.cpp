// Hardened tile ELF parser: every header field is checked, in a fixed order, before any byte is copied out.
//
// Order of checks (the first failure is reported, so each malformed file gets one definite message):
//   1. file size against the ELF header and the target's maximum
//   2. e_ident: magic, class (32-bit), data (little-endian), version, OS ABI
//   3. e_type (ET_EXEC), e_machine (RISC-V), e_version, e_ehsize, e_flags against the board's ISA/ABI
//   4. program-header table: e_phentsize, e_phnum (1..maxSegments, not PN_XNUM), e_phoff range
//   5. section-header table (unused, but a corrupt one signals a corrupt file): e_shentsize, e_shnum, e_shoff,
//      e_shstrndx
//   6. each program header: p_type (no dynamic linking), p_offset/p_filesz inside the file, p_align, then for
//      PT_LOAD p_filesz <= p_memsz, p_vaddr/p_memsz inside SRAM and clear of reserved ranges
//   7. loadable segments: at least one, pairwise disjoint
//   8. e_entry: aligned, inside the file bytes of an executable segment
// All range arithmetic is done on 64-bit values built from 32-bit fields, or as "len <= limit - off" after
// "off <= limit", so no sum can wrap.
#include "ipu_runtime/elf_image.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "ipu_board.h"
#include "ipu_card/hw.h"

namespace ipu {
namespace runtime {
namespace {

// ELF constants, spelled out here rather than taken from <elf.h> so that the parser does not depend on the
// host's headers (and so that the values checked are visible next to the checks).
constexpr std::size_t kEhdrSize = 52;
constexpr std::size_t kPhdrSize = 32;
constexpr std::size_t kShdrSize = 40;
constexpr std::uint8_t kElfClass32 = 1;
constexpr std::uint8_t kElfData2Lsb = 1;
constexpr std::uint8_t kEvCurrent = 1;
constexpr std::uint8_t kOsAbiNone = 0;
constexpr std::uint16_t kEtExec = 2;
constexpr std::uint16_t kEmRiscv = 243;
constexpr std::uint16_t kPnXnum = 0xffff;
constexpr std::uint16_t kShnLoreserve = 0xff00;
constexpr std::uint32_t kPtNull = 0;
constexpr std::uint32_t kPtLoad = 1;
constexpr std::uint32_t kPtDynamic = 2;
constexpr std::uint32_t kPtInterp = 3;
constexpr std::uint32_t kPtShlib = 5;
constexpr std::uint32_t kPfX = 1, kPfW = 2, kPfR = 4;
constexpr std::uint32_t kEfRiscvRvc = 0x1;
constexpr std::uint32_t kEfRiscvFloatAbi = 0x6;
constexpr std::uint32_t kEfRiscvRve = 0x8;
constexpr std::uint32_t kEfRiscvTso = 0x10;
constexpr std::uint32_t kEfRiscvKnown = kEfRiscvRvc | kEfRiscvFloatAbi | kEfRiscvRve | kEfRiscvTso;

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string dec(std::uint64_t v) { return std::to_string(v); }

const char *floatAbiName(std::uint32_t bits) {
  switch (bits) {
  case 0x0:
    return "soft-float (ilp32)";
  case 0x2:
    return "single-float (ilp32f)";
  case 0x4:
    return "double-float (ilp32d)";
  default:
    return "quad-float (ilp32q)";
  }
}

// Little-endian field reads; callers have already checked that [off, off + n) is inside the buffer.
struct Bytes {
  const std::uint8_t *p;
  std::size_t n;
  std::uint16_t u16(std::size_t off) const { return std::uint16_t(p[off] | (p[off + 1] << 8)); }
  std::uint32_t u32(std::size_t off) const {
    return std::uint32_t(p[off]) | (std::uint32_t(p[off + 1]) << 8) | (std::uint32_t(p[off + 2]) << 16) |
           (std::uint32_t(p[off + 3]) << 24);
  }
};

// True when [off, off + len) lies inside [0, limit); cannot overflow.
bool inside(std::uint64_t off, std::uint64_t len, std::uint64_t limit) { return off <= limit && len <= limit - off; }

class Checker {
public:
  explicit Checker(const std::string &name) : name_(name) {}

  [[noreturn]] void fail(const std::string &field, std::uint64_t value, const std::string &shown,
                         const std::string &problem) const {
    throw elf_error(name_ + ": " + field + " = " + shown + ": " + problem, field, value);
  }
  [[noreturn]] void failHex(const std::string &field, std::uint64_t value, const std::string &problem) const {
    fail(field, value, hex(value), problem);
  }
  [[noreturn]] void failDec(const std::string &field, std::uint64_t value, const std::string &problem) const {
    fail(field, value, dec(value), problem);
  }

private:
  const std::string &name_;
};

struct RawPhdr {
  std::uint32_t type, offset, vaddr, filesz, memsz, flags, align;
};

std::string segLabel(std::size_t i) { return "program header " + std::to_string(i); }

} // namespace

ElfTarget ElfTarget::fromBoard(const ipu_board &board) {
  ElfTarget t;
  t.sramBase = IPU_TILE_SRAM_BASE;
  t.sramBytes = board.bytes_per_tile;
  t.isa = board.isa;
  t.abi = board.abi;
  // The ISA string is "rv32" followed by single-letter extensions, optionally then "_z..." multi-letter ones.
  if (t.isa.compare(0, 4, "rv32") != 0 || t.isa.size() < 5)
    throw application_runtime_error("board '" + std::string(board.name) + "': isa = \"" + t.isa +
                                    "\": not an RV32 ISA string; tile ELFs can only be checked against rv32*");
  const std::string letters = t.isa.substr(4, t.isa.find('_') == std::string::npos ? std::string::npos
                                                                                    : t.isa.find('_') - 4);
  bool hasF = false, hasD = false;
  for (char c : letters) {
    if (c == 'c')
      t.compressed = true;
    if (c == 'f' || c == 'g')
      hasF = true;
    if (c == 'd' || c == 'g')
      hasD = true;
  }
  if (t.abi == "ilp32") {
    t.floatAbi = 0x0;
  } else if (t.abi == "ilp32e") {
    t.floatAbi = 0x0;
    t.embedded = true;
  } else if (t.abi == "ilp32f" && hasF) {
    t.floatAbi = 0x2;
  } else if (t.abi == "ilp32d" && hasD) {
    t.floatAbi = 0x4;
  } else {
    throw application_runtime_error("board '" + std::string(board.name) + "': abi = \"" + t.abi +
                                    "\": not an RV32 ABI that the ISA \"" + t.isa +
                                    "\" supports; use ilp32, ilp32e, ilp32f (needs F) or ilp32d (needs D)");
  }
  return t;
}

std::uint64_t TileImage::loadBytes() const noexcept {
  std::uint64_t total = 0;
  for (const auto &s : segments)
    total += s.memsz;
  return total;
}

TileImage parseTileElf(const void *data, std::size_t size, const ElfTarget &target, const std::string &name) {
  const Checker c(name);
  if (data == nullptr && size != 0)
    c.failDec("file size", size, "no data pointer was given for a non-empty file");
  if (target.sramBytes == 0 || !inside(target.sramBase, target.sramBytes, std::uint64_t(1) << 32))
    throw application_runtime_error(name + ": the ElfTarget's SRAM range (base " + hex(target.sramBase) + ", " +
                                    dec(target.sramBytes) +
                                    " bytes) is empty or wraps; build the target with ElfTarget::fromBoard()");

  // 1. Size.
  if (size < kEhdrSize)
    c.failDec("file size", size,
              "shorter than the 52-byte ELF32 header; the file is truncated or not an ELF file");
  if (size > target.maxFileBytes)
    c.failDec("file size", size,
              "larger than the " + dec(target.maxFileBytes) + "-byte limit for tile ELFs; strip the file");
  const Bytes b{static_cast<const std::uint8_t *>(data), size};

  // 2. Identification.
  if (b.p[0] != 0x7f || b.p[1] != 'E' || b.p[2] != 'L' || b.p[3] != 'F')
    c.failHex("e_ident[EI_MAG]", b.u32(0), "bad magic (expected 7f 45 4c 46, \"\\x7fELF\"); not an ELF file");
  if (b.p[4] != kElfClass32)
    c.failDec("e_ident[EI_CLASS]", b.p[4],
              "not ELFCLASS32 (1); tiles are RV32, build with -march=" + target.isa + " -mabi=" + target.abi);
  if (b.p[5] != kElfData2Lsb)
    c.failDec("e_ident[EI_DATA]", b.p[5], "not ELFDATA2LSB (1); RISC-V tiles are little-endian");
  if (b.p[6] != kEvCurrent)
    c.failDec("e_ident[EI_VERSION]", b.p[6], "not EV_CURRENT (1); the file is corrupt");
  if (b.p[7] != kOsAbiNone)
    c.failDec("e_ident[EI_OSABI]", b.p[7],
              "not ELFOSABI_NONE (0); tile programs are bare-metal, build with riscv64-unknown-elf-gcc");

  // 3. Fixed header fields.
  const std::uint16_t eType = b.u16(16), eMachine = b.u16(18);
  const std::uint32_t eVersion = b.u32(20), eEntry = b.u32(24), ePhoff = b.u32(28), eShoff = b.u32(32),
                      eFlags = b.u32(36);
  const std::uint16_t eEhsize = b.u16(40), ePhentsize = b.u16(42), ePhnum = b.u16(44), eShentsize = b.u16(46),
                      eShnum = b.u16(48), eShstrndx = b.u16(50);
  if (eType != kEtExec)
    c.failDec("e_type", eType,
              "not ET_EXEC (2); link a static executable (relocatable objects and shared objects cannot be loaded)");
  if (eMachine != kEmRiscv)
    c.failDec("e_machine", eMachine, "not EM_RISCV (243); build the tile program with the RISC-V toolchain");
  if (eVersion != kEvCurrent)
    c.failDec("e_version", eVersion, "not EV_CURRENT (1); the file is corrupt");
  if (eEhsize != kEhdrSize)
    c.failDec("e_ehsize", eEhsize, "not 52, the size of an ELF32 header; the file is corrupt");
  if ((eFlags & ~kEfRiscvKnown) != 0)
    c.failHex("e_flags", eFlags, "has bits outside RVC|FLOAT_ABI|RVE|TSO (0x1f) that this loader does not know");
  if ((eFlags & kEfRiscvRvc) && !target.compressed)
    c.failHex("e_flags", eFlags,
              "EF_RISCV_RVC is set but the board's ISA \"" + target.isa +
                  "\" has no C extension; build with -march=" + target.isa);
  if ((eFlags & kEfRiscvFloatAbi) != target.floatAbi)
    c.failHex("e_flags", eFlags,
              std::string("float ABI is ") + floatAbiName(eFlags & kEfRiscvFloatAbi) + " but the board needs " +
                  floatAbiName(target.floatAbi) + "; build with -mabi=" + target.abi);
  if (bool(eFlags & kEfRiscvRve) != target.embedded)
    c.failHex("e_flags", eFlags,
              std::string("EF_RISCV_RVE is ") + ((eFlags & kEfRiscvRve) ? "set" : "clear") + " but the board's ABI is " +
                  target.abi + "; build with -mabi=" + target.abi);

  // 4. Program-header table.
  if (ePhentsize != kPhdrSize)
    c.failDec("e_phentsize", ePhentsize, "not 32, the size of an ELF32 program header; the file is corrupt");
  if (ePhnum == kPnXnum)
    c.failDec("e_phnum", ePhnum, "PN_XNUM (extended numbering) is not supported for tile programs");
  if (ePhnum == 0)
    c.failDec("e_phnum", ePhnum, "no program headers, so nothing to load; link an executable, not an object");
  if (ePhnum > target.maxSegments)
    c.failDec("e_phnum", ePhnum, "more than the " + dec(target.maxSegments) + " program headers a tile image may have");
  const std::uint64_t phBytes = std::uint64_t(ePhnum) * kPhdrSize;
  if (!inside(ePhoff, phBytes, size))
    c.failHex("e_phoff", ePhoff,
              "the program-header table (" + dec(ePhnum) + " x 32 bytes) does not fit in the " + dec(size) +
                  "-byte file; the file is truncated or corrupt");
  if (ePhoff % 4 != 0)
    c.failHex("e_phoff", ePhoff, "the program-header table is not 4-byte aligned; the file is corrupt");

  // 5. Section-header table: not needed to load, but its fields must still be sane.
  if (eShnum != 0 || eShoff != 0) {
    if (eShentsize != kShdrSize)
      c.failDec("e_shentsize", eShentsize, "not 40, the size of an ELF32 section header; the file is corrupt");
    if (eShnum >= kShnLoreserve)
      c.failDec("e_shnum", eShnum, "extended section numbering is not supported for tile programs");
    if (!inside(eShoff, std::uint64_t(eShnum) * kShdrSize, size))
      c.failHex("e_shoff", eShoff,
                "the section-header table (" + dec(eShnum) + " x 40 bytes) does not fit in the " + dec(size) +
                    "-byte file; the file is truncated or corrupt");
    if (eShstrndx != 0 && eShstrndx >= eShnum)
      c.failDec("e_shstrndx", eShstrndx, "not below e_shnum (" + dec(eShnum) + "); the file is corrupt");
  }

  // 6. Each program header.
  std::vector<RawPhdr> loads;
  const std::uint64_t sramEnd = std::uint64_t(target.sramBase) + target.sramBytes;
  for (std::size_t i = 0; i < ePhnum; ++i) {
    const std::size_t o = ePhoff + i * kPhdrSize;
    const RawPhdr ph{b.u32(o), b.u32(o + 4), b.u32(o + 8), b.u32(o + 16), b.u32(o + 20), b.u32(o + 24), b.u32(o + 28)};
    const std::string at = segLabel(i) + " ";
    if (ph.type == kPtNull)
      continue;
    if (ph.type == kPtDynamic || ph.type == kPtInterp || ph.type == kPtShlib)
      c.failDec(at + "p_type", ph.type,
                "dynamic linking (PT_DYNAMIC/PT_INTERP/PT_SHLIB) is not supported on tiles; link with -static");
    if (!inside(ph.offset, ph.filesz, size))
      c.failHex(at + "p_offset", ph.offset,
                "with p_filesz " + dec(ph.filesz) + " the segment's bytes run past the end of the " + dec(size) +
                    "-byte file; the file is truncated or corrupt");
    if (ph.align > 1 && (ph.align & (ph.align - 1)) != 0)
      c.failDec(at + "p_align", ph.align, "not a power of two; the file is corrupt");
    // Non-loadable segments (PT_RISCV_ATTRIBUTES, PT_NOTE) occupy no memory: GNU ld gives them p_memsz 0.
    if (ph.type != kPtLoad)
      continue;
    if (ph.filesz > ph.memsz)
      c.failDec(at + "p_filesz", ph.filesz,
                "larger than p_memsz (" + dec(ph.memsz) + "); a segment cannot hold more file bytes than memory");
    if (ph.align > 1 && ph.vaddr % ph.align != ph.offset % ph.align)
      c.failHex(at + "p_vaddr", ph.vaddr,
                "not congruent to p_offset (" + hex(ph.offset) + ") modulo p_align (" + dec(ph.align) +
                    "); the file is corrupt");
    if ((ph.flags & ~(kPfR | kPfW | kPfX)) != 0)
      c.failHex(at + "p_flags", ph.flags, "has bits other than PF_R|PF_W|PF_X");
    if (ph.memsz == 0)
      continue; // An empty PT_LOAD occupies no memory; GNU ld emits them for empty output sections.
    if (ph.vaddr < target.sramBase || !inside(ph.vaddr, ph.memsz, sramEnd))
      c.failHex(at + "p_vaddr", ph.vaddr,
                "with p_memsz " + dec(ph.memsz) + " the segment is not inside tile SRAM [" + hex(target.sramBase) +
                    ", " + hex(sramEnd) + "); link with the board's linker script");
    for (const MemoryRange &r : target.reserved) {
      const std::uint64_t rEnd = std::uint64_t(r.base) + r.size;
      if (r.size != 0 && ph.vaddr < rEnd && r.base < std::uint64_t(ph.vaddr) + ph.memsz)
        c.failHex(at + "p_vaddr", ph.vaddr,
                  "with p_memsz " + dec(ph.memsz) + " the segment overlaps the reserved " + r.name + " [" +
                      hex(r.base) + ", " + hex(rEnd) + "); move it with the board's linker script");
    }
    loads.push_back(ph);
  }

  // 7. Loadable segments as a whole.
  if (loads.empty())
    c.failDec("e_phnum", ePhnum, "none of the program headers is a non-empty PT_LOAD segment; nothing to load");
  std::vector<std::size_t> order(loads.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return loads[x].vaddr < loads[y].vaddr; });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const RawPhdr &prev = loads[order[k - 1]], &cur = loads[order[k]];
    if (std::uint64_t(prev.vaddr) + prev.memsz > cur.vaddr)
      c.failHex("p_vaddr", cur.vaddr,
                "a PT_LOAD segment at " + hex(cur.vaddr) + " overlaps the one at [" + hex(prev.vaddr) + ", " +
                    hex(std::uint64_t(prev.vaddr) + prev.memsz) + "); the file is corrupt");
  }

  // 8. Entry point.
  const std::uint32_t codeAlign = target.compressed ? 2 : 4;
  if (eEntry % codeAlign != 0)
    c.failHex("e_entry", eEntry, "not " + dec(codeAlign) + "-byte aligned, so the tile would fault on its first fetch");
  bool entryOk = false;
  for (const RawPhdr &ph : loads) {
    if ((ph.flags & kPfX) && eEntry >= ph.vaddr && std::uint64_t(eEntry) + codeAlign <= std::uint64_t(ph.vaddr) + ph.filesz)
      entryOk = true;
  }
  if (!entryOk)
    c.failHex("e_entry", eEntry,
              "not inside the file bytes of an executable (PF_X) PT_LOAD segment; check the linker script's ENTRY");

  // Everything validated: copy the segments out.
  TileImage img;
  img.name = name;
  img.entry = eEntry;
  img.flags = eFlags;
  img.segments.reserve(loads.size());
  for (std::size_t k : order) {
    const RawPhdr &ph = loads[k];
    TileSegment s;
    s.vaddr = ph.vaddr;
    s.memsz = ph.memsz;
    s.flags = ph.flags;
    s.bytes.assign(b.p + ph.offset, b.p + ph.offset + ph.filesz);
    img.segments.push_back(std::move(s));
  }
  return img;
}

TileImage loadTileElf(const std::string &path, const ElfTarget &target) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw application_runtime_error(path + ": cannot open the tile ELF (" + std::strerror(errno) +
                                    "); check the path");
  in.seekg(0, std::ios::end);
  const std::streamoff len = in.tellg();
  if (len < 0)
    throw application_runtime_error(path + ": cannot read the tile ELF; is it a regular file?");
  if (std::uint64_t(len) > target.maxFileBytes)
    throw elf_error(path + ": file size = " + dec(std::uint64_t(len)) + ": larger than the " +
                        dec(target.maxFileBytes) + "-byte limit for tile ELFs; strip the file",
                    "file size", std::uint64_t(len));
  in.seekg(0, std::ios::beg);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(len));
  if (len > 0 && !in.read(reinterpret_cast<char *>(bytes.data()), len))
    throw application_runtime_error(path + ": short read of the tile ELF; was it being written?");
  return parseTileElf(bytes.data(), bytes.size(), target, path);
}

} // namespace runtime
} // namespace ipu
