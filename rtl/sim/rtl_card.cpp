// C ABI of the RTL card: ipu_rtl_create and the backend operations table.
#include "ipu_rtl/rtl.h"

#include <cerrno>
#include <mutex>
#include <new>

#include "ipu_board.h"
#include "ipu_card/backend_class.hpp"
#include "rtl_card.hpp"

namespace {

using ipu::rtl::CardIf;

// Every operation under one lock (backend.h: a host may call from two
// threads). A snapshot of the RTL card would be every flip-flop and memory of
// the Verilated model; Verilator can only save a whole model to a file
// (--savable, which this build does not enable) and not a running bus
// transaction, so the RTL card does not offer save/restore. Faults are the
// model's (its DMA engine and interrupt paths are software); the RTL has no
// injection points. Both are refused by the base.
struct RtlBackend : ipu::backend::Card {
    std::unique_ptr<CardIf> card;
    std::recursive_mutex lock;
    using Guard = std::lock_guard<std::recursive_mutex>;

    int bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value)
    {
        Guard g(lock);
        return card->bar_read(bar, offset, size, value);
    }
    int bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value)
    {
        Guard g(lock);
        return card->bar_write(bar, offset, size, value);
    }
    int advance(uint64_t budget)
    {
        Guard g(lock);
        return card->advance(budget);
    }
    int set_retire_observer(ipu_retire_observer observer, void *opaque)
    {
        Guard g(lock);
        card->set_observer(observer, opaque);
        return 0;
    }
};

constexpr ipu_backend_ops rtl_ops = ipu::backend::ops_of<RtlBackend>("rtl");

RtlBackend *self(ipu_backend *b) { return ipu::backend::card_of<RtlBackend>(b); }

} // namespace

namespace ipu::rtl {

int create_variant(const Variant &v, const ipu_board &board, const ipu_backend_host &host,
                   const ipu_backend_options *options, ipu_backend **out)
{
    if (v.tiles != ipu_board_num_tiles(&board) || v.sram_bytes != board.bytes_per_tile ||
        v.workers != board.worker_contexts || ipu_board_has_fpu(&board))
        return -EINVAL;
    auto *r = new (std::nothrow) RtlBackend;
    if (!r)
        return -ENOMEM;
    r->base.ops = &rtl_ops;
    const ipu_backend_options defaults{};
    try {
        r->card = v.make(board, host, options ? *options : defaults);
    } catch (const std::bad_alloc &) {
        delete r;
        return -ENOMEM;
    }
    *out = &r->base;
    return 0;
}

} // namespace ipu::rtl

extern "C" int ipu_rtl_create(const ipu_board *board, const ipu_backend_host *host,
                              const ipu_backend_options *options, ipu_backend **out)
{
    if (!board || !host || !out)
        return -EINVAL;
    for (unsigned i = 0; i < ipu::rtl::kNumVariants; i++) {
        const int rc = ipu::rtl::create_variant(ipu::rtl::kVariants[i], *board, *host, options, out);
        if (rc != -EINVAL)
            return rc;
    }
    return -EINVAL; // no Verilated configuration for this board
}

extern "C" uint64_t ipu_rtl_cycles(ipu_backend *b)
{
    if (!b || b->ops != &rtl_ops)
        return 0;
    std::lock_guard<std::recursive_mutex> g(self(b)->lock);
    return self(b)->card->cycles();
}
