// C ABI of the card model: ipu_model_create and the backend operations table.
#include "ipu_model/model.h"
#include "ipu_model/inject.h"

#include <cerrno>
#include <new>

#include "card.hpp"

namespace {

using ipu::model::Card;
using ipu::model::Tile;

struct ModelBackend {
    ipu_backend base; // first: the C interface casts between the two
    Card card;
    ipu::model::RetireHook hook{};
    ipu_retire_observer observer = nullptr;
    void *observer_opaque = nullptr;
    ModelBackend(const ipu_backend_ops *ops, const ipu_board &b, const ipu_backend_host &h,
                 const ipu_backend_options &o)
        : base{ops}, card(b, h, o)
    {
    }
};

ModelBackend *self(ipu_backend *b) { return reinterpret_cast<ModelBackend *>(b); }
Card &card_of(ipu_backend *b) { return self(b)->card; }

int model_bar_read(ipu_backend *b, unsigned bar, uint64_t offset, unsigned size, uint64_t *value)
{
    return card_of(b).bar_read(bar, offset, size, value);
}

int model_bar_write(ipu_backend *b, unsigned bar, uint64_t offset, unsigned size, uint64_t value)
{
    return card_of(b).bar_write(bar, offset, size, value);
}

int model_advance(ipu_backend *b, uint64_t budget) { return card_of(b).advance(budget); }

void model_destroy(ipu_backend *b) { delete self(b); }

// The ISS's retire hook, as the contract's retire event. The model cannot stop
// inside a slice, so the observer's return value is not acted on.
void model_retired(void *o, const Tile &tile, unsigned context, uint32_t pc, uint32_t insn, unsigned rd,
                   uint32_t rd_value, uint64_t cycle)
{
    auto *m = static_cast<ModelBackend *>(o);
    const ipu_retire_event ev{tile.id, context, pc, insn, rd, rd_value, cycle};
    m->observer(m->observer_opaque, &ev);
}

int model_set_retire_observer(ipu_backend *b, ipu_retire_observer observer, void *opaque)
{
    ModelBackend *m = self(b);
    // Cleared first: the card never sees a hook half set.
    m->card.set_retire_hook(nullptr);
    m->observer = observer;
    m->observer_opaque = opaque;
    m->hook = ipu::model::RetireHook{m, model_retired};
    if (observer)
        m->card.set_retire_hook(&m->hook);
    return 0;
}

size_t model_save_size(ipu_backend *b) { return card_of(b).save_size(); }
int model_save(ipu_backend *b, void *buf, size_t len) { return card_of(b).save(buf, len); }
int model_restore(ipu_backend *b, const void *buf, size_t len) { return card_of(b).restore(buf, len); }

int model_inject(ipu_backend *b, const ipu_backend_faults *faults)
{
    if (faults->dma_error > 255 || faults->drop_irq_mask >> IPU_PCI_MSIX_VECTORS ||
        faults->delay_irq_mask >> IPU_PCI_MSIX_VECTORS)
        return -EINVAL;
    card_of(b).set_faults(*faults);
    return 0;
}

int model_injected(ipu_backend *b, ipu_backend_faults *faults)
{
    *faults = card_of(b).faults();
    return 0;
}

const ipu_backend_ops model_ops = {
    .name = "model",
    .bar_read = model_bar_read,
    .bar_write = model_bar_write,
    .advance = model_advance,
    .destroy = model_destroy,
    .set_retire_observer = model_set_retire_observer,
    .save_size = model_save_size,
    .save = model_save,
    .restore = model_restore,
    .inject = model_inject,
    .injected = model_injected,
};

} // namespace

extern "C" int ipu_model_create(const ipu_board *board, const ipu_backend_host *host,
                                const ipu_backend_options *options, ipu_backend **out)
{
    // Every field in its board-file range (a board from a trace or an executable is no board file, and a
    // zero bandwidth would divide by zero in the time model), then what the card's arrays hold; compared
    // without adding, so that no field can wrap past a check.
    if (!board || !host || !out || ipu_board_check(board, "ipu_model_create", nullptr, 0) != 0 ||
        board->bytes_per_tile > IPU_TILE_SRAM_MAX_BYTES || board->worker_contexts >= IPU_TILE_CONTEXTS_MAX)
        return -EINVAL;
    const ipu_backend_options defaults{};
    auto *m = new (std::nothrow) ModelBackend(&model_ops, *board, *host, options ? *options : defaults);
    if (!m)
        return -ENOMEM;
    if (!m->card.ok()) {
        delete m;
        return -ENOMEM;
    }
    *out = &m->base;
    return 0;
}


extern "C" uint64_t ipu_model_parallel_phase_ns(void) { return ipu::model::parallel_phase_ns(); }
extern "C" uint64_t ipu_model_phase_ns(enum ipu_model_phase phase) { return ipu::model::phase_ns(phase); }
