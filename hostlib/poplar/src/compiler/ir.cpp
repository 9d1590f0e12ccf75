// Internal: helpers that fill a buffer's initial contents in the intermediate form.
#include "ir.hpp"

#include <cstring>

namespace poplar::detail::ir {

void initialise(Buffer &b) {
  if (!b.initialised) {
    b.initialised = true;
    b.bytes.assign(b.size, 0);
  }
}

void putBytes(Buffer &b, std::uint32_t at, const void *data, std::size_t len) {
  initialise(b);
  std::memcpy(b.bytes.data() + at, data, len);
}

void put32(Buffer &b, std::uint32_t at, std::uint32_t value) { putBytes(b, at, &value, 4); }

void putAddr(Buffer &b, std::uint32_t at, Ref target) {
  initialise(b);
  b.relocs.push_back(Reloc{at, target});
}

} // namespace poplar::detail::ir
