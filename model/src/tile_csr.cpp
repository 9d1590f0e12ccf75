// Tile CSR semantics as contract/card.toml defines them.
#include "tile_csr.hpp"

#include <algorithm>
#include <cstring>

namespace ipu::model {
namespace {

CsrOutcome misuse(Tile &tile, unsigned c, uint32_t csr)
{
    tile.raise(IPU_ERR_WORKER_MISUSE, c, tile.ctx[c].pc, csr);
    return CsrOutcome::Fault;
}

CsrOutcome start_worker(Tile &tile, unsigned c, uint32_t w)
{
    if (w == 0 || w > tile.num_workers || tile.ctx[w].state == IPU_CTX_STATE_RUNNING) {
        tile.raise(IPU_ERR_WORKER_MISUSE, c, tile.ctx[c].pc, w);
        return CsrOutcome::Fault;
    }
    Context &wk = tile.ctx[w];
    const uint64_t instret = wk.instret;
    wk = Context{};
    wk.instret = instret;
    wk.pc = tile.worker_entry;
    wk.x[10] = tile.worker_arg;
    wk.state = IPU_CTX_STATE_RUNNING;
    // A worker starts when the supervisor starts it, one issue slot later.
    wk.time = tile.ctx[c].time + tile.issue_cycles;
    return CsrOutcome::Done;
}

CsrOutcome join_workers(Tile &tile, uint32_t &result)
{
    uint64_t latest = tile.ctx[0].time;
    for (unsigned w = 1; w <= tile.num_workers; w++) {
        if (tile.ctx[w].state == IPU_CTX_STATE_RUNNING) {
            tile.joining = true;
            return CsrOutcome::Retry;
        }
        if (tile.ctx[w].state == IPU_CTX_STATE_DONE)
            latest = std::max(latest, tile.ctx[w].time);
    }
    tile.joining = false;
    tile.ctx[0].time = latest;
    result = tile.worker_fail_mask;
    tile.worker_fail_mask = 0;
    return CsrOutcome::Done;
}

CsrOutcome host_exchange(Tile &tile, unsigned c, uint32_t value)
{
    const uint32_t length = value & 0x7fffffffu;
    if (length == 0 || !tile.in_sram(tile.hx_tile_addr, length)) {
        tile.raise(IPU_ERR_HOST_EXCHANGE, c, tile.ctx[c].pc, tile.hx_tile_addr, length);
        return CsrOutcome::Fault;
    }
    // The card times the transfer over its host link when it services it (Card::service_host_exchange).
    tile.hx = HostExchange{true, c, tile.ctx[c].pc, tile.hx_dev_addr, tile.hx_tile_addr, length, (value >> 31) != 0};
    return CsrOutcome::HostExchange;
}

// Reads the exchange list at `list` and captures each send into the outbox.
CsrOutcome send_exchange(Tile &tile, unsigned c, uint32_t list)
{
    uint32_t count;
    if (!tile.in_sram(list, 4)) {
        tile.raise(IPU_ERR_BAD_EXCHANGE, c, tile.ctx[c].pc, list);
        return CsrOutcome::Fault;
    }
    std::memcpy(&count, tile.at(list), 4);
    if (count > tile.sram_bytes / IPU_EXCH_DESC_SIZE || !tile.in_sram(list + 4, count * IPU_EXCH_DESC_SIZE)) {
        tile.raise(IPU_ERR_BAD_EXCHANGE, c, tile.ctx[c].pc, list, count);
        return CsrOutcome::Fault;
    }
    uint64_t bytes = 0, link_bytes = 0;
    for (uint32_t i = 0; i < count; i++) {
        ipu_exch_desc d;
        std::memcpy(&d, tile.at(list + 4 + i * IPU_EXCH_DESC_SIZE), sizeof d);
        const bool dst_ok = d.dst_tile < tile.num_tiles && d.dst_addr >= IPU_TILE_SRAM_BASE &&
                            d.length <= tile.sram_bytes &&
                            d.dst_addr - IPU_TILE_SRAM_BASE <= tile.sram_bytes - d.length;
        if (!dst_ok || !tile.in_sram(d.src_addr, d.length)) {
            tile.raise(IPU_ERR_BAD_EXCHANGE, c, tile.ctx[c].pc, dst_ok ? d.src_addr : d.dst_addr, i);
            return CsrOutcome::Fault;
        }
        const uint8_t *src = tile.at(d.src_addr);
        std::vector<uint8_t> data;
        if (!tile.spare_buffers.empty()) {
            data = std::move(tile.spare_buffers.back());
            tile.spare_buffers.pop_back();
        }
        data.assign(src, src + d.length);
        tile.outbox.push_back(ExchangeWrite{d.dst_tile, d.dst_addr, std::move(data)});
        bytes += d.length;
        if (tile.link.tiles_per_ipu && d.dst_tile / tile.link.tiles_per_ipu != tile.id / tile.link.tiles_per_ipu)
            link_bytes += d.length;
    }
    tile.ctx[c].time += bytes / tile.exchange_bytes_per_cycle;
    if (link_bytes) // over the IPU-Link as well: its latency once, and its bandwidth for those bytes
        tile.ctx[c].time += tile.link.latency_cycles + link_bytes / tile.link.bytes_per_cycle;
    return CsrOutcome::Done;
}

bool supervisor_only(uint32_t csr)
{
    switch (csr) {
    case IPU_CSR_SYNC: case IPU_CSR_WORKER_ENTRY: case IPU_CSR_WORKER_ARG: case IPU_CSR_WORKER_START:
    case IPU_CSR_WORKER_JOIN: case IPU_CSR_EXIT: case IPU_CSR_EXCHANGE:
        return true;
    }
    return false;
}

// Returns false when `csr` does not exist (or the F CSRs without an FPU).
bool read_csr(const Tile &tile, unsigned c, uint32_t csr, uint32_t &v, bool has_fpu)
{
    const Context &cx = tile.ctx[c];
    switch (csr) {
    case IPU_CSR_FFLAGS: v = cx.fflags; return has_fpu;
    case IPU_CSR_FRM: v = cx.frm; return has_fpu;
    case IPU_CSR_FCSR: v = (cx.frm << 5) | cx.fflags; return has_fpu;
    case IPU_CSR_CYCLE: v = static_cast<uint32_t>(cx.time); return true;
    case IPU_CSR_CYCLEH: v = static_cast<uint32_t>(cx.time >> 32); return true;
    case IPU_CSR_INSTRET: v = static_cast<uint32_t>(cx.instret); return true;
    case IPU_CSR_INSTRETH: v = static_cast<uint32_t>(cx.instret >> 32); return true;
    case IPU_CSR_TILE_ID: v = tile.id; return true;
    case IPU_CSR_CONTEXT_ID: v = c; return true;
    case IPU_CSR_NUM_TILES: v = tile.num_tiles; return true;
    case IPU_CSR_NUM_WORKERS: v = tile.num_workers; return true;
    case IPU_CSR_SRAM_SIZE: v = tile.sram_bytes; return true;
    case IPU_CSR_WORKER_ENTRY: v = tile.worker_entry; return true;
    case IPU_CSR_WORKER_ARG: v = tile.worker_arg; return true;
    case IPU_CSR_HX_DEV_ADDR: v = tile.hx_dev_addr; return true;
    case IPU_CSR_HX_TILE_ADDR: v = tile.hx_tile_addr; return true;
    case IPU_CSR_FAIL_INFO: v = tile.fail_info; return true;
    case IPU_CSR_STACK_LIMIT: v = cx.stack_limit; return true;
    case IPU_CSR_SYNC: case IPU_CSR_WORKER_START: case IPU_CSR_WORKER_EXIT: case IPU_CSR_CONSOLE:
    case IPU_CSR_EXIT: case IPU_CSR_HX_START: case IPU_CSR_EXCHANGE: case IPU_CSR_FAIL:
        v = 0; // write-only: reads as zero
        return true;
    }
    return false;
}

} // namespace

CsrOutcome csr_access(Tile &tile, unsigned c, uint32_t csr, unsigned op, uint32_t src, bool do_read, bool do_write,
                      uint32_t &result)
{
    const bool has_fpu = tile.has_fpu;
    if (c != 0 && supervisor_only(csr))
        return misuse(tile, c, csr);
    if (csr == IPU_CSR_WORKER_JOIN) {
        if (do_write)
            return CsrOutcome::Illegal;
        return join_workers(tile, result);
    }
    uint32_t old = 0;
    if (!read_csr(tile, c, csr, old, has_fpu))
        return CsrOutcome::Illegal;
    result = do_read ? old : 0;
    if (!do_write)
        return CsrOutcome::Done;
    const uint32_t v = op == 1 ? src : op == 2 ? (old | src) : (old & ~src);
    Context &cx = tile.ctx[c];
    switch (csr) {
    case IPU_CSR_FFLAGS: cx.fflags = v & 0x1f; return CsrOutcome::Done;
    case IPU_CSR_FRM: cx.frm = v & 7; return CsrOutcome::Done;
    case IPU_CSR_FCSR: cx.fflags = v & 0x1f; cx.frm = (v >> 5) & 7; return CsrOutcome::Done;
    case IPU_CSR_WORKER_ENTRY: tile.worker_entry = v; return CsrOutcome::Done;
    case IPU_CSR_WORKER_ARG: tile.worker_arg = v; return CsrOutcome::Done;
    case IPU_CSR_HX_DEV_ADDR: tile.hx_dev_addr = v; return CsrOutcome::Done;
    case IPU_CSR_HX_TILE_ADDR: tile.hx_tile_addr = v; return CsrOutcome::Done;
    case IPU_CSR_FAIL_INFO: tile.fail_info = v; return CsrOutcome::Done;
    case IPU_CSR_STACK_LIMIT: cx.stack_limit = v; return CsrOutcome::Done;
    case IPU_CSR_CONSOLE: tile.console.push_back(static_cast<uint8_t>(v)); return CsrOutcome::Done;
    case IPU_CSR_WORKER_START: return start_worker(tile, c, v);
    case IPU_CSR_EXCHANGE: return send_exchange(tile, c, v);
    case IPU_CSR_HX_START: return host_exchange(tile, c, v);
    case IPU_CSR_SYNC:
        if ((v & 0xff) != IPU_SYNC_KIND_INTERNAL && (v & 0xff) != IPU_SYNC_KIND_EXTERNAL)
            return CsrOutcome::Illegal;
        tile.sync_request = v;
        cx.state = IPU_CTX_STATE_BLOCKED;
        return CsrOutcome::Sync;
    case IPU_CSR_EXIT:
        tile.exit_code = v;
        cx.state = IPU_CTX_STATE_DONE;
        return CsrOutcome::Exit;
    case IPU_CSR_WORKER_EXIT:
        if (c == 0)
            return misuse(tile, c, csr);
        cx.exit_value = v;
        if (v)
            tile.worker_fail_mask |= 1u << c;
        cx.state = IPU_CTX_STATE_DONE;
        return CsrOutcome::WorkerDone;
    case IPU_CSR_FAIL:
        tile.raise(v, c, cx.pc, 0, tile.fail_info);
        return CsrOutcome::Fault;
    }
    return CsrOutcome::Illegal; // read-only CSR written
}

} // namespace ipu::model
