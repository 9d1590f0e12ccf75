// libFuzzer entry point for the tile ELF loader: any input must either be rejected with elf_error or give an
// image that independently satisfies every promise of parseTileElf() and can be planned for upload.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "ipu_board.h"
#include "ipu_runtime/elf_image.hpp"
#include "ipu_runtime/tile_image.hpp"

using namespace ipu::runtime;

namespace {

const ElfTarget &target() {
  static const ElfTarget t = [] {
    ipu_board board;
    ipu_board_default(&board);
    ElfTarget r = ElfTarget::fromBoard(board);
    r.reserved.push_back({0x0010f000u, 0x100, "fuzz reserved range"});
    return r;
  }();
  return t;
}

[[noreturn]] void broken(const char *what) {
  std::fprintf(stderr, "parseTileElf accepted an image that breaks its contract: %s\n", what);
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const ElfTarget &t = target();
  TileImage img;
  try {
    img = parseTileElf(data, size, t, "fuzz");
  } catch (const elf_error &) {
    return 0; // rejected with a named field: fine
  }
  // Accepted: check the result without trusting the parser.
  const std::uint64_t end = std::uint64_t(t.sramBase) + t.sramBytes;
  bool entryOk = false;
  for (std::size_t i = 0; i < img.segments.size(); ++i) {
    const TileSegment &s = img.segments[i];
    if (s.memsz == 0 || s.bytes.size() > s.memsz)
      broken("segment size");
    if (s.vaddr < t.sramBase || s.end() > end)
      broken("segment outside SRAM");
    if (s.vaddr < 0x0010f100u && s.end() > 0x0010f000u)
      broken("segment in reserved range");
    if (i && img.segments[i - 1].end() > s.vaddr)
      broken("segments unsorted or overlapping");
    if (s.executable() && img.entry >= s.vaddr && std::uint64_t(img.entry) + 4 <= s.vaddr + s.bytes.size())
      entryOk = true;
  }
  if (!entryOk || img.entry % 4)
    broken("entry point");
  try {
    const UploadPlan plan = planUpload(DeviceImage::fromElf(img, {0, 1, 2, 3}), t, 4);
    if (plan.busBytes() != img.loadBytes())
      broken("upload plan sends shared code more than once");
  } catch (const application_runtime_error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    broken("a validated image failed to plan");
  }
  return 0;
}
