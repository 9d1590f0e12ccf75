// The Verilated card harness, generic over the Verilated top (one instance per
// configuration): reset, clocking, the BAR0/BAR2 request ports, interrupts,
// the retire trace and optional FST waveforms.
#pragma once
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include "ipu_card/hw.h"
#include "rtl_card.hpp"
#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif

namespace ipu::rtl {

// Bits [lsb, lsb+width) of a Verilated packed port (an integer or a VlWide).
template <class W>
uint32_t port_bits(const W &w, unsigned lsb, unsigned width)
{
    uint64_t v;
    if constexpr (std::is_integral_v<W>) {
        v = static_cast<uint64_t>(w) >> lsb;
    } else {
        const unsigned word = lsb / 32, shift = lsb % 32;
        v = w[word] >> shift;
        if (shift + width > 32)
            v |= static_cast<uint64_t>(w[word + 1]) << (32 - shift);
    }
    return static_cast<uint32_t>(v & ((uint64_t{1} << width) - 1));
}

// Whether Verilator's model lets the harness re-arm the clock's edge detector
// without an eval (the member is Verilator 5.006's; another version falls back to
// an eval at the falling edge, which is correct, only slower).
template <class Top>
concept RearmableClock = requires(Top &t) { t.rootp->__Vtrigrprev__TOP__clk_i = 0; };

// OneEvalPerCycle (every build but the benchmark's copy of the old harness): while
// the card runs with its inputs unchanged, skip the eval at the falling edge. The
// card has no logic on that edge, and every eval recomputes all the logic fed by an
// input port (Verilator's input-combinational region), so that eval only cost time.
template <class Top, bool OneEvalPerCycle = true>
class CardImpl final : public CardIf {
public:
    CardImpl(const ipu_board &board, const ipu_backend_host &host, const ipu_backend_options &options)
        : board_(board), host_(host), tiles_(ipu_board_num_tiles(&board)), contexts_(board.worker_contexts + 1),
          ctx_(std::make_unique<VerilatedContext>())
    {
        ctx_->randReset(0);
        top_ = std::make_unique<Top>(ctx_.get(), "card");
#if VM_TRACE_FST
        if (const char *path = std::getenv("IPU_RTL_FST")) {
            ctx_->traceEverOn(true);
            fst_ = std::make_unique<VerilatedFstC>();
            top_->trace(fst_.get(), 99);
            fst_->open(path);
        }
#endif
        if (options.trace)
            set_observer(print_retired, nullptr);
        top_->cfg_clock_khz_i = static_cast<uint32_t>(board.tile_clock_hz / 1000);
        top_->cfg_exch_bytes_i = board.exchange_bytes_per_cycle;
        top_->rst_ni = 0;
        top_->clk_i = 0;
        top_->eval();
        tick();
        top_->rst_ni = 1;
        top_->eval();
        settle_reset();
    }

    ~CardImpl() override
    {
        top_->final();
#if VM_TRACE_FST
        if (fst_)
            fst_->close();
#endif
    }

    // BAR2 bounds are `offset > bytes_per_tile - size`, which cannot wrap as `offset + size` did.
    int bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value) override
    {
        *value = ~0ull;
        if (bar == IPU_BAR_REGS) {
            if (size != 4 || (offset & 3) || offset >= IPU_BAR_REGS_SIZE)
                return -EINVAL;
            *value = reg_access(false, static_cast<uint32_t>(offset), 0);
            deliver_irqs();
            return 0;
        }
        if (bar == IPU_BAR_TILEMEM) {
            if (!mem_size_ok(size) || offset > board_.bytes_per_tile - size)
                return -EINVAL;
            uint64_t v = 0;
            for (unsigned i = 0; i < size;) {
                const uint64_t at = offset + i;
                const unsigned n = (size - i >= 4 && !(at & 3)) ? 4 : 1;
                const uint32_t word = mem_access(false, static_cast<uint32_t>(at >> 2), 0, 0);
                const uint32_t part = n == 4 ? word : (word >> (8 * (at & 3))) & 0xff;
                v |= static_cast<uint64_t>(part) << (8 * i);
                i += n;
            }
            *value = v;
            deliver_irqs();
            return 0;
        }
        return -EINVAL;
    }

    int bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value) override
    {
        if (bar == IPU_BAR_REGS) {
            if (size != 4 || (offset & 3) || offset >= IPU_BAR_REGS_SIZE)
                return -EINVAL;
            reg_access(true, static_cast<uint32_t>(offset), static_cast<uint32_t>(value));
            // A RESET write holds the card in reset until the next clock edge, which
            // would swallow a register write made in that very cycle. The model
            // finishes a reset inside the write; so does this card (and a real bus
            // never delivers the next access one cycle later anyway).
            if (offset == IPU_REG_RESET)
                settle_reset();
            // DMA_CTRL.START only starts the chain: advance() clocks the DMA
            // engine in bounded slices, as the contract says.
            deliver_irqs();
            return 0;
        }
        if (bar == IPU_BAR_TILEMEM) {
            if (!mem_size_ok(size) || offset > board_.bytes_per_tile - size)
                return -EINVAL;
            for (unsigned i = 0; i < size;) {
                const uint64_t at = offset + i;
                const unsigned n = (size - i >= 4 && !(at & 3)) ? 4 : 1;
                const uint32_t part = static_cast<uint32_t>(value >> (8 * i));
                if (n == 4)
                    mem_access(true, static_cast<uint32_t>(at >> 2), 0xf, part);
                else
                    mem_access(true, static_cast<uint32_t>(at >> 2), 1u << (at & 3), (part & 0xff) << (8 * (at & 3)));
                i += n;
            }
            deliver_irqs();
            return 0;
        }
        return -EINVAL;
    }

    int advance(uint64_t budget) override
    {
        // The budget is instructions per tile; a context issues once per barrel
        // turn. A DMA chain in flight gets the same number of cycles.
        const uint64_t turns = budget ? budget : 1;
        const uint64_t limit = turns > (~0ull / contexts_) ? ~0ull : turns * contexts_;
        stop_ = false;
        // The first cycle evaluates the inputs the last BAR access left behind.
        inputs_changed_ = true;
        for (uint64_t i = 0; i < limit && (top_->running_o || top_->dma_busy_o) && !stop_; i++) {
            if (inputs_changed_ || !kFastEdge)
                tick();
            else
                fast_tick();
        }
        deliver_irqs();
        return top_->running_o || top_->dma_busy_o ? 1 : 0;
    }

    void set_observer(ipu_retire_observer observer, void *opaque) override
    {
        observer_ = observer;
        opaque_ = opaque;
    }

    uint64_t cycles() const override { return cycles_; }

private:
#if VM_TRACE_FST
    static constexpr bool kTrace = true; // waveforms keep both evals: the dump samples each half
#else
    static constexpr bool kTrace = false;
#endif
    static constexpr bool kFastEdge = OneEvalPerCycle && RearmableClock<Top> && !kTrace;
    static constexpr uint64_t kMaxWait = uint64_t{1} << 24;      // cycles for one BAR2 word

    static bool mem_size_ok(unsigned size) { return size == 1 || size == 2 || size == 4 || size == 8; }

    static int print_retired(void *, const ipu_retire_event *e)
    {
        const ipu_retire_event &r = *e;
        if (r.rd)
            std::fprintf(stderr, "tile %u ctx %u pc %08x insn %08x x%-2u=%08x\n", r.tile, r.context, r.pc, r.insn,
                         r.rd, r.rd_value);
        else
            std::fprintf(stderr, "tile %u ctx %u pc %08x insn %08x\n", r.tile, r.context, r.pc, r.insn);
        return 0;
    }

    // The two halves of one clock cycle; inputs set before low() are sampled at the edge.
    void low()
    {
        top_->clk_i = 0;
        top_->eval();
        irq_pending_ |= top_->irq_o;
#if VM_TRACE_FST
        if (fst_)
            fst_->dump(2 * cycles_);
#endif
    }

    void high()
    {
        top_->clk_i = 1;
        top_->eval();
        // Every input set before low() was taken at its falling edge.
        inputs_changed_ = false;
        answer_host_memory();
        cycles_++;
#if VM_TRACE_FST
        if (fst_)
            fst_->dump(2 * cycles_ - 1);
#endif
        if (observer_)
            sample_retired();
    }

    // The bus side of the DMA engine's host-memory port, answered in the request cycle. The
    // request depends on the card's state only, so it is settled after the rising edge that
    // starts the cycle; the answer is set then, before the falling edge at which the card
    // (ipu_card_sim) takes it, and lowered again the cycle after. Either change is an input
    // change: that cycle's falling edge must be evaluated (tick(), not fast_tick()).
    void answer_host_memory()
    {
        const bool was_done = top_->hm_done_i != 0;
        top_->hm_done_i = 0;
        if (top_->hm_req_o)
            serve_host_memory();
        if (was_done || top_->hm_done_i)
            inputs_changed_ = true;
    }

    void serve_host_memory()
    {
        const uint64_t bus = top_->hm_addr_o;
        const size_t n = top_->hm_word_o ? 4 : 1;
        uint32_t data = top_->hm_wdata_o;
        int rc;
        if (top_->hm_we_o)
            rc = host_.dma_write ? host_.dma_write(host_.opaque, bus, &data, n) : -EFAULT;
        else
            rc = host_.dma_read ? host_.dma_read(host_.opaque, bus, &data, n) : -EFAULT;
        top_->hm_rdata_i = n == 4 ? data : data & 0xff;
        top_->hm_err_i = rc != 0;
        top_->hm_done_i = 1;
    }

    // After a reset the card clears its bus memory (the translation table and, as many
    // words again, the registers' read-back copy: ipu_card_regs), a word a cycle, and drops
    // register writes to it meanwhile; the model is ready at once, so the harness
    // clocks through the clear (the tiles' SRAM clear goes on; the window waits for it).
    void settle_reset()
    {
        for (unsigned i = 0; i <= 2 * IPU_REG_XLAT_COUNT * IPU_REG_XLAT_STRIDE / 4; i++)
            tick();
    }

    void tick()
    {
        low();
        high();
    }

    // tick() when no input changed since the last eval: the outputs low() would read
    // are already settled, so only the clock falls, and the edge detector is told so
    // (what the skipped eval would have recorded) to see the rising edge in high().
    void fast_tick()
    {
        if constexpr (kFastEdge) {
            top_->clk_i = 0;
            top_->rootp->__Vtrigrprev__TOP__clk_i = 0;
            irq_pending_ |= top_->irq_o;
            high();
        }
    }

    void sample_retired()
    {
        const uint32_t valid = port_bits(top_->rvfi_valid_o, 0, tiles_ > 32 ? 32 : tiles_);
        if (!valid)
            return;
        for (unsigned t = 0; t < tiles_; t++) {
            if (!((valid >> t) & 1))
                continue;
            const ipu_retire_event r{t,
                                     port_bits(top_->rvfi_ctx_o, 3 * t, 3),
                                     port_bits(top_->rvfi_pc_o, 32 * t, 32),
                                     port_bits(top_->rvfi_insn_o, 32 * t, 32),
                                     port_bits(top_->rvfi_rd_o, 5 * t, 5),
                                     port_bits(top_->rvfi_rd_value_o, 32 * t, 32),
                                     cycles_};
            if (observer_(opaque_, &r))
                stop_ = true;
        }
    }

    // The address goes out a cycle before the access, as the FPGA's link bridge does:
    // the translation table's words are read synchronously (block RAM on an FPGA).
    uint32_t reg_access(bool we, uint32_t offset, uint32_t wdata)
    {
        top_->reg_addr_i = static_cast<uint16_t>(offset);
        low();
        high();
        top_->reg_req_i = 1;
        top_->reg_we_i = we;
        top_->reg_wdata_i = wdata;
        low();
        const uint32_t rdata = top_->reg_rdata_o;
        high();
        top_->reg_req_i = 0;
        top_->reg_we_i = 0;
        inputs_changed_ = true;
        return rdata;
    }

    // One word of the window tile's SRAM; waits while the tile clears its SRAM after reset.
    uint32_t mem_access(bool we, uint32_t word, uint32_t be, uint32_t wdata)
    {
        top_->mem_req_i = 1;
        top_->mem_we_i = we;
        top_->mem_be_i = be;
        top_->mem_waddr_i = word;
        top_->mem_wdata_i = wdata;
        // Bounded: a clear, an exchange or a DMA chain ends; a wedged card must not hang the host.
        bool granted = false;
        for (uint64_t i = 0; i < kMaxWait && !granted; i++) {
            low();
            granted = top_->mem_gnt_o;
            high();
        }
        top_->mem_req_i = 0;
        top_->mem_we_i = 0;
        top_->eval();
        inputs_changed_ = true; // (evaluated, but not at the clock low that tick() starts with)
        return granted ? top_->mem_rdata_o : ~0u;
    }

    void deliver_irqs()
    {
        const uint32_t pending = irq_pending_;
        irq_pending_ = 0;
        if (!host_.irq)
            return;
        for (unsigned v = 0; v < 4; v++)
            if (pending & (1u << v))
                host_.irq(host_.opaque, v);
    }

    ipu_board board_;
    ipu_backend_host host_;
    const unsigned tiles_;
    const uint64_t contexts_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Top> top_;
#if VM_TRACE_FST
    std::unique_ptr<VerilatedFstC> fst_;
#endif
    ipu_retire_observer observer_ = nullptr;
    void *opaque_ = nullptr;
    bool stop_ = false;
    bool inputs_changed_ = true; // an input port was written after the last eval
    uint32_t irq_pending_ = 0;
    uint64_t cycles_ = 0;
};

} // namespace ipu::rtl
