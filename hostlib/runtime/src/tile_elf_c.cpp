// The C face of the hardened loader (tile_elf.h): parseTileElf()/loadTileElf() behind an opaque handle, with each
// segment padded to its memory size so that a C caller writes one block per segment.
#include "ipu_runtime/tile_elf.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "ipu_board.h"
#include "ipu_runtime/elf_image.hpp"

struct ipu_tile_elf {
  std::uint32_t entry = 0;
  std::vector<std::vector<std::uint8_t>> memory; // per segment: file bytes then zeros up to memsz
  std::vector<ipu_tile_elf_segment> segments;
};

namespace {

void setError(char *err, std::size_t errLen, const char *message) {
  if (err != nullptr && errLen > 0)
    std::snprintf(err, errLen, "%s", message);
}

// Builds the handle from a validated image, or reports what went wrong; `load` returns the TileImage.
template <typename Load>
ipu_tile_elf *make(const ipu_board *board, char *err, std::size_t errLen, Load load) {
  if (board == nullptr) {
    setError(err, errLen, "no board given: tile ELFs are checked against the board's SRAM, ISA and ABI");
    return nullptr;
  }
  try {
    const ipu::runtime::TileImage img = load(ipu::runtime::ElfTarget::fromBoard(*board));
    auto *out = new ipu_tile_elf;
    out->entry = img.entry;
    out->memory.reserve(img.segments.size());
    for (const ipu::runtime::TileSegment &s : img.segments) {
      std::vector<std::uint8_t> bytes = s.bytes;
      bytes.resize(s.memsz, 0);
      out->memory.push_back(std::move(bytes));
      out->segments.push_back({s.vaddr, s.memsz, s.flags, out->memory.back().data()});
    }
    return out;
  } catch (const std::exception &e) {
    setError(err, errLen, e.what());
  } catch (...) {
    setError(err, errLen, "unknown error while loading the tile ELF");
  }
  return nullptr;
}

} // namespace

extern "C" {

ipu_tile_elf *ipu_tile_elf_load(const char *path, const ipu_board *board, char *err, std::size_t errLen) {
  if (path == nullptr) {
    setError(err, errLen, "no tile ELF path given");
    return nullptr;
  }
  return make(board, err, errLen, [&](const ipu::runtime::ElfTarget &t) { return ipu::runtime::loadTileElf(path, t); });
}

ipu_tile_elf *ipu_tile_elf_parse(const void *data, std::size_t size, const char *name, const ipu_board *board,
                                 char *err, std::size_t errLen) {
  const std::string label = name != nullptr ? name : "tile ELF";
  return make(board, err, errLen,
              [&](const ipu::runtime::ElfTarget &t) { return ipu::runtime::parseTileElf(data, size, t, label); });
}

std::uint32_t ipu_tile_elf_entry(const ipu_tile_elf *image) { return image != nullptr ? image->entry : 0; }

std::size_t ipu_tile_elf_num_segments(const ipu_tile_elf *image) {
  return image != nullptr ? image->segments.size() : 0;
}

const ipu_tile_elf_segment *ipu_tile_elf_get_segment(const ipu_tile_elf *image, std::size_t i) {
  return image != nullptr && i < image->segments.size() ? &image->segments[i] : nullptr;
}

void ipu_tile_elf_free(ipu_tile_elf *image) { delete image; }

} // extern "C"
