// Differential fuzzer of the ISS tiers: random RV32IMF + Zicsr programs
// (every opcode class, the tile's CSRs, loads and stores in and out of SRAM,
// misaligned accesses, branches, illegal words and stores into the program
// itself) run on the reference interpreter and on the JIT tier
// (IPU_EMU_ISS=jit) in the same random slices; after every slice the stop
// reason, the instructions retired, every register of every context, SRAM,
// the fault record and the tile's state must be identical.
// With --traced both run with a retire hook (lock-step and tracing do; the JIT
// then runs traced translations) and the streams of retired instructions
// must be identical too.
// Usage: test_iss_fuzz [--count N] [--seed S] [--tier jit|fast] [--traced];
// ctest runs a bounded count, `make bench` a large one.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "iss.hpp"
#include "iss_compare.hpp"
#include "iss_fast.hpp"
#include "iss_jit.hpp"
#include "tile.hpp"

namespace {

using ipu::model::Context;
using ipu::model::IssMode;
using ipu::model::Stop;
using ipu::model::Tile;
using iss_compare::differ;
using iss_compare::Machine;
using iss_compare::setup;

constexpr uint32_t kBase = IPU_TILE_SRAM_BASE;
constexpr uint32_t kSram = 4096;  // small, so that random addresses often leave it
constexpr uint32_t kWords = 48;   // program length in instructions
constexpr uint64_t kMaxInsns = 3000;

class Gen {
public:
    explicit Gen(uint64_t seed) : rng_(seed) {}
    uint32_t u32() { return static_cast<uint32_t>(rng_()); }
    uint32_t below(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }
    bool chance(unsigned percent) { return below(100) < percent; }
    // Mostly x0-x7 (the registers set up as pointers), sometimes any.
    uint32_t reg() { return chance(85) ? below(8) : below(32); }
    int32_t small_imm() { return static_cast<int32_t>(below(161)) - 80; }
    // A load or store offset, mostly word-aligned.
    int32_t mem_imm() { return chance(75) ? small_imm() & ~3 : small_imm(); }

    uint32_t insn(uint32_t index)
    {
        const uint32_t rd = reg(), rs1 = reg(), rs2 = reg(), f3 = below(8);
        auto i_type = [&](uint32_t opc, uint32_t f, int32_t imm) {
            return (static_cast<uint32_t>(imm) << 20) | (rs1 << 15) | (f << 12) | (rd << 7) | opc;
        };
        auto s_type = [&](uint32_t opc, uint32_t f, int32_t imm) {
            const uint32_t u = static_cast<uint32_t>(imm);
            return ((u >> 5 & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f << 12) | ((u & 31) << 7) | opc;
        };
        auto r_type = [&](uint32_t opc, uint32_t f7, uint32_t f) {
            return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f << 12) | (rd << 7) | opc;
        };
        // A branch or jump a few instructions away (sometimes outside the program or misaligned).
        auto offset = [&]() {
            int32_t off = (static_cast<int32_t>(below(13)) - 6) * 4;
            if (off == 0 || chance(3))
                off += chance(50) ? 2 : 4 * static_cast<int32_t>(kWords);
            (void)index;
            return off;
        };
        const uint32_t kind = below(100); // random words (mostly illegal) 3 times in 100
        switch (kind < 97 ? kind % 19 : 19) {
        case 0: return (u32() & 0xfffff000u) | (rd << 7) | (chance(50) ? 0x37 : 0x17);
        case 1: case 2: {
            if (f3 == 1 || f3 == 5) {
                const uint32_t f7 = chance(90) ? (chance(50) ? 0 : 0x20) : below(128);
                return (f7 << 25) | (below(32) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x13;
            }
            return i_type(0x13, f3, chance(50) ? small_imm() : static_cast<int32_t>(u32()) >> 20);
        }
        case 3: case 4: {
            const uint32_t f7s[] = {0, 0x20, 0x01, below(128)};
            return r_type(0x33, f7s[chance(90) ? below(3) : 3], f3);
        }
        case 5: case 6: return i_type(0x03, chance(90) ? below(6) : f3, mem_imm());
        case 7: case 8: return s_type(0x23, chance(90) ? below(3) : f3, mem_imm());
        case 9: {
            const int32_t off = offset();
            const uint32_t u = static_cast<uint32_t>(off);
            return ((u >> 12 & 1) << 31) | ((u >> 5 & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
                   ((u >> 1 & 0xf) << 8) | ((u >> 11 & 1) << 7) | 0x63;
        }
        case 10: {
            const uint32_t u = static_cast<uint32_t>(offset());
            return ((u >> 20 & 1) << 31) | ((u >> 1 & 0x3ff) << 21) | ((u >> 11 & 1) << 20) |
                   ((u >> 12 & 0xff) << 12) | (rd << 7) | 0x6f;
        }
        case 11: return i_type(0x67, chance(95) ? 0 : f3, small_imm()); // rs1 often x5, the program's base
        case 12: return i_type(0x07, chance(95) ? 2 : f3, mem_imm()); // flw
        case 13: return s_type(0x27, chance(95) ? 2 : f3, mem_imm()); // fsw
        case 14: case 15: {
            const uint32_t f7s[] = {0x00, 0x04, 0x08, 0x0c, 0x10, 0x14, 0x2c, 0x50, 0x60, 0x68, 0x70, 0x78};
            const uint32_t f7 = chance(95) ? f7s[below(12)] : below(128);
            uint32_t r2 = rs2;
            if ((f7 == 0x60 || f7 == 0x68 || f7 == 0x2c || f7 == 0x70 || f7 == 0x78) && chance(80))
                r2 = f7 == 0x60 || f7 == 0x68 ? below(2) : 0;
            return (f7 << 25) | (r2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x53;
        }
        case 16: {
            const uint32_t opc[] = {0x43, 0x47, 0x4b, 0x4f};
            return (below(32) << 27) | ((chance(95) ? 0 : below(4)) << 25) | (rs2 << 20) | (rs1 << 15) |
                   (f3 << 12) | (rd << 7) | opc[below(4)];
        }
        case 17: {
            const uint32_t csrs[] = {IPU_CSR_FFLAGS,     IPU_CSR_FRM,        IPU_CSR_FCSR,     IPU_CSR_CYCLE,
                                     IPU_CSR_CYCLEH,     IPU_CSR_INSTRET,    IPU_CSR_INSTRETH, IPU_CSR_TILE_ID,
                                     IPU_CSR_CONTEXT_ID, IPU_CSR_NUM_TILES,  IPU_CSR_NUM_WORKERS,
                                     IPU_CSR_SRAM_SIZE,  IPU_CSR_STACK_LIMIT, IPU_CSR_FAIL_INFO,
                                     IPU_CSR_WORKER_ENTRY, IPU_CSR_WORKER_ARG, IPU_CSR_CONSOLE};
            const uint32_t csr = chance(95) ? csrs[below(sizeof csrs / sizeof csrs[0])] : below(4096);
            return (csr << 20) | (rs1 << 15) | ((chance(95) ? 1 + below(7) : 0) << 12) | (rd << 7) | 0x73;
        }
        case 18: return chance(80) ? 0x0000000f : (chance(50) ? 0x00100073 : 0x00000073); // fence, ebreak, ecall
        default: return u32(); // mostly illegal
        }
    }

    uint32_t freg()
    {
        const uint32_t special[] = {0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
                                    0x3f800000, 0xbf800000, 0x00000001, 0x007fffff, 0x4f000000, 0xcf000000};
        return chance(40) ? special[below(12)] : u32();
    }

private:
    std::mt19937_64 rng_;
};

void dump(const Machine &ref, const Machine &jit, const std::vector<uint8_t> &image)
{
    std::fprintf(stderr, "program:\n");
    for (uint32_t i = 0; i < kWords; i++) {
        uint32_t w;
        std::memcpy(&w, image.data() + 4 * i, 4);
        std::fprintf(stderr, "  %08x: %08x\n", kBase + 4 * i, w);
    }
    const Context &a = ref.tile.ctx[0], &b = jit.tile.ctx[0];
    std::fprintf(stderr, "ref pc %08x instret %llu fault %u@%08x   jit pc %08x instret %llu fault %u@%08x\n", a.pc,
                 static_cast<unsigned long long>(a.instret), ref.tile.fault.cause, ref.tile.fault.pc, b.pc,
                 static_cast<unsigned long long>(b.instret), jit.tile.fault.cause, jit.tile.fault.pc);
    for (unsigned r = 0; r < 32; r++)
        if (a.x[r] != b.x[r] || a.f[r] != b.f[r])
            std::fprintf(stderr, "  x%u %08x/%08x f%u %08x/%08x\n", r, a.x[r], b.x[r], r, a.f[r], b.f[r]);
}

// One retired instruction as a retire hook reports it.
struct Retired {
    unsigned context, rd;
    uint32_t pc, insn, value;
    uint64_t cycle;
    bool operator!=(const Retired &o) const
    {
        return context != o.context || rd != o.rd || pc != o.pc || insn != o.insn || value != o.value ||
               cycle != o.cycle;
    }
};
void record(void *opaque, const Tile &, unsigned context, uint32_t pc, uint32_t insn, unsigned rd, uint32_t value,
            uint64_t cycle)
{
    static_cast<std::vector<Retired> *>(opaque)->push_back(Retired{context, rd, pc, insn, value, cycle});
}

// Runs program `index` of `seed` on both tiers; false (after a report) if they differ.
uint64_t g_retired = 0; // instructions retired by the reference over all programs

bool run_one(uint64_t seed, uint64_t index, IssMode tier, bool traced)
{
    Gen g(seed * 0x9e3779b97f4a7c15ull + index);
    std::vector<uint8_t> image(kSram);
    for (auto &b : image)
        b = static_cast<uint8_t>(g.u32());
    for (uint32_t i = 0; i < kWords; i++) {
        const uint32_t w = g.insn(i);
        std::memcpy(image.data() + 4 * i, &w, 4);
    }
    Context start;
    start.state = IPU_CTX_STATE_RUNNING;
    start.pc = kBase + 4 * (g.chance(90) ? 0 : g.below(kWords));
    for (unsigned r = 1; r < 32; r++)
        start.x[r] = g.chance(85) ? kBase + (g.chance(90) ? g.below(kSram) & ~3u : g.below(kSram + 128))
                                  : g.u32();
    start.x[2] = kBase + 3072 + 4 * g.below(64);     // sp
    start.x[5] = kBase + 4 * g.below(kWords);        // jalr targets inside the program
    start.x[6] = kBase + 4 * g.below(kWords);        // stores into the program
    start.x[7] = g.insn(0);                          // an instruction to store there
    for (unsigned r = 0; r < 32; r++)
        start.f[r] = g.freg();
    start.frm = g.below(8);
    start.stack_limit = g.chance(50) ? 0 : kBase + g.below(kSram);
    Machine ref, jit;
    setup(ref, image, start);
    setup(jit, image, start);
    ref.tile.iss.mode = IssMode::Interp;
    jit.tile.iss.mode = tier;
    std::vector<Retired> ref_seen, jit_seen;
    const ipu::model::RetireHook ref_hook{&ref_seen, record}, jit_hook{&jit_seen, record};
    uint64_t total = 0;
    while (total < kMaxInsns) {
        const uint64_t slice = 1 + g.below(g.chance(50) ? 8 : 400);
        uint64_t na = 0, nb = 0;
        const Stop sa = ipu::model::run_context(ref.tile, 0, slice, &na, traced ? &ref_hook : nullptr);
        const Stop sb = ipu::model::run_context(jit.tile, 0, slice, &nb, traced ? &jit_hook : nullptr);
        std::string d = differ(ref, jit);
        if (d.empty() && (sa != sb || na != nb))
            d = "stop or count";
        if (d.empty() && ref_seen.size() != jit_seen.size())
            d = "number of retire reports";
        for (size_t i = 0; d.empty() && i < ref_seen.size(); i++)
            if (ref_seen[i] != jit_seen[i])
                d = "retire report " + std::to_string(i) + " (pc " + std::to_string(ref_seen[i].pc) + ")";
        if (!d.empty()) {
            std::fprintf(stderr, "seed %llu program %llu: %s differs (stop %d/%d, retired %llu/%llu)\n",
                         static_cast<unsigned long long>(seed), static_cast<unsigned long long>(index), d.c_str(),
                         static_cast<int>(sa), static_cast<int>(sb), static_cast<unsigned long long>(na),
                         static_cast<unsigned long long>(nb));
            dump(ref, jit, image);
            return false;
        }
        total += na;
        g_retired += na;
        if (sa != Stop::Budget)
            break;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t count = 20000, seed = 1;
    IssMode tier = IssMode::Jit;
    bool traced = false;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--traced")
            traced = true;
        else if (a == "--count" && i + 1 < argc)
            count = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--seed" && i + 1 < argc)
            seed = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--tier" && i + 1 < argc &&
                 (std::string(argv[i + 1]) == "jit" || std::string(argv[i + 1]) == "fast"))
            tier = std::string(argv[++i]) == "jit" ? IssMode::Jit : IssMode::Fast;
        else {
            std::fprintf(stderr, "usage: test_iss_fuzz [--count N] [--seed S] [--tier jit|fast] [--traced]\n");
            return 2;
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    uint64_t failures = 0;
    for (uint64_t i = 0; i < count && failures < 5; i++)
        failures += run_one(seed, i, tier, traced) ? 0 : 1;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("iss fuzz (%s%s vs interp): %llu programs, %llu instructions, seed %llu, %llu differing, %.2f s\n",
                tier == IssMode::Jit ? "jit" : "fast", traced ? ", traced" : "", static_cast<unsigned long long>(count),
                static_cast<unsigned long long>(g_retired), static_cast<unsigned long long>(seed),
                static_cast<unsigned long long>(failures), s);
    std::printf("JIT: %llu translations, %.1f MiB of code memory mapped (bound %llu MiB), %llu resets\n",
                static_cast<unsigned long long>(ipu::model::jit_translations()),
                static_cast<double>(ipu::model::jit_code_bytes()) / (1 << 20),
                static_cast<unsigned long long>(ipu::model::kJitCodeBytes >> 20),
                static_cast<unsigned long long>(ipu::model::jit_generation()));
    return failures == 0 && count > 0 ? 0 : 1;
}
