// The JIT translator (see iss_jit.hpp). A block's ops become straight-line
// x86-64 code: guest registers stay in the Context (rbx), SRAM is addressed
// from r12, JitEnv from r13 and the budget left is in r10; a0-a6 are also
// held in r14d, r8d, r9d, r15d, edi, esi and r11d (Gen::XH), fa0-fa7 in
// xmm8-xmm15 (Gen::FH). Loads and stores repeat the fast tier's alignment and bounds checks
// and its code-bitmap check after a store; the rare paths (faults, code
// written, illegal rounding) are emitted after the block's main line.
// FP arithmetic in round-to-nearest-even runs on the host's SSE/FMA units
// inline with the MXCSR's sticky flags as fflags (docs/architecture.md, "The
// JIT tier", says why that is bit-exact); other rounding modes and the
// conversions to integers call the same fpu:: helpers as the fast tier.
#include "iss_jit.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <deque>
#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <xbyak/xbyak.h>

#include "fpu.h"

namespace ipu::model {
namespace {

// True for the ops whose integer result the reference reports as rd
// (iss.cpp: writes_rd); FP results, stores and branches report rd 0.
bool writes_x(OpKind k)
{
    switch (k) {
    case OpKind::LI: case OpKind::ADDI: case OpKind::ADDI_SP: case OpKind::SLTI: case OpKind::SLTIU:
    case OpKind::XORI: case OpKind::ORI: case OpKind::ANDI: case OpKind::SLLI: case OpKind::SRLI:
    case OpKind::SRAI: case OpKind::ADD: case OpKind::SUB: case OpKind::SLL: case OpKind::SLT:
    case OpKind::SLTU: case OpKind::XOR: case OpKind::SRL: case OpKind::SRA: case OpKind::OR:
    case OpKind::AND: case OpKind::MUL: case OpKind::MULH: case OpKind::MULHSU: case OpKind::MULHU:
    case OpKind::DIV: case OpKind::DIVU: case OpKind::REM: case OpKind::REMU: case OpKind::LB:
    case OpKind::LH: case OpKind::LW: case OpKind::LBU: case OpKind::LHU: case OpKind::FMV_X_W:
    case OpKind::FEQ: case OpKind::FLT: case OpKind::FLE: case OpKind::FCVT_W_S: case OpKind::FCVT_WU_S:
    case OpKind::JAL: case OpKind::JALR:
        return true;
    default:
        return false;
    }
}

// Called by a traced translation after op `index` of env->blk retired (a
// traced translation does not chain, so env->blk and env->n are its entry's).
void traced_retire(JitEnv *env, uint32_t index)
{
    const Block &b = *env->blk;
    const Op &o = b.ops[index];
    const unsigned rd = writes_x(o.kind) ? o.rd : 0;
    const uint32_t value = rd ? env->tile->ctx[env->context].x[rd] : 0;
    env->hook->retired(env->hook->opaque, *env->tile, env->context, b.pc + 4 * index, b.raw[index], rd, value,
                       env->t0 + (env->n + index) * env->ic);
}

// Offsets of the Block fields chaining reads (Block is not standard-layout,
// so not offsetof).
const Block kProbe{};
int field_offset(const void *field)
{
    return static_cast<int>(static_cast<const char *>(field) - reinterpret_cast<const char *>(&kProbe));
}
const int kPcOff = field_offset(&kProbe.pc);
const int kLenOff = field_offset(&kProbe.len);
const int kNextOff = field_offset(&kProbe.next[0]);
const int kChainedOff = field_offset(&kProbe.jit_chained);
static_assert(sizeof(Block::pc) == 4 && sizeof(Block::len) == 4, "chaining compares these widths");

int body_offset();

// Translated code runs with this MXCSR: round to nearest even, every
// exception masked (so the status bits stick, as fflags do), no FTZ or DAZ.
constexpr uint32_t kGuestMxcsr = 0x1f80;

// RISC-V fflags (NV 16, DZ 8, OF 4, UF 2, NX 1) for the MXCSR's status bits
// (IE 1, DE 2, ZE 4, OE 8, UE 16, PE 32); DE, a subnormal operand, is no
// RISC-V flag.
constexpr std::array<uint8_t, 64> kFflagsOf = [] {
    std::array<uint8_t, 64> t{};
    for (unsigned m = 0; m < 64; m++)
        t[m] = static_cast<uint8_t>((m & 1 ? fpu::kNV : 0) | (m & 4 ? fpu::kDZ : 0) | (m & 8 ? fpu::kOF : 0) |
                                    (m & 16 ? fpu::kUF : 0) | (m & 32 ? fpu::kNX : 0));
    return t;
}();

uint64_t exit_code(JitExit e, uint32_t index) { return (uint64_t{static_cast<uint32_t>(e)} << 32) | index; }

class Gen : public Xbyak::CodeGenerator {
public:
    Gen(void *buf, size_t size, bool traced = false) : Xbyak::CodeGenerator(size, buf), traced_(traced) {}

    // The entry sequence; chained blocks jump past it (body_offset()).
    void prologue()
    {
        push(rbx);
        push(rbp);
        push(r12);
        push(r13);
        push(r14);
        push(r15);
        sub(rsp, 8); // rsp 16-byte aligned for calls
        mov(rbx, rdi);
        mov(r12, rsi);
        mov(r13, rdx);
        mov(rbp, qword[rdx + offsetof(JitEnv, blk)]);
        // The budget left before this block (budget - n) stays in a register
        // across a chain: a chained exit neither loads nor stores n, which
        // goes back to JitEnv only at the exit.
        mov(r10, qword[rdx + offsetof(JitEnv, budget)]);
        sub(r10, qword[rdx + offsetof(JitEnv, n)]);
        if (!traced_) { // the guest's MXCSR: RNE, all masked, no status; the host's is kept at [rsp]
            stmxcsr(dword[rsp]);
            mov(dword[rsp + 4], kGuestMxcsr);
            ldmxcsr(dword[rsp + 4]);
        }
        load_mapped();
    }

    void block(const Block &b)
    {
        prologue();
        // A chained entry lands here: a block the budget cannot hold all of
        // goes back to the ISS before its first op (JitExit::Enter).
        Xbyak::Label &short_budget = label();
        L(body_);
        cmp(r10, static_cast<int>(b.len));
        jb(short_budget, T_NEAR);
        exit_stub(short_budget, JitExit::Enter, 0);
        for (uint32_t i = 0; i < b.ops.size(); i++) {
            if (!op(b, i))
                break;
            if (traced_ && !is_store(b.ops[i].kind)) // stores report before their code check
                retire(i);
        }
        for (size_t k = 0; k < stubs_.size(); k++) // by index: a stub may add one
            stubs_[k]();
        L(epi_);
        store_mapped();
        mov(qword[r13 + offsetof(JitEnv, blk)], rbp);
        mov(rdx, qword[r13 + offsetof(JitEnv, budget)]);
        sub(rdx, r10);
        mov(qword[r13 + offsetof(JitEnv, n)], rdx);
        if (!traced_) { // the status bits raised since the prologue into fflags; the host's MXCSR back
            stmxcsr(dword[rsp + 4]);
            mov(ecx, dword[rsp + 4]);
            and_(ecx, 0x3f);
            mov(rdx, reinterpret_cast<uint64_t>(kFflagsOf.data()));
            movzx(ecx, byte[rdx + rcx]);
            or_(dword[rbx + offsetof(Context, fflags)], ecx);
            ldmxcsr(dword[rsp]);
        }
        add(rsp, 8);
        pop(r15);
        pop(r14);
        pop(r13);
        pop(r12);
        pop(rbp);
        pop(rbx);
        ret();
    }

private:
    Xbyak::Address X(unsigned i) { return dword[rbx + (offsetof(Context, x) + 4 * i)]; }

    // The guest registers compiled code uses most (a0-a6) are
    // held in host registers, the same ones in every translation so that
    // they stay there across a chain. Their Context slots are stale while
    // translated code runs: the epilogue writes them back (every exit, a
    // fault's too, passes through it), and so does the code before each call
    // of a helper, which reads and writes the Context; the prologue loads
    // them, and so does the code after each call (they are caller-saved,
    // except r14 and r15). A traced translation writes them through, since
    // its hook reads the Context after every op.
    static constexpr std::array<unsigned, 7> kMapped{10, 11, 12, 13, 14, 15, 16};
    static bool mapped(unsigned i) { return i >= 10 && i <= 16; }
    Xbyak::Reg32 XH(unsigned i) const
    {
        switch (i) {
        case 10: return r14d;
        case 11: return r8d;
        case 12: return r9d;
        case 13: return r15d;
        case 14: return edi;
        case 15: return esi;
        default: return r11d;
        }
    }
    void store_mapped()
    {
        if (traced_)
            return; // written through
        for (unsigned i : kMapped)
            mov(X(i), XH(i));
        for (unsigned i = kFirstFH; i < kFirstFH + 8; i++)
            movss(F(i), FH(i));
    }
    void load_mapped()
    {
        for (unsigned i : kMapped)
            mov(XH(i), X(i));
        for (unsigned i = kFirstFH; i < kFirstFH + 8; i++)
            movss(FH(i), F(i));
    }
    // fa0-fa7 (f10-f17, the accumulators and arguments of FP code) live in
    // xmm8-xmm15 the same way: written back at exits and before calls,
    // loaded by the prologue and after each call (every xmm register is
    // caller-saved), so a loop-carried FP value never goes through memory.
    static constexpr unsigned kFirstFH = 10;
    static bool f_mapped(unsigned i) { return i >= kFirstFH && i < kFirstFH + 8; }
    static Xbyak::Xmm FH(unsigned i) { return Xbyak::Xmm(static_cast<int>(8 + (i & 7))); } // f10 -> xmm10, f16 -> xmm8
    // Runs f with a guest register as an operand: its host register when it
    // has one, else its slot in the Context.
    template <class Reg, class Fn>
    static void host_or_context(bool in_host, const Reg &host, const Xbyak::Address &slot, Fn f)
    {
        if (in_host)
            f(host);
        else
            f(slot);
    }
    // Runs f with f[i] as an SSE source operand.
    template <class Fn>
    void with_f(unsigned i, Fn f)
    {
        host_or_context(f_mapped(i), FH(i), F(i), f);
    }
    // xr = f[i] (the low lane; movaps avoids movss's merge with xr's old value).
    void f_to_xmm(const Xbyak::Xmm &xr, unsigned i)
    {
        if (f_mapped(i))
            movaps(xr, FH(i));
        else
            movss(xr, F(i));
    }
    // f[rd] = the low lane of xmm0, or eax: its host register, or its
    // Context slot (both in a traced translation).
    void write_f(unsigned rd, const Xbyak::Xmm &xr)
    {
        if (!f_mapped(rd) || traced_)
            movss(F(rd), xr);
        if (f_mapped(rd))
            movaps(FH(rd), xr);
    }
    void write_f(unsigned rd, const Xbyak::Reg32 &r)
    {
        if (!f_mapped(rd) || traced_)
            mov(F(rd), r);
        if (f_mapped(rd))
            movd(FH(rd), r);
    }
    // r = the bits of f[i].
    void f_bits(const Xbyak::Reg32 &r, unsigned i)
    {
        if (f_mapped(i))
            movd(r, FH(i));
        else
            mov(r, F(i));
    }
    // Runs f with x[i] as an operand.
    template <class Fn>
    void with_x(unsigned i, Fn f)
    {
        host_or_context(mapped(i), XH(i), X(i), f);
    }
    // r = x[i].
    void read_x(const Xbyak::Reg32 &r, unsigned i)
    {
        with_x(i, [&](const Xbyak::Operand &op) { mov(r, op); });
    }
    // x[rd] = r (or an immediate): its host register, or its Context slot
    // (both in a traced translation).
    void write_x(unsigned rd, const Xbyak::Reg32 &r)
    {
        if (!mapped(rd) || traced_)
            mov(X(rd), r);
        if (mapped(rd))
            mov(XH(rd), r);
    }
    void write_x(unsigned rd, uint32_t imm)
    {
        if (!mapped(rd) || traced_)
            mov(X(rd), imm);
        if (mapped(rd))
            mov(XH(rd), imm);
    }
    // eax = x[i], skipping the move when the previous op left x[i] in eax
    // (this saves the reload and its store-to-load forwarding latency on
    // dependency chains of the registers held in the Context only).
    void x_to_eax(unsigned i)
    {
        if (eax_ != static_cast<int>(i))
            read_x(eax, i);
    }
    // x[rd] = eax, which the next op may take from eax (not in a traced
    // translation, whose report after each op clobbers eax).
    void eax_to_x(unsigned rd)
    {
        write_x(rd, eax);
        if (!traced_)
            next_eax_ = static_cast<int>(rd);
    }
    Xbyak::Address F(unsigned i) { return dword[rbx + (offsetof(Context, f) + 4 * i)]; }
    Xbyak::Address env(size_t off) { return dword[r13 + off]; }

    // Leaves block `b` for the pc in eax by link slot `slot`: into the
    // linked successor's translation when it may run now, else back to the ISS.
    void chain(const Block &b, unsigned slot)
    {
        Xbyak::Label back;
        if (traced_) { // report the terminator (END is none); a traced block never chains
            mov(env(offsetof(JitEnv, next_pc)), eax);
            if (b.ops.back().kind != OpKind::END)
                retire(static_cast<uint32_t>(b.ops.size() - 1));
            leave(slot ? JitExit::LeaveTaken : JitExit::LeaveFall, 0);
            return;
        }
        // A loop onto this block itself (a branch or JAL to b.pc) needs no
        // link: the block is running, so it is checked in this epoch and
        // translated; a direct jump to its chained entry, which checks the budget.
        const Op &t = b.ops.back();
        if (slot == 1 && t.kind != OpKind::JALR && t.imm == b.pc) {
            sub(r10, static_cast<int>(b.len));
            jmp(body_, T_NEAR);
            return;
        }
        // The pc stays in eax until `back`: a chained exit does not store it.
        // The successor checks the budget itself at its chained entry.
        // A link is always to a block checked in this epoch (new_epoch
        // unlinks) and, from a translated block, to a translated one (the
        // ISS links no other); only JALR's slot can hold a block at another pc.
        mov(rcx, qword[rbp + kNextOff + 8 * slot]);
        test(rcx, rcx);
        jz(back, T_NEAR);
        if (b.ops.back().kind == OpKind::JALR) {
            cmp(eax, dword[rcx + kPcOff]);
            jne(back, T_NEAR);
        }
        sub(r10, static_cast<int>(b.len));
        mov(rbp, rcx);
        jmp(qword[rcx + kChainedOff]);
        L(back);
        mov(env(offsetof(JitEnv, next_pc)), eax);
        leave(slot ? JitExit::LeaveTaken : JitExit::LeaveFall, 0);
    }

    static bool is_store(OpKind k)
    {
        return k == OpKind::SB || k == OpKind::SH || k == OpKind::SW || k == OpKind::FSW;
    }
    // A traced translation's report of op `index` (rcx and r10 are kept: a
    // store's code check follows it; rsp stays 16-byte aligned at the call).
    void retire(uint32_t index)
    {
        push(rcx);
        push(r10);
        mov(rdi, r13);
        mov(esi, index);
        mov(rax, reinterpret_cast<uint64_t>(&traced_retire));
        call(rax);
        pop(r10);
        pop(rcx);
        load_mapped();
    }
    void leave(JitExit e, uint32_t index)
    {
        mov(rax, exit_code(e, index));
        jmp(epi_, T_NEAR);
    }
    // A fault at op `index` with the address in eax; info is the stack limit
    // for a stack overflow, else 0.
    void fault_stub(Xbyak::Label &l, uint32_t cause, uint32_t index)
    {
        stubs_.push_back([this, &l, cause, index] {
            L(l);
            mov(env(offsetof(JitEnv, addr)), eax);
            mov(env(offsetof(JitEnv, cause)), cause);
            if (cause == IPU_ERR_STACK_OVERFLOW) {
                mov(edx, dword[rbx + offsetof(Context, stack_limit)]);
                mov(env(offsetof(JitEnv, info)), edx);
            } else {
                mov(env(offsetof(JitEnv, info)), 0);
            }
            leave(JitExit::Fault, index);
        });
    }
    void exit_stub(Xbyak::Label &l, JitExit e, uint32_t index)
    {
        stubs_.push_back([this, &l, e, index] {
            L(l);
            leave(e, index);
        });
    }
    Xbyak::Label &label()
    {
        labels_.emplace_back();
        return labels_.back();
    }

    // The SRAM offset of x[rs1] + imm divided by len in rcx (the address in
    // eax), with the fast tier's checks. The offset is rotated right by
    // log2(len): a misaligned one then has a low bit at the top and, like
    // an address outside SRAM (below it, the subtraction wraps), compares
    // above the last index, so one compare does both checks; the rare path
    // tells them apart in the fast tier's order (misaligned first).
    void address(const Op &o, uint32_t len, bool store, uint32_t index)
    {
        x_to_eax(o.rs1);
        if (o.imm)
            add(eax, o.imm);
        const int log2_len = len == 4 ? 2 : len == 2 ? 1 : 0;
        Xbyak::Label &bad = label();
        lea(ecx, ptr[rax - IPU_TILE_SRAM_BASE]);
        if (log2_len)
            ror(ecx, log2_len);
        cmp(ecx, env(offsetof(JitEnv, sram_last) + 4 * log2_len));
        ja(bad, T_NEAR);
        Xbyak::Label &mis = label(), &out = label();
        stubs_.push_back([this, &bad, &mis, &out, len] {
            L(bad);
            if (len > 1) {
                test(eax, len - 1);
                jnz(mis, T_NEAR);
            }
            jmp(out, T_NEAR);
        });
        if (len > 1)
            fault_stub(mis, store ? IPU_ERR_STORE_MISALIGNED : IPU_ERR_LOAD_MISALIGNED, index);
        fault_stub(out, store ? IPU_ERR_STORE_FAULT : IPU_ERR_LOAD_FAULT, index);
    }
    // Where an access of len bytes at the index address() left in rcx goes.
    Xbyak::RegExp sram(uint32_t len) const { return r12 + rcx * static_cast<int>(len); }
    // After a store of len bytes at the index in rcx: a write into decoded
    // code leaves (rcx is not needed after it).
    void code_check(uint32_t len, uint32_t index)
    {
        Xbyak::Label done, &hit = label();
        if (len == 2)
            shr(ecx, 1);
        else if (len == 1)
            shr(ecx, 2); // rcx: the word's index, whose low 6 bits bt uses
        mov(eax, ecx);
        shr(eax, 6);
        cmp(rax, qword[r13 + offsetof(JitEnv, code_words)]);
        jae(done);
        mov(rdx, qword[r13 + offsetof(JitEnv, code_bits)]);
        mov(rax, qword[rdx + rax * 8]);
        bt(rax, rcx);
        jc(hit, T_NEAR);
        exit_stub(hit, JitExit::CodeWritten, index);
        L(done);
    }
    // After a store: a traced translation reports it (it retired), then the code check.
    void store_done(uint32_t len, uint32_t index)
    {
        if (traced_)
            retire(index);
        code_check(len, index);
    }
    void alu_imm(const Op &o, void (Xbyak::CodeGenerator::*f)(const Xbyak::Operand &, uint32_t))
    {
        x_to_eax(o.rs1);
        if (o.imm || o.kind == OpKind::ANDI) // x + 0, x | 0, x ^ 0 (mv) need no op
            (this->*f)(eax, o.imm);
        eax_to_x(o.rd);
    }
    void alu_reg(const Op &o, void (Xbyak::CodeGenerator::*f)(const Xbyak::Operand &, const Xbyak::Operand &))
    {
        x_to_eax(o.rs1);
        with_x(o.rs2, [&](const Xbyak::Operand &op) { (this->*f)(eax, op); });
        eax_to_x(o.rd);
    }
    void shift_reg(const Op &o, void (Xbyak::CodeGenerator::*f)(const Xbyak::Operand &, const Xbyak::Reg8 &))
    {
        read_x(ecx, o.rs2);
        x_to_eax(o.rs1);
        (this->*f)(eax, cl);
        eax_to_x(o.rd);
    }
    void shift_imm(const Op &o, void (Xbyak::CodeGenerator::*f)(const Xbyak::Operand &, int))
    {
        x_to_eax(o.rs1);
        if (o.imm)
            (this->*f)(eax, static_cast<int>(o.imm));
        eax_to_x(o.rd);
    }
    void set_cc(const Op &o, bool imm, void (Xbyak::CodeGenerator::*f)(const Xbyak::Operand &))
    {
        xor_(edx, edx);
        x_to_eax(o.rs1);
        if (imm)
            cmp(eax, o.imm);
        else
            with_x(o.rs2, [&](const Xbyak::Operand &op) { cmp(eax, op); });
        (this->*f)(dl);
        write_x(o.rd, edx);
    }
    // Signed or unsigned division or remainder with RISC-V's results for a
    // zero divisor and for INT32_MIN / -1.
    void divide(const Op &o, bool is_signed, bool rem)
    {
        Xbyak::Label zero, done, run;
        x_to_eax(o.rs1);
        read_x(ecx, o.rs2);
        test(ecx, ecx);
        jz(zero);
        if (is_signed) {
            cmp(ecx, -1);
            jne(run);
            cmp(eax, 0x80000000u);
            jne(run);
            if (rem)
                xor_(eax, eax); // the quotient is INT32_MIN itself
            jmp(done);
            L(run);
            cdq();
            idiv(ecx);
        } else {
            L(run);
            xor_(edx, edx);
            div(ecx);
        }
        if (rem)
            mov(eax, edx);
        jmp(done);
        L(zero);
        if (!rem)
            mov(eax, -1); // remainder by zero: the dividend, already in eax
        L(done);
        eax_to_x(o.rd);
    }
    void branch(const Block &b, const Op &o, void (Xbyak::CodeGenerator::*jcc)(const Xbyak::Label &, LabelType))
    {
        Xbyak::Label taken;
        x_to_eax(o.rs1);
        with_x(o.rs2, [&](const Xbyak::Operand &op) { cmp(eax, op); });
        (this->*jcc)(taken, T_NEAR);
        mov(eax, b.end_pc());
        chain(b, 0);
        L(taken);
        mov(eax, o.imm);
        chain(b, 1);
    }
    static bool is_compare(OpKind k) { return k == OpKind::FEQ || k == OpKind::FLT || k == OpKind::FLE; }

    // An FP op. A dynamic rounding mode is read from frm, and one that is not
    // valid leaves before the op (Illegal). Round to nearest even (static, or
    // dynamic with frm 0 at run time) runs inline on the host's FPU; any other
    // mode, a traced translation and the conversions to integers call the
    // fpu:: helper.
    void fp_op(const Op &o, uint32_t index)
    {
        const bool compare = is_compare(o.kind);
        const unsigned rm = o.imm & 0xff;
        if (!compare && rm == 7) { // dynamic: frm, which must be a valid mode
            Xbyak::Label &bad = label();
            eax_ = -1; // frm replaces a register the previous op left in eax
            mov(eax, dword[rbx + offsetof(Context, frm)]);
            cmp(eax, 4);
            ja(bad, T_NEAR);
            exit_stub(bad, JitExit::Illegal, index);
        }
        const bool fused = o.kind == OpKind::FMADD || o.kind == OpKind::FMSUB || o.kind == OpKind::FNMSUB ||
                           o.kind == OpKind::FNMADD;
        if (traced_ || (!compare && rm != 0 && rm != 7) || o.kind == OpKind::FCVT_W_S ||
            o.kind == OpKind::FCVT_WU_S || (fused && !host_fma())) {
            fp_call(o, rm);
            return;
        }
        if (!compare && rm == 7) { // frm is in eax: another valid mode calls the helper
            Xbyak::Label &other = label(), &back = label();
            test(eax, eax);
            jnz(other, T_NEAR);
            fp_inline(o);
            L(back);
            stubs_.push_back([this, o, rm, &other, &back] {
                L(other);
                fp_call(o, rm);
                jmp(back, T_NEAR);
            });
            return;
        }
        fp_inline(o);
    }

    static bool host_fma()
    {
        static const bool yes = [] {
            __builtin_cpu_init();
            return __builtin_cpu_supports("fma") != 0; // libgcc also checks that the OS enabled AVX state
        }();
        return yes;
    }

    // An FP op in RNE on the host's FPU under kGuestMxcsr: the status bits it
    // raises are the op's RISC-V flags (kFflagsOf), folded in at the exit.
    // RISC-V returns the canonical NaN for every NaN result, where x86
    // propagates an operand's payload: a rare path rewrites it.
    void fp_inline(const Op &o)
    {
        using Xbyak::util::xmm0;
        using Xbyak::util::xmm1;
        using Xbyak::util::xmm2;
        switch (o.kind) {
        case OpKind::FEQ: case OpKind::FLT: case OpKind::FLE:
            // ucomiss is quiet (NV for a signalling NaN only), comiss signals
            // on any NaN, as feq and flt/fle do; unordered gives ZF=PF=CF=1.
            if (o.kind == OpKind::FEQ) {
                f_to_xmm(xmm0, o.rs1);
                with_f(o.rs2, [&](const Xbyak::Operand &op) { ucomiss(xmm0, op); });
                setnp(al);
                sete(dl);
                and_(al, dl);
            } else {
                f_to_xmm(xmm0, o.rs2); // b > a (flt), b >= a (fle)
                with_f(o.rs1, [&](const Xbyak::Operand &op) { comiss(xmm0, op); });
                if (o.kind == OpKind::FLT)
                    seta(al);
                else
                    setae(al);
            }
            if (o.rd) {
                movzx(eax, al);
                write_x(o.rd, eax);
            }
            return;
        case OpKind::FCVT_S_W: case OpKind::FCVT_S_WU: // never a NaN
            xorps(xmm0, xmm0);
            if (o.kind == OpKind::FCVT_S_W) {
                with_x(o.rs1, [&](const Xbyak::Operand &op) { cvtsi2ss(xmm0, op); });
            } else {
                x_to_eax(o.rs1); // zero-extended into rax: exact as a signed 64-bit value
                cvtsi2ss(xmm0, rax);
            }
            write_f(o.rd, xmm0);
            return;
        case OpKind::FMADD: case OpKind::FMSUB: case OpKind::FNMSUB: case OpKind::FNMADD:
            // x1 = x2 * x1 +- op; RISC-V's fnmsub is -(a*b)+c (x86 fnmadd) and fnmadd -(a*b)-c (x86 fnmsub).
            f_to_xmm(xmm0, o.rs1);
            f_to_xmm(xmm1, o.rs2);
            f_to_xmm(xmm2, (o.imm >> 8) & 31);
            if (o.kind == OpKind::FMADD)
                vfmadd213ss(xmm0, xmm1, xmm2);
            else if (o.kind == OpKind::FMSUB)
                vfmsub213ss(xmm0, xmm1, xmm2);
            else if (o.kind == OpKind::FNMSUB)
                vfnmadd213ss(xmm0, xmm1, xmm2);
            else
                vfnmsub213ss(xmm0, xmm1, xmm2);
            break;
        default:
            f_to_xmm(xmm0, o.rs1);
            with_f(o.rs2, [&](const Xbyak::Operand &op) {
                if (o.kind == OpKind::FADD)
                    addss(xmm0, op);
                else if (o.kind == OpKind::FSUB)
                    subss(xmm0, op);
                else if (o.kind == OpKind::FMUL)
                    mulss(xmm0, op);
                else
                    divss(xmm0, op);
            });
            break;
        }
        Xbyak::Label &nan = label(), &result = label();
        ucomiss(xmm0, xmm0); // quiet: the result is never a signalling NaN
        jp(nan, T_NEAR);
        L(result);
        write_f(o.rd, xmm0);
        const bool fused = o.kind != OpKind::FADD && o.kind != OpKind::FSUB && o.kind != OpKind::FMUL &&
                           o.kind != OpKind::FDIV;
        stubs_.push_back([this, o, fused, &nan, &result] {
            L(nan);
            if (fused) // inf * 0 is invalid even with a quiet NaN addend, which x86 may not flag
                nv_if_inf_times_zero(o);
            mov(eax, fpu::kCanonicalNaN);
            movd(xmm0, eax);
            jmp(result, T_NEAR);
        });
    }

    // NV into fflags when the operands of o's product are an infinity and a zero.
    void nv_if_inf_times_zero(const Op &o)
    {
        Xbyak::Label first_zero, set, skip;
        f_bits(eax, o.rs1);
        f_bits(edx, o.rs2);
        and_(eax, 0x7fffffff);
        and_(edx, 0x7fffffff);
        cmp(eax, 0x7f800000);
        jne(first_zero);
        test(edx, edx);
        jz(set);
        jmp(skip);
        L(first_zero);
        test(eax, eax);
        jnz(skip);
        cmp(edx, 0x7f800000);
        jne(skip);
        L(set);
        or_(dword[rbx + offsetof(Context, fflags)], fpu::kNV);
        L(skip);
    }

    // An FP op as a direct call of its fpu:: helper (the same functions the
    // other tiers call, so results and flags are bit-identical), with the
    // operands in argument registers and the flags by pointer into the
    // Context; rm 7 means the mode is in eax (frm).
    void fp_call(const Op &o, unsigned rm)
    {
        using Fn2 = uint32_t (*)(uint32_t, uint32_t, unsigned, uint32_t &);
        using Fn3 = uint32_t (*)(uint32_t, uint32_t, uint32_t, unsigned, uint32_t &);
        using Cmp = uint32_t (*)(uint32_t, uint32_t, uint32_t &);
        using Cvt = uint32_t (*)(uint32_t, unsigned, uint32_t &);
        const bool compare = is_compare(o.kind);
        // The rounding mode into `r`: the immediate, or frm loaded above.
        auto set_rm = [&](const Xbyak::Reg32 &r) {
            if (rm == 7)
                mov(r, eax);
            else
                mov(r, rm);
        };
        store_mapped(); // the helper reads its operands from the Context; load_mapped() follows it
        const Xbyak::Address fl = ptr[rbx + offsetof(Context, fflags)];
        uint64_t fn = 0;
        bool to_x = compare;
        switch (o.kind) {
        case OpKind::FADD: case OpKind::FSUB: case OpKind::FMUL: case OpKind::FDIV: {
            const Fn2 f = o.kind == OpKind::FADD ? Fn2(&fpu::add)
                        : o.kind == OpKind::FSUB ? Fn2(&fpu::sub)
                        : o.kind == OpKind::FMUL ? Fn2(&fpu::mul)
                                                 : Fn2(&fpu::div);
            fn = reinterpret_cast<uint64_t>(f);
            set_rm(edx);
            mov(edi, F(o.rs1));
            mov(esi, F(o.rs2));
            lea(rcx, fl);
            break;
        }
        case OpKind::FMADD: case OpKind::FMSUB: case OpKind::FNMSUB: case OpKind::FNMADD: {
            const Fn3 f = o.kind == OpKind::FMADD ? Fn3(&fpu::madd)
                        : o.kind == OpKind::FMSUB ? Fn3(&fpu::msub)
                        : o.kind == OpKind::FNMSUB ? Fn3(&fpu::nmsub)
                                                   : Fn3(&fpu::nmadd);
            fn = reinterpret_cast<uint64_t>(f);
            set_rm(ecx);
            mov(edi, F(o.rs1));
            mov(esi, F(o.rs2));
            mov(edx, F((o.imm >> 8) & 31));
            lea(r8, fl);
            break;
        }
        case OpKind::FEQ: case OpKind::FLT: case OpKind::FLE: {
            const Cmp f = o.kind == OpKind::FEQ ? Cmp(&fpu::eq) : o.kind == OpKind::FLT ? Cmp(&fpu::lt) : Cmp(&fpu::le);
            fn = reinterpret_cast<uint64_t>(f);
            mov(edi, F(o.rs1));
            mov(esi, F(o.rs2));
            lea(rdx, fl);
            break;
        }
        default: { // the conversions
            const bool from_x = o.kind == OpKind::FCVT_S_W || o.kind == OpKind::FCVT_S_WU;
            const Cvt f = o.kind == OpKind::FCVT_S_W ? Cvt(&fpu::cvt_s_w)
                        : o.kind == OpKind::FCVT_S_WU ? Cvt(&fpu::cvt_s_wu)
                        : o.kind == OpKind::FCVT_W_S ? Cvt(&fpu::cvt_w_s)
                                                     : Cvt(&fpu::cvt_wu_s);
            fn = reinterpret_cast<uint64_t>(f);
            to_x = !from_x;
            set_rm(esi);
            mov(edi, from_x ? X(o.rs1) : F(o.rs1));
            lea(rdx, fl);
            break;
        }
        }
        mov(rax, fn);
        push(r10); // the budget register is the caller's to keep
        sub(rsp, 8);
        call(rax);
        add(rsp, 8);
        pop(r10);
        if (!to_x)
            mov(F(o.rd), eax);
        else if (o.rd) // x0 stays 0; the flags changed all the same
            mov(X(o.rd), eax);
        load_mapped(); // after the result's store: x[rd] may be one of them
    }

    // Emits op `i`; false when nothing after it can run in this call.
    bool op(const Block &b, uint32_t i)
    {
        using C = Xbyak::CodeGenerator;
        const Op &o = b.ops[i];
        eax_ = next_eax_; // what the previous op left in eax, for this op only
        next_eax_ = -1;
        switch (o.kind) {
        case OpKind::NOP: break;
        case OpKind::LI: write_x(o.rd, o.imm); break;
        case OpKind::ADDI: alu_imm(o, &C::add); break;
        case OpKind::ADDI_SP: {
            Xbyak::Label &over = label();
            x_to_eax(o.rs1);
            add(eax, o.imm);
            cmp(eax, dword[rbx + offsetof(Context, stack_limit)]);
            jb(over, T_NEAR);
            fault_stub(over, IPU_ERR_STACK_OVERFLOW, i);
            mov(X(2), eax);
            break;
        }
        case OpKind::SLTI: set_cc(o, true, &C::setl); break;
        case OpKind::SLTIU: set_cc(o, true, &C::setb); break;
        case OpKind::XORI: alu_imm(o, &C::xor_); break;
        case OpKind::ORI: alu_imm(o, &C::or_); break;
        case OpKind::ANDI: alu_imm(o, &C::and_); break;
        case OpKind::SLLI: shift_imm(o, &C::shl); break;
        case OpKind::SRLI: shift_imm(o, &C::shr); break;
        case OpKind::SRAI: shift_imm(o, &C::sar); break;
        case OpKind::ADD: alu_reg(o, &C::add); break;
        case OpKind::SUB: alu_reg(o, &C::sub); break;
        case OpKind::SLL: shift_reg(o, &C::shl); break;
        case OpKind::SLT: set_cc(o, false, &C::setl); break;
        case OpKind::SLTU: set_cc(o, false, &C::setb); break;
        case OpKind::XOR: alu_reg(o, &C::xor_); break;
        case OpKind::SRL: shift_reg(o, &C::shr); break;
        case OpKind::SRA: shift_reg(o, &C::sar); break;
        case OpKind::OR: alu_reg(o, &C::or_); break;
        case OpKind::AND: alu_reg(o, &C::and_); break;
        case OpKind::MUL:
            x_to_eax(o.rs1);
            with_x(o.rs2, [&](const Xbyak::Operand &op) { imul(eax, op); });
            eax_to_x(o.rd);
            break;
        case OpKind::MULH:
        case OpKind::MULHSU:
        case OpKind::MULHU:
            if (o.kind == OpKind::MULHU)
                x_to_eax(o.rs1);
            else if (eax_ == static_cast<int>(o.rs1))
                movsxd(rax, eax);
            else
                with_x(o.rs1, [&](const Xbyak::Operand &op) { movsxd(rax, op); });
            if (o.kind == OpKind::MULH)
                with_x(o.rs2, [&](const Xbyak::Operand &op) { movsxd(rcx, op); });
            else
                read_x(ecx, o.rs2);
            imul(rax, rcx); // the low 64 bits hold the whole product in each case
            shr(rax, 32);
            eax_to_x(o.rd);
            break;
        case OpKind::DIV: divide(o, true, false); break;
        case OpKind::DIVU: divide(o, false, false); break;
        case OpKind::REM: divide(o, true, true); break;
        case OpKind::REMU: divide(o, false, true); break;
        case OpKind::LB: address(o, 1, false, i); movsx(eax, byte[sram(1)]); eax_to_x(o.rd); break;
        case OpKind::LH: address(o, 2, false, i); movsx(eax, word[sram(2)]); eax_to_x(o.rd); break;
        case OpKind::LW: address(o, 4, false, i); mov(eax, dword[sram(4)]); eax_to_x(o.rd); break;
        case OpKind::LBU: address(o, 1, false, i); movzx(eax, byte[sram(1)]); eax_to_x(o.rd); break;
        case OpKind::LHU: address(o, 2, false, i); movzx(eax, word[sram(2)]); eax_to_x(o.rd); break;
        case OpKind::FLW: address(o, 4, false, i); mov(eax, dword[sram(4)]); write_f(o.rd, eax); break;
        case OpKind::SB: address(o, 1, true, i); read_x(edx, o.rs2); mov(byte[sram(1)], dl); store_done(1, i); break;
        case OpKind::SH: address(o, 2, true, i); read_x(edx, o.rs2); mov(word[sram(2)], dx); store_done(2, i); break;
        case OpKind::SW: address(o, 4, true, i); read_x(edx, o.rs2); mov(dword[sram(4)], edx); store_done(4, i); break;
        case OpKind::FSW: address(o, 4, true, i); f_bits(edx, o.rs2); mov(dword[sram(4)], edx); store_done(4, i); break;
        case OpKind::FSGNJ:
        case OpKind::FSGNJN:
        case OpKind::FSGNJX:
            f_bits(eax, o.rs1);
            f_bits(edx, o.rs2);
            if (o.kind == OpKind::FSGNJN)
                not_(edx);
            and_(edx, 0x80000000u);
            if (o.kind != OpKind::FSGNJX)
                and_(eax, 0x7fffffff);
            xor_(eax, edx);
            write_f(o.rd, eax);
            break;
        case OpKind::FMV_X_W:
            if (o.rd) {
                f_bits(eax, o.rs1);
                eax_to_x(o.rd);
            }
            break;
        case OpKind::FMV_W_X: x_to_eax(o.rs1); write_f(o.rd, eax); break;
        case OpKind::FADD: case OpKind::FSUB: case OpKind::FMUL: case OpKind::FDIV:
        case OpKind::FMADD: case OpKind::FMSUB: case OpKind::FNMSUB: case OpKind::FNMADD:
        case OpKind::FEQ: case OpKind::FLT: case OpKind::FLE:
        case OpKind::FCVT_S_W: case OpKind::FCVT_S_WU: case OpKind::FCVT_W_S: case OpKind::FCVT_WU_S:
            fp_op(o, i);
            break;
        case OpKind::JAL:
            if (o.rd)
                write_x(o.rd, b.end_pc());
            mov(eax, o.imm);
            chain(b, 1);
            return false;
        case OpKind::JALR:
            x_to_eax(o.rs1); // before the link write: rd may be rs1
            add(eax, o.imm);
            and_(eax, ~1u);
            if (o.rd)
                write_x(o.rd, b.end_pc());
            chain(b, 1);
            return false;
        case OpKind::BEQ: branch(b, o, &C::je); return false;
        case OpKind::BNE: branch(b, o, &C::jne); return false;
        case OpKind::BLT: branch(b, o, &C::jl); return false;
        case OpKind::BGE: branch(b, o, &C::jge); return false;
        case OpKind::BLTU: branch(b, o, &C::jb); return false;
        case OpKind::BGEU: branch(b, o, &C::jae); return false;
        case OpKind::END:
            mov(eax, b.end_pc());
            chain(b, 0);
            return false;
        case OpKind::SLOW: leave(JitExit::Slow, i); return false;
        }
        return true;
    }

    bool traced_ = false;
    int eax_ = -1, next_eax_ = -1; // x register held in eax at this op's start, and at the next's
    Xbyak::Label epi_, body_; // the epilogue; the chained entry (budget check, then op 0)
    std::vector<std::function<void()>> stubs_;
    std::deque<Xbyak::Label> labels_; // stable addresses for the stubs
};

// Bytes from a translation's start to its first op (every prologue is the same).
int body_offset()
{
    static const int off = [] {
        std::vector<uint8_t> buf(4096);
        Gen g(buf.data(), buf.size());
        g.prologue();
        return static_cast<int>(g.getSize());
    }();
    return off;
}

// A chunk of code memory seen at two addresses: the translator writes at
// rw, tiles run the code at rx (same pages).
struct Chunk {
    uint8_t *rw = nullptr;
    uint8_t *rx = nullptr;
};
constexpr size_t kChunk = 1u << 20;

// W^X: one memfd mapped twice, writable and executable, so that no page is
// ever both (a stray guest-driven write cannot become host code). Kernels
// with vm.memfd_noexec want MFD_EXEC, which older kernels refuse; where no
// memfd can be executed the chunk is one read-write-execute mapping.
Chunk map_chunk()
{
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif
    int fd = memfd_create("ipu-emu-jit", MFD_CLOEXEC | MFD_EXEC);
    if (fd < 0)
        fd = memfd_create("ipu-emu-jit", MFD_CLOEXEC);
    if (fd >= 0) {
        Chunk c;
        if (ftruncate(fd, kChunk) == 0) {
            void *w = mmap(nullptr, kChunk, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            void *x = w == MAP_FAILED ? MAP_FAILED : mmap(nullptr, kChunk, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
            if (x != MAP_FAILED)
                c = {static_cast<uint8_t *>(w), static_cast<uint8_t *>(x)};
            else if (w != MAP_FAILED)
                munmap(w, kChunk);
        }
        close(fd);
        if (c.rw)
            return c;
    }
    void *p = mmap(nullptr, kChunk, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return {};
    return {static_cast<uint8_t *>(p), static_cast<uint8_t *>(p)};
}

// Code memory: chunks (map_chunk) filled by bumping, never unmapped
// (translations are shared and live as long as the process).
struct Store {
    std::shared_mutex running; // jit_lock()
    std::mutex mu;             // the fields below
    std::unordered_map<std::string, JitFn> by_code; // pc and code words -> translation
    std::vector<Chunk> chunks; // mapped, reused after a reset
    size_t next_chunk = 0;     // chunks[next_chunk..] are free
    uint8_t *cur = nullptr;    // the next free byte, at its writable address
    ptrdiff_t exec_delta = 0;  // its executable address minus its writable one
    size_t left = 0;
    uint64_t count = 0;
    std::atomic<uint64_t> generation{0};
    std::atomic<bool> full{false};
};
Store &store()
{
    static Store *s = new Store; // never destroyed: code may run until exit
    return *s;
}
} // namespace

const void *jit_chained_entry(JitFn fn) { return reinterpret_cast<const uint8_t *>(fn) + body_offset(); }

JitFn jit_translate(const Block &b, bool traced)
{
    std::string key(5 + 4 * b.raw.size(), '\0');
    std::memcpy(key.data(), &b.pc, 4);
    std::memcpy(key.data() + 4, b.raw.data(), 4 * b.raw.size());
    key.back() = traced ? 't' : '-';
    Store &s = store();
    {
        std::lock_guard<std::mutex> lock(s.mu);
        auto it = s.by_code.find(key);
        if (it != s.by_code.end())
            return it->second;
    }
    thread_local std::vector<uint8_t> scratch(256u << 10);
    size_t size = 0;
    try {
        Gen g(scratch.data(), scratch.size(), traced);
        g.block(b);
        size = g.getSize();
    } catch (const std::exception &) {
        return nullptr; // too big for the scratch buffer: the fast tier runs it
    }
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.by_code.find(key);
    if (it != s.by_code.end())
        return it->second; // another thread translated it meanwhile
    if (size > s.left) {
        if (s.next_chunk == s.chunks.size()) {
            const Chunk c = size > kChunk || (s.chunks.size() + 1) * kChunk > kJitCodeBytes ? Chunk{} : map_chunk();
            if (!c.rw) {
                s.full.store(true, std::memory_order_relaxed);
                return nullptr;
            }
            s.chunks.push_back(c);
        }
        const Chunk &c = s.chunks[s.next_chunk++];
        s.cur = c.rw;
        s.exec_delta = c.rx - c.rw;
        s.left = kChunk;
    }
    std::memcpy(s.cur, scratch.data(), size); // position-independent: calls go through rax
    const JitFn fn = reinterpret_cast<JitFn>(s.cur + s.exec_delta);
    const size_t step = (size + 15) & ~size_t{15};
    s.cur += std::min(step, s.left);
    s.left -= std::min(step, s.left);
    s.count++;
    s.by_code.emplace(std::move(key), fn);
    return fn;
}

uint64_t jit_code_bytes()
{
    std::lock_guard<std::mutex> lock(store().mu);
    return store().chunks.size() * kChunk;
}

std::shared_mutex &jit_lock() { return store().running; }
uint64_t jit_generation() { return store().generation.load(std::memory_order_acquire); }
bool jit_full() { return store().full.load(std::memory_order_relaxed); }

void jit_try_reset()
{
    Store &s = store();
    std::unique_lock<std::shared_mutex> excl(s.running, std::try_to_lock);
    if (!excl.owns_lock())
        return; // code is running: try again at a later call
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.full.load(std::memory_order_relaxed))
        return;
    s.by_code.clear();
    s.next_chunk = 0;
    s.cur = nullptr;
    s.left = 0;
    s.full.store(false, std::memory_order_relaxed);
    s.generation.fetch_add(1, std::memory_order_release);
}

namespace {
thread_local unsigned t_holds = 0; // JitHold objects alive on this thread
} // namespace

JitHold::JitHold()
{
    if (t_holds++ > 0)
        return;
    if (jit_full())
        jit_try_reset();
    lock_ = std::shared_lock<std::shared_mutex>(jit_lock());
}

JitHold::~JitHold() { t_holds--; }

bool jit_held_here() { return t_holds > 0; }

uint64_t jit_translations()
{
    std::lock_guard<std::mutex> lock(store().mu);
    return store().count;
}

} // namespace ipu::model
