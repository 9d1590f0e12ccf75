// The trace file's layout (docs/trace-format.md), shared by the recorder and
// the replayer: a header, then records of a kind byte and little-endian fields.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ipu::trace {

constexpr char kMagic[8] = {'I', 'P', 'U', 'T', 'R', 'A', 'C', 'E'};
constexpr uint32_t kVersion = 1;

enum Kind : uint8_t {
    kBarRead = 1,    // u8 bar, u8 size, u64 offset, u64 value, i32 rc (after the call)
    kBarWrite = 2,   // u8 bar, u8 size, u64 offset, u64 value (before the call)
    kAdvance = 3,    // u64 budget (before the call)
    kAdvanceEnd = 4, // i32 result (after the call)
    kDmaRead = 5,    // u64 bus, u32 len, i32 rc, then len bytes when rc == 0
    kDmaWrite = 6,   // u64 bus, u32 len, i32 rc, then len bytes
    kIrq = 7,        // u32 vector
};

// Appends little-endian fields to a byte buffer.
struct Writer {
    std::vector<uint8_t> bytes;
    template <typename T> void put(T v)
    {
        for (size_t i = 0; i < sizeof(T); i++)
            bytes.push_back(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
    }
    void put_bytes(const void *p, size_t n)
    {
        const auto *b = static_cast<const uint8_t *>(p);
        bytes.insert(bytes.end(), b, b + n);
    }
};

// Reads fields back; `ok` turns false (and stays) when the data runs out.
struct Reader {
    const uint8_t *data;
    size_t size, pos = 0;
    bool ok = true;
    template <typename T> T get()
    {
        if (pos + sizeof(T) > size) {
            ok = false;
            return T{};
        }
        uint64_t v = 0;
        for (size_t i = 0; i < sizeof(T); i++)
            v |= static_cast<uint64_t>(data[pos + i]) << (8 * i);
        pos += sizeof(T);
        return static_cast<T>(v);
    }
    const uint8_t *get_bytes(size_t n)
    {
        if (pos + n > size || pos + n < pos) {
            ok = false;
            return nullptr;
        }
        const uint8_t *p = data + pos;
        pos += n;
        return p;
    }
};

} // namespace ipu::trace
