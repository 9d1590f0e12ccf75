// Test support (not installed): writes small RV32 tile ELFs and hand-assembles a few instructions, so that
// tests and the fuzzer's seeds do not depend on the firmware build.
#ifndef IPU_RUNTIME_TESTING_ELF_BUILDER_HPP
#define IPU_RUNTIME_TESTING_ELF_BUILDER_HPP

#include <cstdint>
#include <cstring>
#include <vector>

namespace ipu {
namespace runtime {
namespace testing {

/// Offsets of ELF32 fields, for tests that corrupt one field of a built file.
namespace off {
constexpr std::size_t e_ident_class = 4, e_ident_data = 5, e_ident_version = 6, e_ident_osabi = 7;
constexpr std::size_t e_type = 16, e_machine = 18, e_version = 20, e_entry = 24, e_phoff = 28, e_shoff = 32,
                      e_flags = 36, e_ehsize = 40, e_phentsize = 42, e_phnum = 44, e_shentsize = 46, e_shnum = 48,
                      e_shstrndx = 50;
constexpr std::size_t phdr = 52; // ElfBuilder writes the program headers right after the ELF header
constexpr std::size_t p_type = 0, p_offset = 4, p_vaddr = 8, p_paddr = 12, p_filesz = 16, p_memsz = 20,
                      p_flags = 24, p_align = 28;
/// Offset of field `f` of program header `i` in a file written by ElfBuilder.
constexpr std::size_t ph(std::size_t i, std::size_t f) { return phdr + 32 * i + f; }
} // namespace off

inline void put16(std::vector<std::uint8_t> &b, std::size_t at, std::uint16_t v) {
  b[at] = std::uint8_t(v);
  b[at + 1] = std::uint8_t(v >> 8);
}
inline void put32(std::vector<std::uint8_t> &b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + i] = std::uint8_t(v >> (8 * i));
}
inline std::uint32_t get32(const std::vector<std::uint8_t> &b, std::size_t at) {
  return std::uint32_t(b[at]) | (std::uint32_t(b[at + 1]) << 8) | (std::uint32_t(b[at + 2]) << 16) |
         (std::uint32_t(b[at + 3]) << 24);
}

/// A few RV32I instruction encodings, enough for bare tile test programs.
namespace rv {
constexpr std::uint32_t zero = 0, ra = 1, sp = 2, t0 = 5, t1 = 6, t2 = 7, a0 = 10, a1 = 11, a2 = 12;
inline std::uint32_t itype(std::uint32_t op, std::uint32_t f3, std::uint32_t rd, std::uint32_t rs1, std::int32_t imm) {
  return (std::uint32_t(imm & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
inline std::uint32_t addi(std::uint32_t rd, std::uint32_t rs1, std::int32_t imm) { return itype(0x13, 0, rd, rs1, imm); }
/// add rd, rs1, rs2
inline std::uint32_t add(std::uint32_t rd, std::uint32_t rs1, std::uint32_t rs2) {
  return (rs2 << 20) | (rs1 << 15) | (rd << 7) | 0x33;
}
/// slli rd, rs1, shamt
inline std::uint32_t slli(std::uint32_t rd, std::uint32_t rs1, std::uint32_t shamt) {
  return itype(0x13, 1, rd, rs1, std::int32_t(shamt & 31));
}
inline std::uint32_t lui(std::uint32_t rd, std::uint32_t imm20) { return (imm20 << 12) | (rd << 7) | 0x37; }
inline std::uint32_t lw(std::uint32_t rd, std::uint32_t rs1, std::int32_t imm) { return itype(0x03, 2, rd, rs1, imm); }
inline std::uint32_t lbu(std::uint32_t rd, std::uint32_t rs1, std::int32_t imm) { return itype(0x03, 4, rd, rs1, imm); }
inline std::uint32_t sw(std::uint32_t rs2, std::uint32_t rs1, std::int32_t imm) {
  const std::uint32_t u = std::uint32_t(imm) & 0xfff;
  return ((u >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (2u << 12) | ((u & 0x1f) << 7) | 0x23;
}
inline std::uint32_t csrw(std::uint32_t csr, std::uint32_t rs1) { return (csr << 20) | (rs1 << 15) | (1u << 12) | 0x73; }
inline std::uint32_t csrr(std::uint32_t rd, std::uint32_t csr) { return (csr << 20) | (2u << 12) | (rd << 7) | 0x73; }
/// beq rs1, rs2, offset (bytes, even, within +-4 KiB).
inline std::uint32_t beq(std::uint32_t rs1, std::uint32_t rs2, std::int32_t off) {
  const std::uint32_t u = std::uint32_t(off);
  return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (0u << 12) |
         (((u >> 1) & 0xf) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}
/// bne rs1, rs2, offset (bytes, even, within +-4 KiB).
inline std::uint32_t bne(std::uint32_t rs1, std::uint32_t rs2, std::int32_t off) {
  return beq(rs1, rs2, off) | (1u << 12);
}
/// jal rd, offset (bytes, even, within +-1 MiB).
inline std::uint32_t jal(std::uint32_t rd, std::int32_t off) {
  const std::uint32_t u = std::uint32_t(off);
  return (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3ff) << 21) | (((u >> 11) & 1) << 20) | (((u >> 12) & 0xff) << 12) |
         (rd << 7) | 0x6f;
}
constexpr std::uint32_t ebreak = 0x00100073;
constexpr std::uint32_t s1 = 9;

/// A growing instruction list with positions, for hand-written test programs.
struct Asm {
  std::vector<std::uint32_t> words;
  Asm &operator<<(std::uint32_t w) {
    words.push_back(w);
    return *this;
  }
  /// Index of the next instruction (branch targets: offset = (target - here()) * 4).
  std::int32_t here() const { return std::int32_t(words.size()); }
  /// rd = value, always two instructions (lui + addi) so that code positions do not depend on the value.
  Asm &li(std::uint32_t rd, std::uint32_t value) {
    const std::uint32_t hi = (value + 0x800u) >> 12;
    words.push_back(lui(rd, hi & 0xfffff));
    words.push_back(addi(rd, rd, std::int32_t(value << 20) >> 20));
    return *this;
  }
  /// Writes `value` to CSR `csr` through t6 (x31).
  Asm &csrwi32(std::uint32_t csr, std::uint32_t value) {
    li(31, value);
    words.push_back(csrw(csr, 31));
    return *this;
  }
};
} // namespace rv

/// Writes an ELF32 RISC-V executable: header, program headers right after it, then each segment's bytes at an
/// offset congruent to its address modulo 4.
struct ElfBuilder {
  struct Segment {
    std::uint32_t type = 1; // PT_LOAD
    std::uint32_t vaddr = 0;
    std::uint32_t memsz = 0; // PT_LOAD: 0 means bytes.size()
    std::uint32_t flags = 4; // PF_R
    std::uint32_t align = 4;
    std::vector<std::uint8_t> bytes;
  };
  std::uint16_t type = 2;      // ET_EXEC
  std::uint16_t machine = 243; // EM_RISCV
  std::uint32_t entry = 0;
  std::uint32_t flags = 0x2; // single-float ABI, no RVC: what rv32imf/ilp32f boards want
  std::vector<Segment> segments;

  /// Adds code (PF_R|PF_X) made of the given instruction words at `vaddr`.
  ElfBuilder &code(std::uint32_t vaddr, const std::vector<std::uint32_t> &words) {
    Segment s;
    s.vaddr = vaddr;
    s.flags = 5;
    for (std::uint32_t w : words)
      for (int i = 0; i < 4; ++i)
        s.bytes.push_back(std::uint8_t(w >> (8 * i)));
    segments.push_back(s);
    return *this;
  }
  /// Adds data (PF_R|PF_W) at `vaddr`, followed by zeros up to memsz (if larger).
  ElfBuilder &data(std::uint32_t vaddr, const std::vector<std::uint8_t> &bytes, std::uint32_t memsz = 0) {
    Segment s;
    s.vaddr = vaddr;
    s.flags = 6;
    s.bytes = bytes;
    s.memsz = memsz;
    segments.push_back(s);
    return *this;
  }

  std::vector<std::uint8_t> build() const {
    const std::size_t phoff = 52, phnum = segments.size();
    std::size_t pos = phoff + 32 * phnum;
    std::vector<std::size_t> offsets;
    for (const Segment &s : segments) {
      while (pos % 4 != s.vaddr % 4)
        ++pos;
      offsets.push_back(pos);
      pos += s.bytes.size();
    }
    std::vector<std::uint8_t> b(pos, 0);
    const std::uint8_t ident[8] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0};
    std::memcpy(b.data(), ident, sizeof ident);
    put16(b, off::e_type, type);
    put16(b, off::e_machine, machine);
    put32(b, off::e_version, 1);
    put32(b, off::e_entry, entry);
    put32(b, off::e_phoff, std::uint32_t(phoff));
    put32(b, off::e_flags, flags);
    put16(b, off::e_ehsize, 52);
    put16(b, off::e_phentsize, 32);
    put16(b, off::e_phnum, std::uint16_t(phnum));
    for (std::size_t i = 0; i < phnum; ++i) {
      const Segment &s = segments[i];
      put32(b, off::ph(i, off::p_type), s.type);
      put32(b, off::ph(i, off::p_offset), std::uint32_t(offsets[i]));
      put32(b, off::ph(i, off::p_vaddr), s.vaddr);
      put32(b, off::ph(i, off::p_paddr), s.vaddr);
      put32(b, off::ph(i, off::p_filesz), std::uint32_t(s.bytes.size()));
      // A PT_LOAD with memsz 0 gets its file size; other types keep 0, as GNU ld writes them.
      put32(b, off::ph(i, off::p_memsz), s.memsz || s.type != 1 ? s.memsz : std::uint32_t(s.bytes.size()));
      put32(b, off::ph(i, off::p_flags), s.flags);
      put32(b, off::ph(i, off::p_align), s.align);
      if (!s.bytes.empty())
        std::memcpy(b.data() + offsets[i], s.bytes.data(), s.bytes.size());
    }
    return b;
  }
};

/// The valid image the malformed corpus starts from: 4 instructions of code at SRAM base (entry), and a data
/// segment 4 KiB above it with 8 file bytes and 64 bytes of memory (so part of it is bss).
inline ElfBuilder minimalElf(std::uint32_t sramBase = 0x00100000u) {
  ElfBuilder e;
  e.entry = sramBase;
  e.code(sramBase, {rv::addi(rv::a0, rv::zero, 0), rv::csrw(0x807, rv::a0), rv::jal(rv::zero, 0), rv::ebreak});
  e.data(sramBase + 0x1000, {1, 2, 3, 4, 5, 6, 7, 8}, 64);
  return e;
}

} // namespace testing
} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_TESTING_ELF_BUILDER_HPP
