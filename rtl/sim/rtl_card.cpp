// C ABI of the RTL card: ipu_rtl_create and the backend operations table.
#include "ipu_rtl/rtl.h"

#include <cerrno>
#include <mutex>
#include <new>

#include "ipu_board.h"
#include "rtl_card.hpp"

namespace {

using ipu::rtl::CardIf;

struct RtlBackend {
    ipu_backend base; // first: the C interface casts between the two
    std::unique_ptr<CardIf> card;
    std::recursive_mutex lock;
};

RtlBackend *self(ipu_backend *b) { return reinterpret_cast<RtlBackend *>(b); }

int rtl_bar_read(ipu_backend *b, unsigned bar, uint64_t offset, unsigned size, uint64_t *value)
{
    std::lock_guard<std::recursive_mutex> g(self(b)->lock);
    return self(b)->card->bar_read(bar, offset, size, value);
}

int rtl_bar_write(ipu_backend *b, unsigned bar, uint64_t offset, unsigned size, uint64_t value)
{
    std::lock_guard<std::recursive_mutex> g(self(b)->lock);
    return self(b)->card->bar_write(bar, offset, size, value);
}

int rtl_advance(ipu_backend *b, uint64_t budget)
{
    std::lock_guard<std::recursive_mutex> g(self(b)->lock);
    return self(b)->card->advance(budget);
}

void rtl_destroy(ipu_backend *b) { delete self(b); }

int rtl_set_retire_observer(ipu_backend *b, ipu_retire_observer observer, void *opaque)
{
    std::lock_guard<std::recursive_mutex> g(self(b)->lock);
    self(b)->card->set_observer(observer, opaque);
    return 0;
}

// A snapshot of the RTL card would be every flip-flop and memory of the
// Verilated model; Verilator can only save a whole model to a file
// (--savable, which this build does not enable) and not a running bus
// transaction, so the RTL card does not offer save/restore.
size_t rtl_save_size(ipu_backend *) { return 0; }
int rtl_save(ipu_backend *, void *, size_t) { return -ENOTSUP; }
int rtl_restore(ipu_backend *, const void *, size_t) { return -ENOTSUP; }
// Faults are the model's (its DMA engine and interrupt paths are software); the RTL has no injection points.
int rtl_inject(ipu_backend *, const ipu_backend_faults *) { return -ENOTSUP; }
int rtl_injected(ipu_backend *, ipu_backend_faults *) { return -ENOTSUP; }

const ipu_backend_ops rtl_ops = {
    .name = "rtl",
    .bar_read = rtl_bar_read,
    .bar_write = rtl_bar_write,
    .advance = rtl_advance,
    .destroy = rtl_destroy,
    .set_retire_observer = rtl_set_retire_observer,
    .save_size = rtl_save_size,
    .save = rtl_save,
    .restore = rtl_restore,
    .inject = rtl_inject,
    .injected = rtl_injected,
};

} // namespace

namespace ipu::rtl {

int create_variant(const Variant &v, const ipu_board &board, const ipu_backend_host &host,
                   const ipu_backend_options *options, ipu_backend **out)
{
    if (v.tiles != ipu_board_num_tiles(&board) || v.sram_bytes != board.bytes_per_tile ||
        v.workers != board.worker_contexts || ipu_board_has_fpu(&board))
        return -EINVAL;
    auto *r = new (std::nothrow) RtlBackend{{&rtl_ops}, nullptr, {}};
    if (!r)
        return -ENOMEM;
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
