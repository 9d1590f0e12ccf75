// Limits of the profile readers (JSON and CBOR), which recurse once per nesting level.
#pragma once

namespace poplar {

/// The deepest nesting of arrays and maps a profile file may have. The profiles libpoplar writes nest fewer than
/// ten levels; the limit keeps a crafted file (30,000 nested arrays) from exhausting the reader's stack.
constexpr unsigned kProfileMaxDepth = 512;

} // namespace poplar
