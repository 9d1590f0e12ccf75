// RV32IMF + Zicsr interpreter: decode, execute, fault. Tile CSRs are in tile_csr.cpp.
#include "iss.hpp"

#include <cstring>

#include "fpu.h"
#include "rv32_fields.hpp"
#include "tile_csr.hpp"

namespace ipu::model {
namespace {

using rv32::imm_b;
using rv32::imm_i;
using rv32::imm_j;
using rv32::imm_s;
using rv32::imm_u;

// Resolves an instruction's rounding-mode field; returns false for the
// reserved encodings, which are illegal instructions.
inline bool rounding_mode(uint32_t field, uint32_t frm, unsigned &rm)
{
    rm = field == 7 ? frm : field;
    return rm <= 4;
}

uint32_t fp_op(uint32_t funct7, uint32_t f3, uint32_t a, uint32_t b, unsigned rm, uint32_t &flags, bool &ok)
{
    namespace fpu = ipu::fpu;
    switch (funct7) {
    case 0x00: return fpu::add(a, b, rm, flags);
    case 0x04: return fpu::sub(a, b, rm, flags);
    case 0x08: return fpu::mul(a, b, rm, flags);
    case 0x0c: return fpu::div(a, b, rm, flags);
    case 0x10:
        switch (f3) {
        case 0: return (a & 0x7fffffffu) | (b & 0x80000000u);
        case 1: return (a & 0x7fffffffu) | (~b & 0x80000000u);
        case 2: return a ^ (b & 0x80000000u);
        }
        break;
    case 0x14:
        if (f3 == 0)
            return fpu::min(a, b, flags);
        if (f3 == 1)
            return fpu::max(a, b, flags);
        break;
    }
    ok = false;
    return 0;
}

} // namespace

Stop execute(Tile &tile, unsigned c, uint64_t budget, uint64_t *executed, const RetireHook *hook)
{
    Context &cx = tile.ctx[c];
    uint32_t *x = cx.x.data();
    uint32_t pc = cx.pc;
    uint64_t n = 0;
    const uint32_t base = IPU_TILE_SRAM_BASE;
    const uint32_t size = tile.sram_bytes;
    uint8_t *const mem = tile.sram;
    const uint64_t ic = tile.issue_cycles;
    // Time and instret are kept as baseline + n * rate and written back only
    // when something outside the loop may look at them (CSRs, the exit).
    uint64_t t0 = cx.time;
    const uint64_t i0 = cx.instret;
    // The stack guard: an sp below this faults. 0 never does, so the check
    // needs no enable test (one compare on the write-back path).
    uint32_t stack_limit = cx.stack_limit;
    Stop stop = Stop::Budget;

// Leaves the loop with a fault; the instruction does not retire.
#define FAULT(cause, addr)                                                                                         \
    do {                                                                                                           \
        tile.raise((cause), c, pc, (addr));                                                                        \
        stop = Stop::Fault;                                                                                        \
        goto out;                                                                                                  \
    } while (0)
#define ILLEGAL() FAULT(IPU_ERR_ILLEGAL_INSTRUCTION, insn)

    while (n < budget) {
        if ((pc & 3) || pc - base > size - 4 || pc < base) {
            tile.raise(IPU_ERR_FETCH_FAULT, c, pc, pc);
            stop = Stop::Fault;
            break;
        }
        uint32_t insn;
        std::memcpy(&insn, mem + (pc - base), 4);
        const uint32_t rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31, rs2 = (insn >> 20) & 31;
        const uint32_t f3 = (insn >> 12) & 7;
        uint32_t next = pc + 4;
        uint32_t result = 0;
        bool writes_rd = true;

        switch (insn & 0x7f) {
        case 0x37: result = imm_u(insn); break;                        // LUI
        case 0x17: result = pc + imm_u(insn); break;                   // AUIPC
        case 0x6f: result = next; next = pc + imm_j(insn); break;      // JAL
        case 0x67:                                                     // JALR
            if (f3 != 0)
                ILLEGAL();
            result = next;
            next = (x[rs1] + imm_i(insn)) & ~1u;
            break;
        case 0x63: {                                                   // BRANCH
            const uint32_t a = x[rs1], b = x[rs2];
            bool taken;
            switch (f3) {
            case 0: taken = a == b; break;
            case 1: taken = a != b; break;
            case 4: taken = static_cast<int32_t>(a) < static_cast<int32_t>(b); break;
            case 5: taken = static_cast<int32_t>(a) >= static_cast<int32_t>(b); break;
            case 6: taken = a < b; break;
            case 7: taken = a >= b; break;
            default: ILLEGAL();
            }
            if (taken)
                next = pc + imm_b(insn);
            writes_rd = false;
            break;
        }
        case 0x03: {                                                   // LOAD
            const uint32_t addr = x[rs1] + imm_i(insn);
            const uint32_t len = 1u << (f3 & 3);
            if (f3 == 3 || f3 > 5)
                ILLEGAL();
            if (addr & (len - 1))
                FAULT(IPU_ERR_LOAD_MISALIGNED, addr);
            if (addr < base || addr - base > size - len)
                FAULT(IPU_ERR_LOAD_FAULT, addr);
            const uint8_t *p = mem + (addr - base);
            switch (f3) {
            case 0: result = static_cast<uint32_t>(static_cast<int8_t>(*p)); break;
            case 1: { int16_t v; std::memcpy(&v, p, 2); result = static_cast<uint32_t>(v); break; }
            case 2: std::memcpy(&result, p, 4); break;
            case 4: result = *p; break;
            case 5: { uint16_t v; std::memcpy(&v, p, 2); result = v; break; }
            }
            break;
        }
        case 0x23: {                                                   // STORE
            const uint32_t addr = x[rs1] + imm_s(insn);
            const uint32_t len = 1u << f3;
            if (f3 > 2)
                ILLEGAL();
            if (addr & (len - 1))
                FAULT(IPU_ERR_STORE_MISALIGNED, addr);
            if (addr < base || addr - base > size - len)
                FAULT(IPU_ERR_STORE_FAULT, addr);
            std::memcpy(mem + (addr - base), &x[rs2], len); // little-endian host
            tile.iss.stored(addr, len);                     // decoded code there is dropped
            writes_rd = false;
            break;
        }
        case 0x13: {                                                   // OP-IMM
            const uint32_t a = x[rs1], imm = imm_i(insn), sh = rs2;
            switch (f3) {
            case 0: result = a + imm; break;
            case 2: result = static_cast<int32_t>(a) < static_cast<int32_t>(imm); break;
            case 3: result = a < imm; break;
            case 4: result = a ^ imm; break;
            case 6: result = a | imm; break;
            case 7: result = a & imm; break;
            case 1:
                if (insn >> 25)
                    ILLEGAL();
                result = a << sh;
                break;
            case 5:
                if ((insn >> 25) == 0)
                    result = a >> sh;
                else if ((insn >> 25) == 0x20)
                    result = static_cast<uint32_t>(static_cast<int32_t>(a) >> sh);
                else
                    ILLEGAL();
                break;
            }
            break;
        }
        case 0x33: {                                                   // OP and M
            const uint32_t a = x[rs1], b = x[rs2], f7 = insn >> 25;
            if (f7 == 0x01) {
                const int32_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
                switch (f3) {
                case 0: result = a * b; break;
                case 1: result = static_cast<uint32_t>((static_cast<int64_t>(sa) * sb) >> 32); break;
                case 2: result = static_cast<uint32_t>((static_cast<int64_t>(sa) * static_cast<int64_t>(b)) >> 32); break;
                case 3: result = static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32); break;
                case 4: result = b == 0 ? ~0u : (sa == INT32_MIN && sb == -1) ? a : static_cast<uint32_t>(sa / sb); break;
                case 5: result = b == 0 ? ~0u : a / b; break;
                case 6: result = b == 0 ? a : (sa == INT32_MIN && sb == -1) ? 0 : static_cast<uint32_t>(sa % sb); break;
                case 7: result = b == 0 ? a : a % b; break;
                }
                break;
            }
            if (f7 != 0 && !(f7 == 0x20 && (f3 == 0 || f3 == 5)))
                ILLEGAL();
            switch (f3) {
            case 0: result = f7 ? a - b : a + b; break;
            case 1: result = a << (b & 31); break;
            case 2: result = static_cast<int32_t>(a) < static_cast<int32_t>(b); break;
            case 3: result = a < b; break;
            case 4: result = a ^ b; break;
            case 5: result = f7 ? static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31)) : a >> (b & 31); break;
            case 6: result = a | b; break;
            case 7: result = a & b; break;
            }
            break;
        }
        case 0x0f:                                                     // FENCE, FENCE.I: one memory, no caches
            writes_rd = false;
            break;
        case 0x73: {                                                   // SYSTEM
            if (f3 == 0) {
                if (insn == 0x00000073)
                    FAULT(IPU_ERR_ECALL, 0);
                if (insn == 0x00100073)
                    FAULT(IPU_ERR_EBREAK, 0);
                ILLEGAL();
            }
            if (f3 == 4)
                ILLEGAL();
            const uint32_t csr = insn >> 20;
            const uint32_t src = (f3 & 4) ? rs1 : x[rs1];
            const unsigned op = f3 & 3; // 1 write, 2 set, 3 clear
            const bool do_read = !(op == 1 && rd == 0);
            const bool do_write = op == 1 || rs1 != 0;
            cx.pc = pc;
            cx.time = t0 + n * ic;
            cx.instret = i0 + n;
            CsrOutcome o = csr_access(tile, c, csr, op, src, do_read, do_write, result);
            t0 = cx.time - n * ic; // the CSR may have moved time (join, exchange)
            stack_limit = cx.stack_limit;
            if (o == CsrOutcome::Illegal)
                ILLEGAL();
            if (o == CsrOutcome::Fault) {
                stop = Stop::Fault;
                goto out;
            }
            if (o == CsrOutcome::Retry) { // stalls without retiring (join)
                stop = Stop::Join;
                goto out;
            }
            if (rd)
                x[rd] = result;
            if (o != CsrOutcome::Done) {
                stop = o == CsrOutcome::Sync ? Stop::Sync
                     : o == CsrOutcome::Exit ? Stop::Exit
                     : o == CsrOutcome::WorkerDone ? Stop::WorkerDone
                                                   : Stop::HostExchange;
                pc = next;
                n++;
                if (hook && hook->retired)
                    hook->retired(hook->opaque, tile, c, pc - 4, insn, rd, rd ? result : 0, t0 + (n - 1) * ic);
                goto out;
            }
            break;
        }
        case 0x07: {                                                   // FLW
            const uint32_t addr = x[rs1] + imm_i(insn);
            if (f3 != 2)
                ILLEGAL();
            if (addr & 3)
                FAULT(IPU_ERR_LOAD_MISALIGNED, addr);
            if (addr < base || addr - base > size - 4)
                FAULT(IPU_ERR_LOAD_FAULT, addr);
            std::memcpy(&cx.f[rd], mem + (addr - base), 4);
            writes_rd = false;
            break;
        }
        case 0x27: {                                                   // FSW
            const uint32_t addr = x[rs1] + imm_s(insn);
            if (f3 != 2)
                ILLEGAL();
            if (addr & 3)
                FAULT(IPU_ERR_STORE_MISALIGNED, addr);
            if (addr < base || addr - base > size - 4)
                FAULT(IPU_ERR_STORE_FAULT, addr);
            std::memcpy(mem + (addr - base), &cx.f[rs2], 4);
            tile.iss.stored(addr, 4);
            writes_rd = false;
            break;
        }
        case 0x43: case 0x47: case 0x4b: case 0x4f: {                  // FMADD, FMSUB, FNMSUB, FNMADD
            unsigned rm;
            if (((insn >> 25) & 3) != 0 || !rounding_mode(f3, cx.frm, rm))
                ILLEGAL();
            const uint32_t a = cx.f[rs1], b = cx.f[rs2], d = cx.f[insn >> 27];
            uint32_t r;
            switch (insn & 0x7f) {
            case 0x43: r = fpu::madd(a, b, d, rm, cx.fflags); break;
            case 0x47: r = fpu::msub(a, b, d, rm, cx.fflags); break;
            case 0x4b: r = fpu::nmsub(a, b, d, rm, cx.fflags); break;
            default: r = fpu::nmadd(a, b, d, rm, cx.fflags); break;
            }
            cx.f[rd] = r;
            writes_rd = false;
            break;
        }
        case 0x53: {                                                   // OP-FP
            const uint32_t f7 = insn >> 25;
            const uint32_t a = cx.f[rs1], b = cx.f[rs2];
            unsigned rm = 0;
            const bool needs_rm = f7 <= 0x0c || f7 == 0x2c || f7 == 0x60 || f7 == 0x68;
            if (needs_rm && !rounding_mode(f3, cx.frm, rm))
                ILLEGAL();
            switch (f7) {
            case 0x2c:
                if (rs2)
                    ILLEGAL();
                cx.f[rd] = fpu::sqrt(a, rm, cx.fflags);
                writes_rd = false;
                break;
            case 0x50:                                                 // FEQ/FLT/FLE
                if (f3 == 2) result = fpu::eq(a, b, cx.fflags);
                else if (f3 == 1) result = fpu::lt(a, b, cx.fflags);
                else if (f3 == 0) result = fpu::le(a, b, cx.fflags);
                else ILLEGAL();
                break;
            case 0x60:                                                 // FCVT.W[U].S
                if (rs2 > 1)
                    ILLEGAL();
                result = rs2 ? fpu::cvt_wu_s(a, rm, cx.fflags) : fpu::cvt_w_s(a, rm, cx.fflags);
                break;
            case 0x68:                                                 // FCVT.S.W[U]
                if (rs2 > 1)
                    ILLEGAL();
                cx.f[rd] = rs2 ? fpu::cvt_s_wu(x[rs1], rm, cx.fflags) : fpu::cvt_s_w(x[rs1], rm, cx.fflags);
                writes_rd = false;
                break;
            case 0x70:                                                 // FMV.X.W / FCLASS
                if (rs2)
                    ILLEGAL();
                if (f3 == 0) result = a;
                else if (f3 == 1) result = fpu::classify(a);
                else ILLEGAL();
                break;
            case 0x78:                                                 // FMV.W.X
                if (rs2 || f3)
                    ILLEGAL();
                cx.f[rd] = x[rs1];
                writes_rd = false;
                break;
            default: {
                bool ok = true;
                const uint32_t r = fp_op(f7, f3, a, b, rm, cx.fflags, ok);
                if (!ok)
                    ILLEGAL();
                cx.f[rd] = r;
                writes_rd = false;
                break;
            }
            }
            break;
        }
        default:
            ILLEGAL();
        }
        if (writes_rd && rd) {
            if (rd == 2 && result < stack_limit) {
                tile.raise(IPU_ERR_STACK_OVERFLOW, c, pc, result, stack_limit);
                stop = Stop::Fault;
                break;
            }
            x[rd] = result;
        }
        if (hook && hook->retired)
            hook->retired(hook->opaque, tile, c, pc, insn, writes_rd ? rd : 0, writes_rd && rd ? result : 0,
                          t0 + n * ic);
        pc = next;
        n++;
    }
out:
#undef FAULT
#undef ILLEGAL
    cx.time = t0 + n * ic;
    cx.pc = pc;
    cx.instret = i0 + n;
    *executed = n;
    return stop;
}

void trace_retired(void *file, const Tile &tile, unsigned context, uint32_t pc, uint32_t insn, unsigned rd,
                   uint32_t rd_value, uint64_t)
{
    auto *out = static_cast<FILE *>(file);
    if (rd)
        std::fprintf(out, "tile %u ctx %u pc %08x insn %08x x%-2u=%08x\n", tile.id, context, pc, insn, rd, rd_value);
    else
        std::fprintf(out, "tile %u ctx %u pc %08x insn %08x\n", tile.id, context, pc, insn);
}

} // namespace ipu::model
