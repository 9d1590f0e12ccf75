// The time model's transfer arithmetic: how many tile cycles the host link and
// the internal exchange take for a number of bytes (docs/architecture.md, "Time
// model"). Integer arithmetic, rounded up, so that the same bytes on the same
// board always cost the same cycles whatever order they are counted in.
#pragma once
#include <cstdint>

#include "ipu_board.h"

namespace ipu::model {

// ceil(a * b / c) without overflow for any 64-bit a, b and c > 0.
inline uint64_t mul_div_ceil(uint64_t a, uint64_t b, uint64_t c)
{
    __extension__ using u128 = unsigned __int128;
    const u128 p = static_cast<u128>(a) * b;
    return static_cast<uint64_t>((p + c - 1) / c);
}

// Cycles of the host link's latency: paid once by every host transfer.
inline uint64_t host_link_latency_cycles(const ipu_board &b)
{
    return mul_div_ceil(b.host_link_latency_ns, b.tile_clock_hz, 1000000000ull);
}

// Cycles the host link is busy moving `bytes` (bandwidth only, no latency).
inline uint64_t host_link_busy_cycles(const ipu_board &b, uint64_t bytes)
{
    return bytes ? mul_div_ceil(bytes, b.tile_clock_hz, b.host_link_bytes_per_second) : 0;
}

// Cycles from the request of one host transfer of `bytes` to its completion.
inline uint64_t host_link_transfer_cycles(const ipu_board &b, uint64_t bytes)
{
    return host_link_latency_cycles(b) + host_link_busy_cycles(b, bytes);
}

// Cycles a tile's exchange port needs to send or receive `bytes`.
inline uint64_t exchange_cycles(uint32_t bytes_per_cycle, uint64_t bytes)
{
    return (bytes + bytes_per_cycle - 1) / bytes_per_cycle;
}

} // namespace ipu::model
