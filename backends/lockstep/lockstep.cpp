// Lock-step (see ipu_backends/lockstep.h): a primary card and a secondary card run
// the same program; every instruction the primary retires is compared with the
// secondary's stream for its tile and context. The secondary runs on demand,
// when the primary retires an instruction its queue does not hold yet. In
// the messages the primary is "rtl" and the secondary "model", the pair the
// registry makes; the names come from the cards' operations tables.
//
// A divergence stops both cards and becomes the pair's own fault, so that any
// host (the driver, gc-run, Poplar) sees a failed run: STATUS reads ERROR,
// IRQ_STATUS has ERROR set, and an error record with ERR_LOCKSTEP_DIVERGENCE
// comes first in the error FIFO. RESET clears it (both cards reset).
#include "ipu_backends/lockstep.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <deque>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "ipu_card/backend_class.hpp"
#include "ipu_card/hw.h"

namespace {

constexpr unsigned kMaxContexts = IPU_TILE_CONTEXTS_MAX;
constexpr uint64_t kModelStep = 4096; // secondary instructions per tile per catch-up step

// `rtl` is the primary, `model` the secondary (the registry's pair).
// Save/restore and fault injection are refused by the base: two cards in step
// could be saved as a pair, but the queues of instructions the secondary ran
// ahead would have to be saved too; a fault armed on one card of the pair
// would be a difference by construction.
struct Lockstep : ipu::backend::Card {
    ipu_backend *rtl = nullptr;
    ipu_backend *model = nullptr;
    unsigned tiles = 0;
    std::vector<std::deque<ipu_retire_event>> queues; // per tile * kMaxContexts + context
    ipu_retire_observer user_observer = nullptr;      // the host's own, called after each comparison
    void *user_opaque = nullptr;
    std::string divergence;
    bool diverged = false;
    int divergence_tile = -1; // the tile the divergence is about, -1 for the whole card
    unsigned divergence_context = 0;
    uint32_t divergence_rtl_pc = 0, divergence_model_pc = 0;
    bool reported = false;       // report() printed it and halted both cards
    bool record_pending = false; // the divergence's error record is still in the FIFO
    bool irq_error = false;      // IRQ_STATUS.ERROR for the divergence, until the host acknowledges it
    uint64_t compared = 0;
    std::recursive_mutex lock;

    int bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value);
    int bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value);
    int advance(uint64_t budget);
    int set_retire_observer(ipu_retire_observer observer, void *opaque);

    ~Lockstep()
    {
        if (rtl)
            rtl->ops->destroy(rtl);
        if (model)
            model->ops->destroy(model);
    }
};

Lockstep *self(ipu_backend *b) { return ipu::backend::card_of<Lockstep>(b); }

uint32_t read32(ipu_backend *card, uint32_t offset)
{
    uint32_t v = 0;
    ipu_backend_read32(card, offset, &v);
    return v;
}

bool model_running(Lockstep &l)
{
    return (read32(l.model, IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK) == IPU_CARD_STATE_RUNNING;
}

std::string side(const ipu_backend *card)
{
    return std::string(card->ops->name) + ":";
}

std::string describe(const char *side, uint32_t pc, uint32_t insn, uint32_t rd, uint32_t value)
{
    char buf[160];
    if (rd)
        std::snprintf(buf, sizeof buf, "  %-6s pc %08x insn %08x x%u=%08x\n", side, pc, insn, rd, value);
    else
        std::snprintf(buf, sizeof buf, "  %-6s pc %08x insn %08x\n", side, pc, insn);
    return buf;
}

// CYCLE reads differ by design: the RTL counts real cycles, the model a logical clock.
bool reads_cycle_counter(uint32_t insn)
{
    const uint32_t csr = insn >> 20;
    return (insn & 0x7f) == 0x73 && ((insn >> 12) & 3) != 0 && (csr == IPU_CSR_CYCLE || csr == IPU_CSR_CYCLEH);
}

void diverge(Lockstep &l, const std::string &what, int tile = -1, unsigned context = 0, uint32_t rtl_pc = 0,
             uint32_t model_pc = 0)
{
    if (l.diverged)
        return;
    l.diverged = true;
    l.record_pending = true;
    l.irq_error = true;
    l.divergence_tile = tile;
    l.divergence_context = context;
    l.divergence_rtl_pc = rtl_pc;
    l.divergence_model_pc = model_pc;
    char head[128];
    std::snprintf(head, sizeof head, "lock-step divergence after %" PRIu64 " matching instructions: ", l.compared);
    l.divergence = head + what;
}

int on_rtl_retired(void *opaque, const ipu_retire_event *event)
{
    Lockstep &l = *static_cast<Lockstep *>(opaque);
    const ipu_retire_event &r = *event;
    if (l.diverged)
        return 1;
    if (r.tile >= l.tiles || r.context >= kMaxContexts) {
        diverge(l, "RTL retire trace names tile " + std::to_string(r.tile) + " context " + std::to_string(r.context));
        return 1;
    }
    auto &q = l.queues[r.tile * kMaxContexts + r.context];
    while (q.empty() && model_running(l))
        l.model->ops->advance(l.model, kModelStep);
    char where[64];
    std::snprintf(where, sizeof where, "tile %u context %u\n", r.tile, r.context);
    if (q.empty()) {
        diverge(l, std::string(where) + describe(side(l.rtl).c_str(), r.pc, r.insn, r.rd, r.rd_value) + "  " +
                       side(l.model) + " retired nothing more in this context\n", static_cast<int>(r.tile),
                r.context, r.pc, 0);
        return 1;
    }
    const ipu_retire_event m = q.front();
    q.pop_front();
    const bool value_ok = r.rd_value == m.rd_value || reads_cycle_counter(r.insn);
    if (r.pc != m.pc || r.insn != m.insn || r.rd != m.rd || !value_ok) {
        diverge(l, std::string(where) + describe(side(l.rtl).c_str(), r.pc, r.insn, r.rd, r.rd_value) +
                       describe(side(l.model).c_str(), m.pc, m.insn, m.rd, m.rd_value), static_cast<int>(r.tile),
                r.context, r.pc, m.pc);
        return 1;
    }
    l.compared++;
    return l.user_observer ? l.user_observer(l.user_opaque, &r) : 0;
}

int on_model_retired(void *opaque, const ipu_retire_event *m)
{
    Lockstep &l = *static_cast<Lockstep *>(opaque);
    if (m->tile < l.tiles && m->context < kMaxContexts)
        l.queues[m->tile * kMaxContexts + m->context].push_back(*m);
    return 0;
}

// Both sides' view of one tile, for the divergence report. Restores the selections.
std::string tile_state(ipu_backend *card, const char *side, unsigned tile, unsigned contexts)
{
    const uint32_t sel = read32(card, IPU_REG_TILE_SEL), ctx_sel = read32(card, IPU_REG_TILE_CTX_SEL);
    ipu_backend_write32(card, IPU_REG_TILE_SEL, tile);
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %s tile %u: state %u exit %u err cause %u pc %08x addr %08x\n", side, tile,
                  read32(card, IPU_REG_TILE_STATE), read32(card, IPU_REG_TILE_EXIT_CODE),
                  read32(card, IPU_REG_TILE_ERR_CAUSE), read32(card, IPU_REG_TILE_ERR_PC),
                  read32(card, IPU_REG_TILE_ERR_ADDR));
    std::string s = buf;
    for (unsigned c = 0; c < contexts; c++) {
        ipu_backend_write32(card, IPU_REG_TILE_CTX_SEL, c);
        std::snprintf(buf, sizeof buf, "    ctx %u: state %u pc %08x instret %u\n", c,
                      read32(card, IPU_REG_TILE_CTX_STATE), read32(card, IPU_REG_TILE_CTX_PC),
                      read32(card, IPU_REG_TILE_CTX_INSTRET));
        s += buf;
    }
    ipu_backend_write32(card, IPU_REG_TILE_SEL, sel);
    ipu_backend_write32(card, IPU_REG_TILE_CTX_SEL, ctx_sel);
    return s;
}

// After a divergence: both sides' state, printed once, and both cards halted.
void report(Lockstep &l)
{
    if (l.reported)
        return;
    l.reported = true;
    const unsigned contexts = read32(l.rtl, IPU_REG_NUM_WORKERS) + 1;
    std::string s = l.divergence;
    char a[16], b[16];
    std::snprintf(a, sizeof a, "%-5s", l.rtl->ops->name);
    std::snprintf(b, sizeof b, "%-5s", l.model->ops->name);
    for (unsigned t = 0; t < l.tiles; t++)
        if (l.divergence_tile < 0 || t == static_cast<unsigned>(l.divergence_tile))
            s += tile_state(l.rtl, a, t, contexts) + tile_state(l.model, b, t, contexts);
    l.divergence = s;
    std::fprintf(stderr, "%s", s.c_str());
    ipu_backend_write32(l.rtl, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_HALT_MASK);
    ipu_backend_write32(l.model, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_HALT_MASK);
}

// The primary stopped (tiles and DMA): the secondary must stop in the same
// place with nothing left over, its DMA engine must end the same way, and
// every tile must end the same way.
void check_stop(Lockstep &l)
{
    for (int i = 0; i < 1 << 20 && l.model->ops->advance(l.model, kModelStep) > 0; i++) {
    }
    const uint32_t rd = read32(l.rtl, IPU_REG_DMA_STATUS), md = read32(l.model, IPU_REG_DMA_STATUS);
    if (rd != md) {
        diverge(l, "DMA_STATUS: " + side(l.rtl) + " " + std::to_string(rd) + ", " + side(l.model) + " " +
                       std::to_string(md) + "\n");
        return;
    }
    const uint32_t rs = read32(l.rtl, IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK;
    const uint32_t ms = read32(l.model, IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK;
    if (rs == IPU_CARD_STATE_IDLE)
        return; // halted by the host
    if (rs != ms) {
        diverge(l, "card state: " + side(l.rtl) + " " + std::to_string(rs) + ", " + side(l.model) + " " +
                       std::to_string(ms) + "\n");
        return;
    }
    const uint32_t sel = read32(l.rtl, IPU_REG_TILE_SEL);
    for (unsigned t = 0; t < l.tiles && !l.diverged; t++) {
        ipu_backend_write32(l.rtl, IPU_REG_TILE_SEL, t);
        ipu_backend_write32(l.model, IPU_REG_TILE_SEL, t);
        const uint32_t rt = read32(l.rtl, IPU_REG_TILE_STATE);
        // A fault stops the other tiles at different points on the two sides.
        if (rs == IPU_CARD_STATE_ERROR && rt != IPU_TILE_STATE_ERROR)
            continue;
        for (uint32_t reg : {IPU_REG_TILE_STATE, IPU_REG_TILE_EXIT_CODE, IPU_REG_TILE_ERR_CAUSE, IPU_REG_TILE_ERR_PC,
                             IPU_REG_TILE_ERR_ADDR}) {
            const uint32_t a = read32(l.rtl, reg), b = read32(l.model, reg);
            if (a != b) {
                char buf[160];
                std::snprintf(buf, sizeof buf, "tile %u register 0x%03x: %s %08x, %s %08x\n", t, reg,
                              l.rtl->ops->name, a, l.model->ops->name, b);
                diverge(l, buf, static_cast<int>(t));
                break;
            }
        }
        if (rs == IPU_CARD_STATE_ERROR)
            continue;
        for (unsigned c = 0; c < kMaxContexts && !l.diverged; c++) {
            const auto &q = l.queues[t * kMaxContexts + c];
            if (!q.empty())
                diverge(l, "tile " + std::to_string(t) + " context " + std::to_string(c) + ": " + side(l.model) +
                               " retired " + std::to_string(q.size()) + " more instructions, first:\n" +
                               describe(side(l.model).c_str(), q.front().pc, q.front().insn, q.front().rd,
                                        q.front().rd_value),
                           static_cast<int>(t), c, 0, q.front().pc);
        }
    }
    ipu_backend_write32(l.rtl, IPU_REG_TILE_SEL, sel);
    ipu_backend_write32(l.model, IPU_REG_TILE_SEL, sel);
}

// The divergence's error record, as the ERR_* registers show it while it is
// the oldest record (it goes first: it is why the run stopped).
bool divergence_register(const Lockstep &l, uint64_t offset, uint32_t rtl_count, uint64_t *value)
{
    switch (offset) {
    case IPU_REG_STATUS: return false; // patched by the caller
    case IPU_REG_ERR_COUNT: *value = rtl_count + 1; return true;
    case IPU_REG_ERR_CAUSE: *value = IPU_ERR_LOCKSTEP_DIVERGENCE; return true;
    case IPU_REG_ERR_TILE: *value = l.divergence_tile < 0 ? 0xffffffffu : static_cast<uint32_t>(l.divergence_tile); return true;
    case IPU_REG_ERR_CONTEXT: *value = l.divergence_context; return true;
    case IPU_REG_ERR_PC: *value = l.divergence_rtl_pc; return true;
    case IPU_REG_ERR_ADDR: *value = l.divergence_model_pc; return true;
    case IPU_REG_ERR_INFO: *value = static_cast<uint32_t>(l.compared); return true;
    }
    return false;
}

// Both cards reset: the pair is in step again.
void forget_divergence(Lockstep &l)
{
    l.diverged = l.reported = l.record_pending = l.irq_error = false;
    l.divergence.clear();
    l.divergence_tile = -1;
    for (auto &q : l.queues)
        q.clear();
}

int Lockstep::bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value)
{
    Lockstep &l = *this;
    std::lock_guard<std::recursive_mutex> g(l.lock);
    if (bar == IPU_BAR_REGS && offset == IPU_REG_CONSOLE_DATA) {
        uint64_t discard;
        l.model->ops->bar_read(l.model, bar, offset, size, &discard); // keep both FIFOs in step
    }
    const int rc = l.rtl->ops->bar_read(l.rtl, bar, offset, size, value);
    if (l.diverged)
        report(l); // a register access clocks the RTL: it may retire, and diverge, too
    if (rc || bar != IPU_BAR_REGS || !l.diverged)
        return rc;
    if (offset == IPU_REG_STATUS)
        *value = (*value & ~uint64_t(IPU_REG_STATUS_STATE_MASK)) |
                 (uint64_t(IPU_CARD_STATE_ERROR) << IPU_REG_STATUS_STATE_SHIFT);
    else if (offset == IPU_REG_IRQ_STATUS && l.irq_error)
        *value |= IPU_REG_IRQ_STATUS_ERROR_MASK;
    else if (l.record_pending && offset >= IPU_REG_ERR_COUNT && offset <= IPU_REG_ERR_INFO)
        divergence_register(l, offset, static_cast<uint32_t>(*value), value);
    return 0;
}

int Lockstep::bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value)
{
    Lockstep &l = *this;
    std::lock_guard<std::recursive_mutex> g(l.lock);
    if (bar == IPU_BAR_REGS && offset == IPU_REG_RUN_CTRL && (value & IPU_REG_RUN_CTRL_START_MASK))
        for (auto &q : l.queues)
            q.clear();
    if (bar == IPU_BAR_REGS && l.diverged) {
        if (offset == IPU_REG_RESET && value == IPU_RESET_KEY) {
            forget_divergence(l);
        } else if (offset == IPU_REG_ERR_POP && l.record_pending) {
            l.record_pending = false; // pops the divergence record, not the cards' own
            return 0;
        } else if (offset == IPU_REG_IRQ_STATUS && (value & IPU_REG_IRQ_STATUS_ERROR_MASK)) {
            l.irq_error = false;
        } else if (offset == IPU_REG_RUN_CTRL && (value & IPU_REG_RUN_CTRL_START_MASK)) {
            return 0; // a diverged pair runs again only after RESET (the card reads ERROR)
        }
    }
    l.model->ops->bar_write(l.model, bar, offset, size, value);
    const int rc = l.rtl->ops->bar_write(l.rtl, bar, offset, size, value);
    if (l.diverged)
        report(l);
    return rc;
}

int Lockstep::advance(uint64_t budget)
{
    Lockstep &l = *this;
    std::lock_guard<std::recursive_mutex> g(l.lock);
    if (l.diverged) {
        report(l);
        return 0;
    }
    const int running = l.rtl->ops->advance(l.rtl, budget);
    if (!l.diverged && !running)
        check_stop(l);
    if (l.diverged) {
        report(l);
        return 0;
    }
    return running;
}

int Lockstep::set_retire_observer(ipu_retire_observer observer, void *opaque)
{
    std::lock_guard<std::recursive_mutex> g(lock);
    user_observer = observer;
    user_opaque = opaque;
    return 0;
}

constexpr ipu_backend_ops lockstep_ops = ipu::backend::ops_of<Lockstep>("lockstep");

} // namespace

extern "C" int ipu_lockstep_create(ipu_backend *primary, ipu_backend *secondary, ipu_backend **out)
{
    auto *l = new (std::nothrow) Lockstep;
    if (!l) {
        if (primary)
            primary->ops->destroy(primary);
        if (secondary)
            secondary->ops->destroy(secondary);
        return -ENOMEM;
    }
    l->base.ops = &lockstep_ops;
    l->rtl = primary;
    l->model = secondary;
    if (!primary || !secondary || !out) {
        delete l;
        return -EINVAL;
    }
    l->tiles = read32(primary, IPU_REG_NUM_TILES);
    l->queues.resize(static_cast<size_t>(l->tiles) * kMaxContexts);
    int rc = read32(secondary, IPU_REG_NUM_TILES) == l->tiles ? 0 : -EINVAL;
    if (rc == 0)
        rc = secondary->ops->set_retire_observer(secondary, on_model_retired, l);
    if (rc == 0)
        rc = primary->ops->set_retire_observer(primary, on_rtl_retired, l);
    if (rc != 0) {
        delete l;
        return rc;
    }
    *out = &l->base;
    return 0;
}

extern "C" const char *ipu_lockstep_divergence(ipu_backend *b)
{
    if (!b || b->ops != &lockstep_ops)
        return nullptr;
    Lockstep &l = *self(b);
    std::lock_guard<std::recursive_mutex> g(l.lock);
    return l.diverged ? l.divergence.c_str() : nullptr;
}

extern "C" uint64_t ipu_lockstep_compared(ipu_backend *b)
{
    if (!b || b->ops != &lockstep_ops)
        return 0;
    Lockstep &l = *self(b);
    std::lock_guard<std::recursive_mutex> g(l.lock);
    return l.compared;
}
