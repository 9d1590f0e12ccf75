// A tile's handle on its fast-ISS state (iss_fast.cpp): the ISS mode chosen by
// IPU_EMU_ISS and the cache of pre-decoded blocks. Decoded code is derived
// state, rebuilt on demand from SRAM, so a copied or moved tile (reset, state
// restore) starts with an empty slot and reads the mode again.
#pragma once
#include <cstdint>
#include <memory>

namespace ipu::model {

class BlockCache;

// Which ISS runs a tile's contexts when no retire hook is set (a hook always
// gets the reference interpreter, which reports every instruction). Jit is
// the default. Native (IPU_EMU_ISS=native) is Fast plus hot code compiled to
// host code by cc (iss_native.hpp), waiting for the compiler; Background
// (IPU_EMU_ISS=background) is Fast with that code compiled in the background
// and switched in when ready. Both are opt-in experiments. Jit
// (IPU_EMU_ISS=jit) is Fast with each block translated to x86-64 code in the
// process (iss_jit.hpp); it starts no process either.
enum class IssMode { Unset, Interp, Fast, Native, Background, Jit };

class IssCacheSlot {
public:
    IssCacheSlot();
    ~IssCacheSlot();
    IssCacheSlot(const IssCacheSlot &);
    IssCacheSlot &operator=(const IssCacheSlot &);
    IssCacheSlot(IssCacheSlot &&) noexcept;
    IssCacheSlot &operator=(IssCacheSlot &&) noexcept;

    // Something outside the ISS wrote `len` bytes at tile address `addr`:
    // blocks decoded from them are dropped (cheap when no code is there).
    void written(uint32_t addr, uint32_t len);
    // The reference interpreter stored `len` bytes at `addr`: as written(),
    // inline for the common case of a tile with no decoded blocks.
    void stored(uint32_t addr, uint32_t len)
    {
        if (cache)
            written(addr, len);
    }
    // SRAM may have changed anywhere, by a writer that cannot say where (a
    // test poking SRAM directly): each block compares its code bytes with
    // SRAM again before it next runs. The card's own writers (DMA, BAR2,
    // exchange, host exchange) and the reference interpreter's stores call
    // written() instead, so a host sync or a new run keeps every block.
    void maybe_changed();

    IssMode mode = IssMode::Unset;
    std::unique_ptr<BlockCache> cache;
};

} // namespace ipu::model
