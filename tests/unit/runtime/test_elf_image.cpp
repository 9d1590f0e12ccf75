// Unit tests of the tile ELF loader: a corpus of malformed ELFs, each rejected with its own field and message,
// with tile memory untouched; plus the valid cases the loader must accept.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

#include "elf_builder.hpp"
#include "ipu_board.h"
#include "ipu_runtime/elf_image.hpp"
#include "ipu_runtime/tile_elf.h"
#include "ipu_runtime/tile_image.hpp"

// cmocka.h defines fail() and friends as macros, so it comes after the C++ headers.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h> // cmocka 1.1 declares some functions without C linkage for C++
}

using namespace ipu::runtime;
using namespace ipu::runtime::testing;

namespace {

constexpr std::uint32_t kBase = 0x00100000u;

ElfTarget tinyTarget() {
  ipu_board board;
  ipu_board_default(&board);
  return ElfTarget::fromBoard(board);
}

// Four tiles of fake SRAM filled with a pattern, so that any write shows.
struct FakeCard {
  std::vector<std::vector<std::uint8_t>> sram;
  explicit FakeCard(const ElfTarget &t) : sram(4, std::vector<std::uint8_t>(t.sramBytes, 0xa5)) {}
  bool untouched() const {
    for (const auto &m : sram)
      for (std::uint8_t b : m)
        if (b != 0xa5)
          return false;
    return true;
  }
  // Parse, plan and write: the path the runtime takes, minus the driver.
  void load(const std::vector<std::uint8_t> &elf, const ElfTarget &t) {
    const TileImage img = parseTileElf(elf.data(), elf.size(), t, "case.elf");
    const UploadPlan plan = planUpload(DeviceImage::fromElf(img, {0, 1, 2, 3}), t, 4);
    forEachTileWrite(plan, [&](std::uint32_t tile, std::uint32_t addr, const std::uint8_t *p, std::uint32_t n) {
      std::memcpy(sram[tile].data() + (addr - t.sramBase), p, n);
    });
  }
};

// One malformed-ELF case: how to break the minimal image, and what the rejection must say.
struct MalformedCase {
  const char *name;
  std::function<void(std::vector<std::uint8_t> &, ElfTarget &)> mutate;
  const char *field;      // elf_error::field(), exactly
  const char *fragment;   // must appear in what()
  std::uint64_t value;    // elf_error::value()
};

void runMalformed(void **state) {
  const MalformedCase &c = *static_cast<const MalformedCase *>(*state);
  std::vector<std::uint8_t> elf = minimalElf().build();
  ElfTarget t = tinyTarget();
  c.mutate(elf, t);
  FakeCard card(t);
  bool threw = false;
  try {
    card.load(elf, t);
  } catch (const elf_error &e) {
    threw = true;
    std::printf("    %s -> %s\n", c.name, e.what());
    if (e.field() != c.field)
      fail_msg("case %s: field '%s', expected '%s' (%s)", c.name, e.field().c_str(), c.field, e.what());
    if (!std::strstr(e.what(), c.fragment))
      fail_msg("case %s: message '%s' lacks '%s'", c.name, e.what(), c.fragment);
    if (!std::strstr(e.what(), "case.elf: "))
      fail_msg("case %s: message '%s' does not name the file", c.name, e.what());
    if (e.value() != c.value)
      fail_msg("case %s: value 0x%llx, expected 0x%llx", c.name, (unsigned long long)e.value(),
               (unsigned long long)c.value);
  }
  if (!threw)
    fail_msg("case %s: accepted", c.name);
  assert_true(card.untouched());
}

using Bytes = std::vector<std::uint8_t>;
void resize(Bytes &b, std::size_t n) { b.resize(n); }

// The corpus. Program header 0 is the code segment, 1 the data segment (see minimalElf()).
const std::vector<MalformedCase> &corpus() {
  static const std::vector<MalformedCase> cases = {
      {"empty_file", [](Bytes &b, ElfTarget &) { b.clear(); }, "file size", "shorter than the 52-byte ELF32 header", 0},
      {"truncated_header", [](Bytes &b, ElfTarget &) { resize(b, 51); }, "file size", "truncated or not an ELF", 51},
      {"truncated_program_headers", [](Bytes &b, ElfTarget &) { resize(b, 52 + 40); }, "e_phoff",
       "program-header table (2 x 32 bytes) does not fit in the 92-byte file", 52},
      {"truncated_segment_data", [](Bytes &b, ElfTarget &) { resize(b, b.size() - 1); }, "program header 1 p_offset",
       "run past the end", 0x84},
      {"file_too_large", [](Bytes &, ElfTarget &t) { t.maxFileBytes = 100; }, "file size", "100-byte limit", 140},
      {"bad_magic", [](Bytes &b, ElfTarget &) { b[1] = 'X'; }, "e_ident[EI_MAG]", "bad magic", 0x464c587f},
      {"class_64", [](Bytes &b, ElfTarget &) { b[off::e_ident_class] = 2; }, "e_ident[EI_CLASS]", "not ELFCLASS32", 2},
      {"class_none", [](Bytes &b, ElfTarget &) { b[off::e_ident_class] = 0; }, "e_ident[EI_CLASS]", "-march=rv32imf", 0},
      {"big_endian", [](Bytes &b, ElfTarget &) { b[off::e_ident_data] = 2; }, "e_ident[EI_DATA]", "little-endian", 2},
      {"ident_version", [](Bytes &b, ElfTarget &) { b[off::e_ident_version] = 0; }, "e_ident[EI_VERSION]",
       "not EV_CURRENT", 0},
      {"os_abi_linux", [](Bytes &b, ElfTarget &) { b[off::e_ident_osabi] = 3; }, "e_ident[EI_OSABI]", "bare-metal", 3},
      {"type_shared_object", [](Bytes &b, ElfTarget &) { put16(b, off::e_type, 3); }, "e_type", "not ET_EXEC", 3},
      {"type_relocatable", [](Bytes &b, ElfTarget &) { put16(b, off::e_type, 1); }, "e_type", "static executable", 1},
      {"machine_x86_64", [](Bytes &b, ElfTarget &) { put16(b, off::e_machine, 62); }, "e_machine", "not EM_RISCV", 62},
      {"e_version_zero", [](Bytes &b, ElfTarget &) { put32(b, off::e_version, 0); }, "e_version", "EV_CURRENT", 0},
      {"ehsize_wrong", [](Bytes &b, ElfTarget &) { put16(b, off::e_ehsize, 64); }, "e_ehsize", "not 52", 64},
      {"flags_unknown_bits", [](Bytes &b, ElfTarget &) { put32(b, off::e_flags, 0x102); }, "e_flags",
       "bits outside", 0x102},
      {"flags_rvc_without_c", [](Bytes &b, ElfTarget &) { put32(b, off::e_flags, 0x3); }, "e_flags",
       "EF_RISCV_RVC is set but the board's ISA \"rv32imf\" has no C extension", 0x3},
      {"flags_soft_float", [](Bytes &b, ElfTarget &) { put32(b, off::e_flags, 0x0); }, "e_flags",
       "float ABI is soft-float (ilp32) but the board needs single-float (ilp32f)", 0x0},
      {"flags_double_float", [](Bytes &b, ElfTarget &) { put32(b, off::e_flags, 0x4); }, "e_flags",
       "-mabi=ilp32f", 0x4},
      {"flags_rve", [](Bytes &b, ElfTarget &) { put32(b, off::e_flags, 0xa); }, "e_flags", "EF_RISCV_RVE is set", 0xa},
      {"phentsize_wrong", [](Bytes &b, ElfTarget &) { put16(b, off::e_phentsize, 56); }, "e_phentsize",
       "not 32", 56},
      {"phnum_zero", [](Bytes &b, ElfTarget &) { put16(b, off::e_phnum, 0); }, "e_phnum", "no program headers", 0},
      {"phnum_xnum", [](Bytes &b, ElfTarget &) { put16(b, off::e_phnum, 0xffff); }, "e_phnum", "PN_XNUM", 0xffff},
      {"phnum_too_many", [](Bytes &b, ElfTarget &) { put16(b, off::e_phnum, 65); }, "e_phnum",
       "more than the 64 program headers", 65},
      {"phnum_past_end", [](Bytes &b, ElfTarget &) { put16(b, off::e_phnum, 40); }, "e_phoff",
       "(40 x 32 bytes) does not fit", 52},
      {"phoff_overflow", [](Bytes &b, ElfTarget &) { put32(b, off::e_phoff, 0xfffffff0u); }, "e_phoff",
       "does not fit", 0xfffffff0u},
      {"phoff_misaligned", [](Bytes &b, ElfTarget &) { put32(b, off::e_phoff, 54); }, "e_phoff", "not 4-byte aligned",
       54},
      {"shoff_past_end", [](Bytes &b, ElfTarget &) { put32(b, off::e_shoff, 0x1000); put16(b, off::e_shnum, 3);
         put16(b, off::e_shentsize, 40); }, "e_shoff", "section-header table (3 x 40 bytes)", 0x1000},
      {"shoff_overflow", [](Bytes &b, ElfTarget &) { put32(b, off::e_shoff, 0xffffffffu); put16(b, off::e_shnum, 1);
         put16(b, off::e_shentsize, 40); }, "e_shoff", "does not fit", 0xffffffffu},
      {"shentsize_wrong", [](Bytes &b, ElfTarget &) { put16(b, off::e_shnum, 1); put16(b, off::e_shentsize, 64); },
       "e_shentsize", "not 40", 64},
      {"shnum_extended", [](Bytes &b, ElfTarget &) { put16(b, off::e_shnum, 0xff00); put16(b, off::e_shentsize, 40); },
       "e_shnum", "extended section numbering", 0xff00},
      {"shstrndx_out_of_range", [](Bytes &b, ElfTarget &) { put32(b, off::e_shoff, 52); put16(b, off::e_shnum, 1);
         put16(b, off::e_shentsize, 40); put16(b, off::e_shstrndx, 1); }, "e_shstrndx", "not below e_shnum (1)", 1},
      {"dynamic_segment", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_type), 2); },
       "program header 1 p_type", "link with -static", 2},
      {"interp_segment", [](Bytes &b, ElfTarget &) { put32(b, off::ph(0, off::p_type), 3); },
       "program header 0 p_type", "dynamic linking", 3},
      {"segment_offset_past_end", [](Bytes &b, ElfTarget &) { put32(b, off::ph(0, off::p_offset), 0x10000); },
       "program header 0 p_offset", "with p_filesz 16 the segment's bytes run past the end of the 140-byte file",
       0x10000},
      {"segment_offset_overflow", [](Bytes &b, ElfTarget &) { put32(b, off::ph(0, off::p_offset), 0xffffffffu);
         put32(b, off::ph(0, off::p_filesz), 2); }, "program header 0 p_offset", "run past the end", 0xffffffffu},
      {"segment_filesz_overflow", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_filesz), 0xfffffff8u);
         put32(b, off::ph(1, off::p_memsz), 0xfffffff8u); }, "program header 1 p_offset", "p_filesz 4294967288",
       0x84},
      {"filesz_above_memsz", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_memsz), 4); },
       "program header 1 p_filesz", "larger than p_memsz (4)", 8},
      {"align_not_power_of_two", [](Bytes &b, ElfTarget &) { put32(b, off::ph(0, off::p_align), 12); },
       "program header 0 p_align", "not a power of two", 12},
      {"align_incongruent", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_align), 0x1000); },
       "program header 1 p_vaddr", "not congruent to p_offset (0x84) modulo p_align (4096)", kBase + 0x1000},
      {"segment_flags_unknown", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_flags), 0x16); },
       "program header 1 p_flags", "PF_R|PF_W|PF_X", 0x16},
      {"segment_below_sram", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_vaddr), 0x1000); },
       "program header 1 p_vaddr", "not inside tile SRAM [0x100000, 0x110000)", 0x1000},
      {"segment_straddles_sram_base", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_vaddr), kBase - 8); },
       "program header 1 p_vaddr", "with p_memsz 64 the segment is not inside tile SRAM", kBase - 8},
      {"segment_past_sram_end", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_vaddr), kBase + 0x10000 - 32); },
       "program header 1 p_vaddr", "not inside tile SRAM", kBase + 0x10000 - 32},
      {"segment_memsz_wraps", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_memsz), 0xfffff008u); },
       "program header 1 p_vaddr", "with p_memsz 4294963208", kBase + 0x1000},
      {"segment_in_reserved_range", [](Bytes &, ElfTarget &t) { t.reserved.push_back({kBase + 0x1020, 0x100,
         "host-exchange area"}); }, "program header 1 p_vaddr",
       "overlaps the reserved host-exchange area [0x101020, 0x101120)", kBase + 0x1000},
      {"segments_overlap", [](Bytes &b, ElfTarget &) { put32(b, off::ph(1, off::p_vaddr), kBase + 8); },
       "p_vaddr", "overlaps the one at [0x100000, 0x100010)", kBase + 8},
      {"no_loadable_segment", [](Bytes &b, ElfTarget &) { put32(b, off::ph(0, off::p_type), 4);
         put32(b, off::ph(1, off::p_type), 4); }, "e_phnum", "none of the program headers is a non-empty PT_LOAD", 2},
      {"entry_in_data", [](Bytes &b, ElfTarget &) { put32(b, off::e_entry, kBase + 0x1000); }, "e_entry",
       "not inside the file bytes of an executable (PF_X) PT_LOAD segment", kBase + 0x1000},
      {"entry_outside_segments", [](Bytes &b, ElfTarget &) { put32(b, off::e_entry, kBase + 0x8000); }, "e_entry",
       "check the linker script's ENTRY", kBase + 0x8000},
      {"entry_past_code_end", [](Bytes &b, ElfTarget &) { put32(b, off::e_entry, kBase + 16); }, "e_entry",
       "executable (PF_X)", kBase + 16},
      {"entry_zero", [](Bytes &b, ElfTarget &) { put32(b, off::e_entry, 0); }, "e_entry", "executable", 0},
      {"entry_misaligned", [](Bytes &b, ElfTarget &) { put32(b, off::e_entry, kBase + 2); }, "e_entry",
       "not 4-byte aligned", kBase + 2},
      {"code_not_executable", [](Bytes &b, ElfTarget &) { put32(b, off::ph(0, off::p_flags), 4); }, "e_entry",
       "executable (PF_X)", kBase},
  };
  return cases;
}

// ---- valid images --------------------------------------------------------------------------------------------

void test_minimal_parses(void **) {
  const Bytes elf = minimalElf().build();
  const TileImage img = parseTileElf(elf.data(), elf.size(), tinyTarget(), "min");
  assert_int_equal(img.entry, kBase);
  assert_int_equal(img.flags, 0x2);
  assert_int_equal(img.segments.size(), 2);
  assert_int_equal(img.segments[0].vaddr, kBase);
  assert_int_equal(img.segments[0].memsz, 16);
  assert_true(img.segments[0].executable());
  assert_int_equal(img.segments[1].vaddr, kBase + 0x1000);
  assert_int_equal(img.segments[1].bytes.size(), 8);
  assert_int_equal(img.segments[1].memsz, 64);
  assert_false(img.segments[1].executable());
  assert_int_equal(img.loadBytes(), 80);
}

void test_segments_sorted_and_extras_ignored(void **) {
  ElfBuilder e;
  e.entry = kBase + 0x2000;
  e.data(kBase + 0x100, {9, 9, 9, 9});
  e.code(kBase + 0x2000, {rv::ebreak});
  ElfBuilder::Segment note; // PT_NOTE, PT_GNU_STACK and an empty PT_LOAD are allowed and ignored
  note.type = 4;
  note.bytes = {1, 2, 3, 4};
  e.segments.push_back(note);
  ElfBuilder::Segment attributes; // as GNU ld writes it: file bytes, p_memsz 0, address 0
  attributes.type = 0x70000003;
  attributes.bytes = {0x41, 0x3b, 0, 0, 0, 0x72, 0x69, 0x73};
  attributes.align = 1;
  e.segments.push_back(attributes);
  ElfBuilder::Segment stack;
  stack.type = 0x6474e551;
  e.segments.push_back(stack);
  ElfBuilder::Segment empty;
  empty.vaddr = 0; // outside SRAM, but it occupies nothing
  e.segments.push_back(empty);
  const Bytes elf = e.build();
  const TileImage img = parseTileElf(elf.data(), elf.size(), tinyTarget());
  assert_int_equal(img.segments.size(), 2);
  assert_int_equal(img.segments[0].vaddr, kBase + 0x100);
  assert_int_equal(img.segments[1].vaddr, kBase + 0x2000);
}

void test_segment_filling_all_sram(void **) {
  ElfBuilder e;
  e.entry = kBase;
  e.code(kBase, {rv::ebreak});
  e.segments[0].memsz = 0x10000; // exactly the tiny board's SRAM
  const Bytes elf = e.build();
  const TileImage img = parseTileElf(elf.data(), elf.size(), tinyTarget());
  assert_int_equal(img.segments[0].end(), kBase + 0x10000);
}

void test_rvc_board_accepts_rvc_and_2_aligned_entry(void **) {
  ipu_board board;
  ipu_board_default(&board);
  std::strcpy(board.isa, "rv32imafc_zicsr");
  const ElfTarget t = ElfTarget::fromBoard(board);
  assert_true(t.compressed);
  ElfBuilder e = minimalElf();
  e.flags = 0x3;
  e.entry = kBase + 2;
  const Bytes elf = e.build();
  assert_int_equal(parseTileElf(elf.data(), elf.size(), t).entry, kBase + 2);
}

void test_board_targets(void **) {
  ipu_board board;
  ipu_board_default(&board);
  ElfTarget t = ElfTarget::fromBoard(board);
  assert_int_equal(t.sramBase, kBase);
  assert_int_equal(t.sramBytes, board.bytes_per_tile);
  assert_int_equal(t.floatAbi, 0x2);
  assert_false(t.compressed);
  std::strcpy(board.isa, "rv32im");
  std::strcpy(board.abi, "ilp32");
  t = ElfTarget::fromBoard(board);
  assert_int_equal(t.floatAbi, 0);
  // ilp32f on an ISA without F cannot be checked against: the board itself is wrong.
  std::strcpy(board.abi, "ilp32f");
  try {
    ElfTarget::fromBoard(board);
    fail_msg("rv32im with ilp32f accepted");
  } catch (const application_runtime_error &e) {
    assert_non_null(std::strstr(e.what(), "abi = \"ilp32f\""));
  }
  std::strcpy(board.isa, "rv64gc");
  try {
    ElfTarget::fromBoard(board);
    fail_msg("rv64 accepted");
  } catch (const application_runtime_error &e) {
    assert_non_null(std::strstr(e.what(), "isa = \"rv64gc\""));
  }
}

void test_load_from_file(void **) {
  char path[] = "/tmp/ipu_rt_elfXXXXXX";
  const int fd = mkstemp(path);
  assert_true(fd >= 0);
  const Bytes elf = minimalElf().build();
  assert_int_equal(write(fd, elf.data(), elf.size()), (ssize_t)elf.size());
  close(fd);
  const TileImage img = loadTileElf(path, tinyTarget());
  assert_string_equal(img.name.c_str(), path);
  assert_int_equal(img.segments.size(), 2);
  unlink(path);
  try {
    loadTileElf(path, tinyTarget());
    fail_msg("missing file accepted");
  } catch (const application_runtime_error &e) {
    assert_non_null(std::strstr(e.what(), "cannot open the tile ELF"));
    assert_non_null(std::strstr(e.what(), path));
  }
}

// The C face (tile_elf.h) gives what parseTileElf gives, each segment padded to its memory size, and reports a
// refusal in the caller's buffer.
void test_c_face(void **) {
  const Bytes elf = minimalElf().build();
  ipu_board board;
  ipu_board_default(&board);
  char err[256] = "";
  ipu_tile_elf *img = ipu_tile_elf_parse(elf.data(), elf.size(), "c.elf", &board, err, sizeof err);
  assert_non_null(img);
  assert_int_equal(ipu_tile_elf_entry(img), kBase);
  assert_int_equal(ipu_tile_elf_num_segments(img), 2);
  const ipu_tile_elf_segment *data = ipu_tile_elf_get_segment(img, 1);
  assert_int_equal(data->vaddr, kBase + 0x1000);
  assert_int_equal(data->memsz, 64);
  for (std::uint32_t i = 8; i < data->memsz; ++i)
    assert_int_equal(data->data[i], 0);
  assert_null(ipu_tile_elf_get_segment(img, 2));
  ipu_tile_elf_free(img);

  assert_null(ipu_tile_elf_parse(elf.data(), 20, "c.elf", &board, err, sizeof err));
  assert_non_null(std::strstr(err, "c.elf: file size = 20"));
  assert_null(ipu_tile_elf_parse(elf.data(), elf.size(), "c.elf", nullptr, err, sizeof err));
  assert_non_null(std::strstr(err, "no board"));
  assert_null(ipu_tile_elf_load("/nonexistent/x.elf", &board, err, sizeof err));
  assert_non_null(std::strstr(err, "cannot open the tile ELF"));
}

// tileElfSymbols: no section table gives no symbols; a section table that runs past the file is refused.
void test_symbols_bounds(void **) {
  Bytes elf = minimalElf().build();
  assert_true(tileElfSymbols(elf.data(), elf.size()).empty());
  put32(elf, 32, std::uint32_t(elf.size() - 8)); // e_shoff near the end
  elf[46] = 40;                                  // e_shentsize
  elf[48] = 2;                                   // e_shnum
  try {
    tileElfSymbols(elf.data(), elf.size(), "s.elf");
    fail_msg("a section table past the end was accepted");
  } catch (const elf_error &e) {
    assert_string_equal(e.field().c_str(), "e_shoff");
  }
}

// Every ELF the tile toolchain built (firmware examples and tests): real linker output must pass every check. A
// build without the tile toolchain sets no IPU_TILE_ELF_DIR and the case skips (which fails a CI run); a folder that
// is named but missing or holds no ELF fails.
void test_toolchain_elfs_accepted(void **) {
  const char *dir = std::getenv("IPU_TILE_ELF_DIR");
  if (!dir || !*dir) {
    std::printf("    IPU_TILE_ELF_DIR not set (no tile toolchain in this build): skipped\n");
    skip();
  }
  DIR *d = opendir(dir);
  if (!d)
    fail_msg("IPU_TILE_ELF_DIR names %s, which does not exist: the tile build did not run", dir);
  int n = 0;
  while (const dirent *e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".elf") != 0)
      continue;
    const std::string path = std::string(dir) + "/" + name;
    try {
      const TileImage img = loadTileElf(path, tinyTarget());
      std::printf("    %s: %zu segment(s), %llu bytes, entry 0x%x\n", name.c_str(), img.segments.size(),
                  (unsigned long long)img.loadBytes(), img.entry);
      // The symbol reader finds the entry's label in linker output (the tests look up labels this way).
      std::FILE *f = std::fopen(path.c_str(), "rb");
      assert_non_null(f);
      Bytes bytes(std::size_t(1) << 20);
      bytes.resize(std::fread(bytes.data(), 1, bytes.size(), f));
      std::fclose(f);
      const auto symbols = tileElfSymbols(bytes.data(), bytes.size(), path);
      const auto start = symbols.find("_start");
      if (start == symbols.end() || start->second != img.entry)
        fail_msg("%s: _start is not the entry point in the symbol table (%zu symbols read)", path.c_str(),
                 symbols.size());
      ++n;
    } catch (const elf_error &err) {
      closedir(d);
      fail_msg("toolchain ELF rejected: %s", err.what());
    }
  }
  closedir(d);
  std::printf("    %d toolchain ELF(s) accepted\n", n);
  if (n == 0)
    fail_msg("no .elf in %s: the check saw no toolchain ELF", dir);
}

// A rejection from every malformed case is distinct: the corpus does not test one check many times by accident.
void test_messages_distinct(void **) {
  std::vector<std::string> seen;
  for (const MalformedCase &c : corpus()) {
    Bytes elf = minimalElf().build();
    ElfTarget t = tinyTarget();
    c.mutate(elf, t);
    try {
      parseTileElf(elf.data(), elf.size(), t, "case.elf");
    } catch (const elf_error &e) {
      for (const std::string &s : seen)
        if (s == e.what())
          fail_msg("case %s repeats the message '%s'", c.name, e.what());
      seen.push_back(e.what());
    }
  }
}

} // namespace

int main(void) {
  std::vector<CMUnitTest> tests;
  for (const MalformedCase &c : corpus()) {
    CMUnitTest t{};
    t.name = c.name;
    t.test_func = runMalformed;
    t.initial_state = const_cast<MalformedCase *>(&c);
    tests.push_back(t);
  }
  const CMUnitTest valid[] = {
      cmocka_unit_test(test_minimal_parses),
      cmocka_unit_test(test_segments_sorted_and_extras_ignored),
      cmocka_unit_test(test_segment_filling_all_sram),
      cmocka_unit_test(test_rvc_board_accepts_rvc_and_2_aligned_entry),
      cmocka_unit_test(test_board_targets),
      cmocka_unit_test(test_load_from_file),
      cmocka_unit_test(test_messages_distinct),
      cmocka_unit_test(test_c_face),
      cmocka_unit_test(test_symbols_bounds),
      cmocka_unit_test(test_toolchain_elfs_accepted),
  };
  tests.insert(tests.end(), std::begin(valid), std::end(valid));
  return _cmocka_run_group_tests("runtime_elf_image", tests.data(), tests.size(), nullptr, nullptr);
}
