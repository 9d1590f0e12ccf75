// Save/restore of the whole card (the backend's save_size/save/restore): every
// register, translation entry, error record, console byte, DMA position, tile
// context and tile SRAM, in one little-endian byte stream with a header that
// names the board shape, so that a snapshot only loads into the same card.
#include <cerrno>
#include <cstring>
#include <type_traits>

#include "card.hpp"

namespace ipu::model {
namespace {

constexpr char kMagic[8] = {'I', 'P', 'U', 'M', 'S', 'N', 'A', 'P'};
constexpr uint32_t kVersion = 3; // 2: STACK_LIMIT per context, the supervisor's join wait; 3: superstep time

// Appends plain values to a byte vector.
class Writer {
public:
    explicit Writer(std::vector<uint8_t> &out) : out_(out) {}
    template <class T> void put(const T &v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }
    void bytes(const void *p, size_t n)
    {
        if (n == 0)
            return;
        // resize + memcpy: g++ 12 misreads vector::insert of raw bytes (-Wstringop-overflow).
        const size_t at = out_.size();
        out_.resize(at + n);
        std::memcpy(out_.data() + at, p, n);
    }

private:
    std::vector<uint8_t> &out_;
};

// Reads them back; every read is bounds-checked and a short stream sets !ok().
class Reader {
public:
    Reader(const uint8_t *p, size_t n) : p_(p), n_(n) {}
    template <class T> T get()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T v{};
        bytes(&v, sizeof v);
        return v;
    }
    void bytes(void *dst, size_t n)
    {
        if (!ok_ || n > n_ - at_) {
            ok_ = false;
            return;
        }
        if (n) // an empty vector's data() may be null, which memcpy must not get even for 0 bytes
            std::memcpy(dst, p_ + at_, n);
        at_ += n;
    }
    // Skips n bytes and returns where they start (nullptr when short).
    const uint8_t *skip(size_t n)
    {
        if (!ok_ || n > n_ - at_) {
            ok_ = false;
            return nullptr;
        }
        const uint8_t *r = p_ + at_;
        at_ += n;
        return r;
    }
    // A count of items of `item` bytes each that the rest of the stream can hold.
    uint64_t count(size_t item)
    {
        const uint64_t c = get<uint64_t>();
        if (c > (n_ - at_) / (item ? item : 1))
            ok_ = false;
        return ok_ ? c : 0;
    }
    bool ok() const { return ok_; }
    bool at_end() const { return at_ == n_; }

private:
    const uint8_t *p_;
    size_t n_;
    size_t at_ = 0;
    bool ok_ = true;
};

void put_context(Writer &w, const Context &cx)
{
    w.put(cx.x);
    w.put(cx.f);
    w.put(cx.pc);
    w.put(cx.fflags);
    w.put(cx.frm);
    w.put(cx.state);
    w.put(cx.time);
    w.put(cx.instret);
    w.put(cx.exit_value);
    w.put(cx.stack_limit);
}

void get_context(Reader &r, Context &cx)
{
    cx.x = r.get<decltype(cx.x)>();
    cx.f = r.get<decltype(cx.f)>();
    cx.pc = r.get<uint32_t>();
    cx.fflags = r.get<uint32_t>();
    cx.frm = r.get<uint32_t>();
    cx.state = r.get<uint32_t>();
    cx.time = r.get<uint64_t>();
    cx.instret = r.get<uint64_t>();
    cx.exit_value = r.get<uint32_t>();
    cx.stack_limit = r.get<uint32_t>();
}

// The run state of a tile (its fixed shape comes from the board, not the stream).
void put_tile(Writer &w, const Tile &t)
{
    w.put(static_cast<uint8_t>(t.enabled));
    w.put(t.entry);
    w.put(t.boot_arg);
    w.put(t.state);
    w.put(t.exit_code);
    for (const Context &cx : t.ctx)
        put_context(w, cx);
    w.put(t.worker_entry);
    w.put(t.worker_arg);
    w.put(t.worker_fail_mask);
    w.put(t.sync_request);
    w.put(static_cast<uint8_t>(t.joining));
    w.put(t.fail_info);
    w.put(t.hx_dev_addr);
    w.put(t.hx_tile_addr);
    w.put(t.insns_this_run);
    w.put(t.watchdog_insns);
    w.put(static_cast<uint8_t>(t.has_fault));
    w.put(t.fault);
    w.put(static_cast<uint8_t>(t.hx.pending));
    w.put(static_cast<uint32_t>(t.hx.context));
    w.put(t.hx.pc);
    w.put(t.hx.dev_addr);
    w.put(t.hx.tile_addr);
    w.put(t.hx.length);
    w.put(static_cast<uint8_t>(t.hx.to_host));
    w.put(static_cast<uint64_t>(t.console.size()));
    w.bytes(t.console.data(), t.console.size());
    w.put(static_cast<uint64_t>(t.outbox.size()));
    for (const ExchangeWrite &x : t.outbox) {
        w.put(x.dst_tile);
        w.put(x.dst_addr);
        w.put(static_cast<uint64_t>(x.data.size()));
        w.bytes(x.data.data(), x.data.size());
    }
    w.bytes(t.sram, t.sram_bytes);
}

// Reads a tile into `t` except its SRAM, whose bytes are returned (committed later).
const uint8_t *get_tile(Reader &r, Tile &t)
{
    t.enabled = r.get<uint8_t>() != 0;
    t.entry = r.get<uint32_t>();
    t.boot_arg = r.get<uint32_t>();
    t.state = r.get<uint32_t>();
    t.exit_code = r.get<uint32_t>();
    for (Context &cx : t.ctx)
        get_context(r, cx);
    t.worker_entry = r.get<uint32_t>();
    t.worker_arg = r.get<uint32_t>();
    t.worker_fail_mask = r.get<uint32_t>();
    t.sync_request = r.get<uint32_t>();
    t.joining = r.get<uint8_t>() != 0;
    t.fail_info = r.get<uint32_t>();
    t.hx_dev_addr = r.get<uint32_t>();
    t.hx_tile_addr = r.get<uint32_t>();
    t.insns_this_run = r.get<uint64_t>();
    t.watchdog_insns = r.get<uint64_t>();
    t.has_fault = r.get<uint8_t>() != 0;
    t.fault = r.get<Fault>();
    t.hx.pending = r.get<uint8_t>() != 0;
    t.hx.context = r.get<uint32_t>();
    t.hx.pc = r.get<uint32_t>();
    t.hx.dev_addr = r.get<uint32_t>();
    t.hx.tile_addr = r.get<uint32_t>();
    t.hx.length = r.get<uint32_t>();
    t.hx.to_host = r.get<uint8_t>() != 0;
    t.console.resize(r.count(1));
    r.bytes(t.console.data(), t.console.size());
    t.outbox.resize(r.count(16));
    for (ExchangeWrite &x : t.outbox) {
        x.dst_tile = r.get<uint32_t>();
        x.dst_addr = r.get<uint32_t>();
        x.data.resize(r.count(1));
        r.bytes(x.data.data(), x.data.size());
        // A write that would land outside its tile's SRAM is not a snapshot we made.
        if (x.dst_tile >= t.num_tiles || !t.in_sram(x.dst_addr, static_cast<uint32_t>(x.data.size())))
            r.skip(~size_t{0});
    }
    if (t.hx.context >= kMaxContexts)
        r.skip(~size_t{0});
    return r.skip(t.sram_bytes);
}

} // namespace

std::vector<uint8_t> Card::snapshot()
{
    std::vector<uint8_t> out;
    Writer w(out);
    w.bytes(kMagic, sizeof kMagic);
    w.put(kVersion);
    w.put(static_cast<uint32_t>(tiles_.size()));
    w.put(board_.bytes_per_tile);
    w.put(board_.worker_contexts);
    w.put(state_);
    w.put(irq_status_);
    w.put(irq_mask_);
    w.put(watchdog_units_);
    w.put(tile_sel_);
    w.put(ctx_sel_);
    w.put(window_tile_);
    w.put(hsync_id_);
    w.put(static_cast<uint8_t>(hsync_pending_));
    w.put(card_cycles_);
    w.put(superstep_start_);
    w.put(superstep_host_bytes_);
    w.put(dma_desc_addr_);
    w.put(dma_status_);
    w.put(dma_completed_);
    w.put(dma_bytes_);
    w.put(dma_.index);
    w.put(static_cast<uint8_t>(dma_.have_desc));
    w.put(dma_.desc);
    w.put(dma_.offset);
    w.put(xlat_);
    w.put(static_cast<uint64_t>(errors_.size()));
    for (const ErrorRecord &e : errors_)
        w.put(e);
    w.put(errors_lost_);
    w.put(static_cast<uint64_t>(console_.size()));
    for (uint32_t c : console_)
        w.put(c);
    w.put(console_lost_);
    w.put(guest_errors_);
    for (const Tile &t : tiles_)
        put_tile(w, t);
    return out;
}

size_t Card::save_size()
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    return snapshot().size();
}

int Card::save(void *buf, size_t len)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    const std::vector<uint8_t> s = snapshot();
    if (!buf || len < s.size())
        return -ENOSPC;
    std::memcpy(buf, s.data(), s.size());
    return 0;
}

int Card::restore(const void *buf, size_t len)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    rescan_chunks_ = true; // tile states come from the snapshot (live_chunks_)
    if (!buf)
        return -EINVAL;
    Reader r(static_cast<const uint8_t *>(buf), len);
    char magic[sizeof kMagic];
    r.bytes(magic, sizeof magic);
    if (!r.ok() || std::memcmp(magic, kMagic, sizeof magic) != 0 || r.get<uint32_t>() != kVersion ||
        r.get<uint32_t>() != tiles_.size() || r.get<uint32_t>() != board_.bytes_per_tile ||
        r.get<uint32_t>() != board_.worker_contexts)
        return -EINVAL;
    // Everything is read into copies first: a bad snapshot leaves the card as it was.
    const uint32_t state = r.get<uint32_t>(), irq_status = r.get<uint32_t>(), irq_mask = r.get<uint32_t>();
    const uint32_t watchdog = r.get<uint32_t>(), tile_sel = r.get<uint32_t>(), ctx_sel = r.get<uint32_t>();
    const uint32_t window_tile = r.get<uint32_t>(), hsync_id = r.get<uint32_t>();
    const bool hsync_pending = r.get<uint8_t>() != 0;
    const uint64_t card_cycles = r.get<uint64_t>();
    const uint64_t superstep_start = r.get<uint64_t>(), superstep_host_bytes = r.get<uint64_t>();
    const uint32_t dma_desc_addr = r.get<uint32_t>(), dma_status = r.get<uint32_t>();
    const uint32_t dma_completed = r.get<uint32_t>();
    const uint64_t dma_bytes = r.get<uint64_t>();
    DmaProgress dma;
    dma.index = r.get<uint32_t>();
    dma.have_desc = r.get<uint8_t>() != 0;
    dma.desc = r.get<ipu_dma_desc>();
    dma.offset = r.get<uint32_t>();
    const auto xlat = r.get<decltype(xlat_)>();
    std::deque<ErrorRecord> errors(r.count(sizeof(ErrorRecord)));
    for (ErrorRecord &e : errors)
        e = r.get<ErrorRecord>();
    const uint32_t errors_lost = r.get<uint32_t>();
    std::deque<uint32_t> console(r.count(4));
    for (uint32_t &c : console)
        c = r.get<uint32_t>();
    const uint32_t console_lost = r.get<uint32_t>();
    const uint64_t guest_errors = r.get<uint64_t>();
    std::vector<Tile> tiles = tiles_;
    std::vector<const uint8_t *> sram(tiles.size());
    for (size_t i = 0; i < tiles.size() && r.ok(); i++)
        sram[i] = get_tile(r, tiles[i]);
    const bool sane = tile_sel < tiles_.size() && ctx_sel <= board_.worker_contexts && window_tile < tiles_.size() &&
                      errors.size() <= kErrorFifoDepth && (!dma.have_desc || dma_descriptor_ok(dma.desc)) &&
                      dma.offset <= dma.desc.length;
    if (!r.ok() || !r.at_end() || !sane)
        return -EINVAL;

    state_ = state;
    irq_status_ = irq_status;
    irq_mask_ = irq_mask;
    watchdog_units_ = watchdog;
    tile_sel_ = tile_sel;
    ctx_sel_ = ctx_sel;
    window_tile_ = window_tile;
    hsync_id_ = hsync_id;
    hsync_pending_ = hsync_pending;
    card_cycles_ = card_cycles;
    superstep_start_ = superstep_start;
    superstep_host_bytes_ = superstep_host_bytes;
    dma_desc_addr_ = dma_desc_addr;
    dma_status_ = dma_status;
    dma_completed_ = dma_completed;
    dma_bytes_ = dma_bytes;
    dma_ = dma;
    xlat_ = xlat;
    errors_ = std::move(errors);
    errors_lost_ = errors_lost;
    console_ = std::move(console);
    console_lost_ = console_lost;
    guest_errors_ = guest_errors;
    for (size_t i = 0; i < tiles.size(); i++) {
        std::memcpy(tiles[i].sram, sram[i], tiles[i].sram_bytes);
        tiles_[i] = std::move(tiles[i]);
    }
    return 0;
}

} // namespace ipu::model
