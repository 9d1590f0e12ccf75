// A file in memory for the readers that take a path (board files, traces): one memfd, rewritten for each input.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ipu::fuzz {

/// Replaces the memory file's contents with `data` and returns a path that opens it ("/proc/self/fd/N").
/// Aborts when the file cannot be made or written (the harness is broken, not the reader).
const char *memoryFile(const std::uint8_t *data, std::size_t size);

} // namespace ipu::fuzz
