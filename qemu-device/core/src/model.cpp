// C ABI of the card model: ipu_model_create and the backend operations table.
#include "ipu_model/model.h"

#include <cerrno>
#include <new>

#include "card.hpp"
#include "ipu_model/observe.hpp"

namespace {

using ipu::model::Card;

struct ModelBackend {
    ipu_backend base; // first: the C interface casts between the two
    Card card;
    ipu::model::RetireHook hook{};
    ipu::model::RetireObserver observer = nullptr;
    void *observer_opaque = nullptr;
    ModelBackend(const ipu_backend_ops *ops, const ipu_board &b, const ipu_backend_host &h,
                 const ipu_backend_options &o)
        : base{ops}, card(b, h, o)
    {
    }
};

Card &card_of(ipu_backend *b) { return reinterpret_cast<ModelBackend *>(b)->card; }

int model_bar_read(ipu_backend *b, unsigned bar, uint64_t offset, unsigned size, uint64_t *value)
{
    return card_of(b).bar_read(bar, offset, size, value);
}

int model_bar_write(ipu_backend *b, unsigned bar, uint64_t offset, unsigned size, uint64_t value)
{
    return card_of(b).bar_write(bar, offset, size, value);
}

int model_advance(ipu_backend *b, uint64_t budget) { return card_of(b).advance(budget); }

void model_destroy(ipu_backend *b) { delete reinterpret_cast<ModelBackend *>(b); }

const ipu_backend_ops model_ops = {"model", model_bar_read, model_bar_write, model_advance, model_destroy};

} // namespace

extern "C" int ipu_model_create(const ipu_board *board, const ipu_backend_host *host,
                                const ipu_backend_options *options, ipu_backend **out)
{
    if (!board || !host || !out || ipu_board_num_tiles(board) == 0 || board->bytes_per_tile == 0 ||
        board->bytes_per_tile > IPU_TILE_SRAM_MAX_BYTES || board->worker_contexts + 1 > IPU_TILE_CONTEXTS_MAX)
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

namespace ipu::model {

int set_retire_observer(ipu_backend *b, RetireObserver observer, void *opaque)
{
    if (!b || b->ops != &model_ops)
        return -EINVAL;
    auto *m = reinterpret_cast<ModelBackend *>(b);
    m->observer = observer;
    m->observer_opaque = opaque;
    m->hook.opaque = m;
    m->hook.retired = [](void *o, const Tile &tile, unsigned context, uint32_t pc, uint32_t insn, unsigned rd,
                         uint32_t rd_value) {
        auto *self = static_cast<ModelBackend *>(o);
        self->observer(self->observer_opaque, RetiredInstruction{tile.id, context, pc, insn, rd, rd_value});
    };
    m->card.set_retire_hook(observer ? &m->hook : nullptr);
    return 0;
}

} // namespace ipu::model
