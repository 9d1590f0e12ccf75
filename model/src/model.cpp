// C ABI of the card model: ipu_model_create and the backend operations table.
#include "ipu_model/model.h"
#include "ipu_model/inject.h"

#include <cerrno>
#include <new>

#include "card.hpp"
#include "ipu_card/backend_class.hpp"

namespace {

using ipu::model::Tile;

// Save/restore and fault injection are the model's own; the table comes from
// these members (ipu_card/backend_class.hpp).
struct ModelBackend : ipu::backend::Card {
    ipu::model::Card card; // spelt out: Card alone is the base
    ipu::model::RetireHook hook{};
    ipu_retire_observer observer = nullptr;
    void *observer_opaque = nullptr;
    ModelBackend(const ipu_backend_ops *ops, const ipu_board &b, const ipu_backend_host &h,
                 const ipu_backend_options &o)
        : ipu::backend::Card(ops), card(b, h, o)
    {
    }

    int bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value)
    {
        return card.bar_read(bar, offset, size, value);
    }
    int bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value)
    {
        return card.bar_write(bar, offset, size, value);
    }
    int advance(uint64_t budget) { return card.advance(budget); }
    int set_retire_observer(ipu_retire_observer o, void *opaque);
    size_t save_size() { return card.save_size(); }
    int save(void *buf, size_t len) { return card.save(buf, len); }
    int restore(const void *buf, size_t len) { return card.restore(buf, len); }
    int inject(const ipu_backend_faults *faults)
    {
        if (faults->dma_error > 255 || faults->drop_irq_mask >> IPU_PCI_MSIX_VECTORS ||
            faults->delay_irq_mask >> IPU_PCI_MSIX_VECTORS)
            return -EINVAL;
        card.set_faults(*faults);
        return 0;
    }
    int injected(ipu_backend_faults *faults)
    {
        *faults = card.faults();
        return 0;
    }
};

// The ISS's retire hook, as the contract's retire event. The model cannot stop
// inside a slice, so the observer's return value is not acted on.
void model_retired(void *o, const Tile &tile, unsigned context, uint32_t pc, uint32_t insn, unsigned rd,
                   uint32_t rd_value, uint64_t cycle)
{
    auto *m = static_cast<ModelBackend *>(o);
    const ipu_retire_event ev{tile.id, context, pc, insn, rd, rd_value, cycle};
    m->observer(m->observer_opaque, &ev);
}

int ModelBackend::set_retire_observer(ipu_retire_observer o, void *opaque)
{
    // Cleared first: the card never sees a hook half set.
    card.set_retire_hook(nullptr);
    observer = o;
    observer_opaque = opaque;
    hook = ipu::model::RetireHook{this, model_retired};
    if (o)
        card.set_retire_hook(&hook);
    return 0;
}

constexpr ipu_backend_ops model_ops = ipu::backend::ops_of<ModelBackend>("model");

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
