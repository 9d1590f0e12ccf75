// Internal: an allocator of zeroed memory for tile images (TileBytes in compiler.hpp).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

namespace poplar::detail {

/// An allocator of zeroed memory that leaves elements it makes without a value alone. A tile's image is mostly
/// variables with no initial contents (tutorial 7: 40 MB of matrix over 1,472 tiles), so the zeros should cost no
/// memset and the pages nothing writes should never be touched. calloc gives that only for blocks above malloc's
/// mmap threshold, which glibc raises (up to 32 MiB) as such blocks are freed: a tile image of some tens of KiB
/// then comes from the heap and is cleared byte by byte. So blocks of kMapBytes or more come straight from mmap,
/// whose fresh pages are zero and cost nothing until written; smaller ones from calloc.
/// Correct only for vectors that grow from empty and never shrink: a vector that shrank and grew again within its
/// capacity would keep the old bytes.
template <typename T> struct ZeroedAllocator {
  using value_type = T;
  /// Below 16 KiB (four pages) the system calls cost more than calloc's clearing.
  static constexpr std::size_t kMapBytes = 16 * 1024;
  ZeroedAllocator() = default;
  template <typename U> ZeroedAllocator(const ZeroedAllocator<U> &) noexcept {}
  T *allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T))
      throw std::bad_alloc();
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kMapBytes) {
      void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED)
        throw std::bad_alloc();
      return static_cast<T *>(p);
    }
    if (void *p = std::calloc(n, sizeof(T)))
      return static_cast<T *>(p);
    throw std::bad_alloc();
  }
  /// `n` is what allocate was given (std::allocator_traits promises it), so it tells which call made `p`.
  void deallocate(T *p, std::size_t n) noexcept {
    if (n * sizeof(T) >= kMapBytes)
      ::munmap(p, n * sizeof(T));
    else
      std::free(p);
  }
  template <typename U> void construct(U *) noexcept {} // the block's zero is the value
  template <typename U, typename... Args> void construct(U *p, Args &&...args) {
    ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U> bool operator==(const ZeroedAllocator<U> &) const noexcept { return true; }
};

} // namespace poplar::detail
