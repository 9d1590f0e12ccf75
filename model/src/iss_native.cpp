// Translation of decoded blocks to C, compilation, on-disk cache and loading
// (see iss_native.hpp). The C it writes follows the fast ISS's op semantics
// one for one (iss_fast.cpp); the tests run every program in both and compare.
#include "iss_native.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#define XXH_INLINE_ALL // header-only: no library to link (libxxhash-dev)
#include <xxhash.h>

#include "fpu.h"
#include "ipu_card/hw.h"

extern char **environ;

namespace ipu::model {
namespace {

// C-callable wrappers for the FP helpers (their flags are references in C++).
uint32_t w_add(uint32_t a, uint32_t b, unsigned rm, uint32_t *fl) { return fpu::add(a, b, rm, *fl); }
uint32_t w_sub(uint32_t a, uint32_t b, unsigned rm, uint32_t *fl) { return fpu::sub(a, b, rm, *fl); }
uint32_t w_mul(uint32_t a, uint32_t b, unsigned rm, uint32_t *fl) { return fpu::mul(a, b, rm, *fl); }
uint32_t w_div(uint32_t a, uint32_t b, unsigned rm, uint32_t *fl) { return fpu::div(a, b, rm, *fl); }
uint32_t w_madd(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t *fl) { return fpu::madd(a, b, c, rm, *fl); }
uint32_t w_msub(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t *fl) { return fpu::msub(a, b, c, rm, *fl); }
uint32_t w_nmsub(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t *fl) { return fpu::nmsub(a, b, c, rm, *fl); }
uint32_t w_nmadd(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t *fl) { return fpu::nmadd(a, b, c, rm, *fl); }
uint32_t w_eq(uint32_t a, uint32_t b, uint32_t *fl) { return fpu::eq(a, b, *fl); }
uint32_t w_lt(uint32_t a, uint32_t b, uint32_t *fl) { return fpu::lt(a, b, *fl); }
uint32_t w_le(uint32_t a, uint32_t b, uint32_t *fl) { return fpu::le(a, b, *fl); }
uint32_t w_cvt_w_s(uint32_t a, unsigned rm, uint32_t *fl) { return fpu::cvt_w_s(a, rm, *fl); }
uint32_t w_cvt_wu_s(uint32_t a, unsigned rm, uint32_t *fl) { return fpu::cvt_wu_s(a, rm, *fl); }
uint32_t w_cvt_s_w(uint32_t a, unsigned rm, uint32_t *fl) { return fpu::cvt_s_w(a, rm, *fl); }
uint32_t w_cvt_s_wu(uint32_t a, unsigned rm, uint32_t *fl) { return fpu::cvt_s_wu(a, rm, *fl); }

// The generated code's view of the table above, and its helpers.
const char *const kPrelude = R"(#include <stdint.h>
#include <string.h>
typedef uint32_t (*F2)(uint32_t, uint32_t, unsigned, uint32_t *);
typedef uint32_t (*F3)(uint32_t, uint32_t, uint32_t, unsigned, uint32_t *);
typedef uint32_t (*FC)(uint32_t, uint32_t, uint32_t *);
typedef uint32_t (*F1)(uint32_t, unsigned, uint32_t *);
#define FADD(a, b, rm) ((F2)fpu[0])(a, b, rm, &fflags)
#define FSUB(a, b, rm) ((F2)fpu[1])(a, b, rm, &fflags)
#define FMUL(a, b, rm) ((F2)fpu[2])(a, b, rm, &fflags)
#define FDIV(a, b, rm) ((F2)fpu[3])(a, b, rm, &fflags)
#define FMADD(a, b, c, rm) ((F3)fpu[4])(a, b, c, rm, &fflags)
#define FMSUB(a, b, c, rm) ((F3)fpu[5])(a, b, c, rm, &fflags)
#define FNMSUB(a, b, c, rm) ((F3)fpu[6])(a, b, c, rm, &fflags)
#define FNMADD(a, b, c, rm) ((F3)fpu[7])(a, b, c, rm, &fflags)
#define FEQ(a, b) ((FC)fpu[8])(a, b, &fflags)
#define FLT(a, b) ((FC)fpu[9])(a, b, &fflags)
#define FLE(a, b) ((FC)fpu[10])(a, b, &fflags)
#define FCVT_W_S(a, rm) ((F1)fpu[11])(a, rm, &fflags)
#define FCVT_WU_S(a, rm) ((F1)fpu[12])(a, rm, &fflags)
#define FCVT_S_W(a, rm) ((F1)fpu[13])(a, rm, &fflags)
#define FCVT_S_WU(a, rm) ((F1)fpu[14])(a, rm, &fflags)
#define IS_CODE(off) (((off) >> 8) < code_words && ((code_bits[(off) >> 8] >> (((off) >> 2) & 63)) & 1))
)";

void *const kFpuTable[] = {
    reinterpret_cast<void *>(&w_add),      reinterpret_cast<void *>(&w_sub),      reinterpret_cast<void *>(&w_mul),
    reinterpret_cast<void *>(&w_div),      reinterpret_cast<void *>(&w_madd),     reinterpret_cast<void *>(&w_msub),
    reinterpret_cast<void *>(&w_nmsub),    reinterpret_cast<void *>(&w_nmadd),    reinterpret_cast<void *>(&w_eq),
    reinterpret_cast<void *>(&w_lt),       reinterpret_cast<void *>(&w_le),       reinterpret_cast<void *>(&w_cvt_w_s),
    reinterpret_cast<void *>(&w_cvt_wu_s), reinterpret_cast<void *>(&w_cvt_s_w), reinterpret_cast<void *>(&w_cvt_s_wu),
};

std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char *f, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

// Writes the C for one block. `native` holds the PCs the function can jump to.
class Emitter {
public:
    explicit Emitter(const std::set<uint32_t> &native) : native_(native) {}

    void block(const Block &b)
    {
        out += fmt("B_%x:\n  if (budget - n < %uu) { pc = 0x%xu; goto leave; }\n", b.pc, b.len, b.pc);
        for (uint32_t i = 0; i < b.ops.size(); i++)
            op(b, i);
    }

    std::string out;

private:
    static std::string r(unsigned i) { return i ? fmt("r%u", i) : "0u"; }
    static std::string g(unsigned i) { return fmt("g%u", i); }

    // Leaves the block: retire it, go to `target` (a constant).
    std::string go(const Block &b, uint32_t target) const
    {
        if (native_.count(target))
            return fmt("{ n += %uu; goto B_%x; }", b.len, target);
        return fmt("{ n += %uu; pc = 0x%xu; goto leave; }", b.len, target);
    }
    // A fault at op i: the ops before it retired.
    static std::string fault(const Block &b, uint32_t i, uint32_t cause, const std::string &addr,
                             const std::string &info = "0")
    {
        return fmt("{ n += %uu; pc = 0x%xu; io[%u] = %uu; io[%u] = (%s); io[%u] = (%s); ret = 1; goto leave; }", i,
                   b.pc + 4 * i, kIoCause, cause, kIoAddr, addr.c_str(), kIoInfo, info.c_str());
    }
    std::string rounding(const Block &b, uint32_t i, const Op &o) const
    {
        const unsigned rm = o.imm & 0xff;
        if (rm != 7)
            return fmt("%uu", rm);
        out_pre_ += fmt("  if (frm > 4) %s\n", fault(b, i, IPU_ERR_ILLEGAL_INSTRUCTION, fmt("0x%xu", b.raw[i])).c_str());
        return "frm";
    }
    void load(const Block &b, uint32_t i, const Op &o, unsigned len, const char *read)
    {
        out += fmt("  { uint32_t a = %s + 0x%xu;", r(o.rs1).c_str(), o.imm);
        if (len > 1)
            out += fmt(" if (a & %uu) %s", len - 1, fault(b, i, IPU_ERR_LOAD_MISALIGNED, "a").c_str());
        out += fmt(" if (a - 0x%xu > size - %uu) %s", IPU_TILE_SRAM_BASE, len,
                   fault(b, i, IPU_ERR_LOAD_FAULT, "a").c_str());
        out += fmt(" const uint8_t *p = mem + (a - 0x%xu); %s }\n", IPU_TILE_SRAM_BASE, read);
    }
    void store(const Block &b, uint32_t i, const Op &o, unsigned len, const std::string &value)
    {
        out += fmt("  { uint32_t a = %s + 0x%xu;", r(o.rs1).c_str(), o.imm);
        if (len > 1)
            out += fmt(" if (a & %uu) %s", len - 1, fault(b, i, IPU_ERR_STORE_MISALIGNED, "a").c_str());
        out += fmt(" if (a - 0x%xu > size - %uu) %s", IPU_TILE_SRAM_BASE, len,
                   fault(b, i, IPU_ERR_STORE_FAULT, "a").c_str());
        out += fmt(" uint32_t off = a - 0x%xu; { uint32_t v = %s; memcpy(mem + off, &v, %u); }", IPU_TILE_SRAM_BASE,
                   value.c_str(), len);
        out += fmt(" if (IS_CODE(off)) { n += %uu; pc = 0x%xu; ret = 2; goto leave; } }\n", i + 1, b.pc + 4 * (i + 1));
    }
    void set(const Op &o, const std::string &expr) { out += fmt("  %s = %s;\n", r(o.rd).c_str(), expr.c_str()); }
    void setf(const Op &o, const std::string &expr) { out += fmt("  %s = %s;\n", g(o.rd).c_str(), expr.c_str()); }
    // An FP result for an integer register: computed (flags) even for x0.
    void set_from_fp(const Op &o, const std::string &expr)
    {
        if (o.rd)
            set(o, expr);
        else
            out += fmt("  (void)(%s);\n", expr.c_str());
    }

    void op(const Block &b, uint32_t i)
    {
        const Op &o = b.ops[i];
        const std::string a = r(o.rs1), bb = r(o.rs2), fa = g(o.rs1), fb = g(o.rs2);
        const std::string imm = fmt("0x%xu", o.imm);
        const std::string sa = "(int32_t)" + a, sb = "(int32_t)" + bb;
        out_pre_.clear();
        switch (o.kind) {
        case OpKind::NOP: break;
        case OpKind::LI: set(o, imm); break;
        case OpKind::ADDI: set(o, a + " + " + imm); break;
        case OpKind::ADDI_SP:
            out += fmt("  { uint32_t v = %s + %s; if (v < stack_limit) %s r2 = v; }\n", a.c_str(), imm.c_str(),
                       fault(b, i, IPU_ERR_STACK_OVERFLOW, "v", "stack_limit").c_str());
            break;
        case OpKind::SLTI: set(o, "(uint32_t)(" + sa + " < (int32_t)" + imm + ")"); break;
        case OpKind::SLTIU: set(o, "(uint32_t)(" + a + " < " + imm + ")"); break;
        case OpKind::XORI: set(o, a + " ^ " + imm); break;
        case OpKind::ORI: set(o, a + " | " + imm); break;
        case OpKind::ANDI: set(o, a + " & " + imm); break;
        case OpKind::SLLI: set(o, a + " << " + std::to_string(o.imm)); break;
        case OpKind::SRLI: set(o, a + " >> " + std::to_string(o.imm)); break;
        case OpKind::SRAI: set(o, "(uint32_t)(" + sa + " >> " + std::to_string(o.imm) + ")"); break;
        case OpKind::ADD: set(o, a + " + " + bb); break;
        case OpKind::SUB: set(o, a + " - " + bb); break;
        case OpKind::SLL: set(o, a + " << (" + bb + " & 31)"); break;
        case OpKind::SLT: set(o, "(uint32_t)(" + sa + " < " + sb + ")"); break;
        case OpKind::SLTU: set(o, "(uint32_t)(" + a + " < " + bb + ")"); break;
        case OpKind::XOR: set(o, a + " ^ " + bb); break;
        case OpKind::SRL: set(o, a + " >> (" + bb + " & 31)"); break;
        case OpKind::SRA: set(o, "(uint32_t)(" + sa + " >> (" + bb + " & 31))"); break;
        case OpKind::OR: set(o, a + " | " + bb); break;
        case OpKind::AND: set(o, a + " & " + bb); break;
        case OpKind::MUL: set(o, a + " * " + bb); break;
        case OpKind::MULH: set(o, "(uint32_t)(((int64_t)" + sa + " * (int64_t)" + sb + ") >> 32)"); break;
        case OpKind::MULHSU: set(o, "(uint32_t)(((int64_t)" + sa + " * (int64_t)(uint64_t)" + bb + ") >> 32)"); break;
        case OpKind::MULHU: set(o, "(uint32_t)(((uint64_t)" + a + " * (uint64_t)" + bb + ") >> 32)"); break;
        case OpKind::DIV:
            set(o, "(" + bb + " == 0 ? ~0u : (" + sa + " == INT32_MIN && " + sb + " == -1) ? " + a + " : (uint32_t)(" +
                       sa + " / " + sb + "))");
            break;
        case OpKind::DIVU: set(o, "(" + bb + " == 0 ? ~0u : " + a + " / " + bb + ")"); break;
        case OpKind::REM:
            set(o, "(" + bb + " == 0 ? " + a + " : (" + sa + " == INT32_MIN && " + sb + " == -1) ? 0u : (uint32_t)(" +
                       sa + " % " + sb + "))");
            break;
        case OpKind::REMU: set(o, "(" + bb + " == 0 ? " + a + " : " + a + " % " + bb + ")"); break;
        case OpKind::LB: load(b, i, o, 1, fmt("r%u = (uint32_t)(int32_t)(int8_t)*p;", o.rd).c_str()); break;
        case OpKind::LH: load(b, i, o, 2, fmt("int16_t v; memcpy(&v, p, 2); r%u = (uint32_t)(int32_t)v;", o.rd).c_str()); break;
        case OpKind::LW: load(b, i, o, 4, fmt("memcpy(&r%u, p, 4);", o.rd).c_str()); break;
        case OpKind::LBU: load(b, i, o, 1, fmt("r%u = *p;", o.rd).c_str()); break;
        case OpKind::LHU: load(b, i, o, 2, fmt("uint16_t v; memcpy(&v, p, 2); r%u = v;", o.rd).c_str()); break;
        case OpKind::SB: store(b, i, o, 1, "(uint8_t)" + bb); break; // memcpy of the low byte (little-endian host)
        case OpKind::SH: store(b, i, o, 2, bb); break;
        case OpKind::SW: store(b, i, o, 4, bb); break;
        case OpKind::FLW: load(b, i, o, 4, fmt("memcpy(&g%u, p, 4);", o.rd).c_str()); break;
        case OpKind::FSW: store(b, i, o, 4, fb); break;
        case OpKind::FADD: { auto rm = rounding(b, i, o); out += out_pre_; setf(o, "FADD(" + fa + ", " + fb + ", " + rm + ")"); break; }
        case OpKind::FSUB: { auto rm = rounding(b, i, o); out += out_pre_; setf(o, "FSUB(" + fa + ", " + fb + ", " + rm + ")"); break; }
        case OpKind::FMUL: { auto rm = rounding(b, i, o); out += out_pre_; setf(o, "FMUL(" + fa + ", " + fb + ", " + rm + ")"); break; }
        case OpKind::FDIV: { auto rm = rounding(b, i, o); out += out_pre_; setf(o, "FDIV(" + fa + ", " + fb + ", " + rm + ")"); break; }
        case OpKind::FMADD: case OpKind::FMSUB: case OpKind::FNMSUB: case OpKind::FNMADD: {
            auto rm = rounding(b, i, o);
            out += out_pre_;
            const char *fn = o.kind == OpKind::FMADD ? "FMADD" : o.kind == OpKind::FMSUB ? "FMSUB"
                           : o.kind == OpKind::FNMSUB ? "FNMSUB" : "FNMADD";
            setf(o, std::string(fn) + "(" + fa + ", " + fb + ", " + g(o.imm >> 8) + ", " + rm + ")");
            break;
        }
        case OpKind::FSGNJ: setf(o, "(" + fa + " & 0x7fffffffu) | (" + fb + " & 0x80000000u)"); break;
        case OpKind::FSGNJN: setf(o, "(" + fa + " & 0x7fffffffu) | (~" + fb + " & 0x80000000u)"); break;
        case OpKind::FSGNJX: setf(o, fa + " ^ (" + fb + " & 0x80000000u)"); break;
        case OpKind::FMV_X_W: if (o.rd) set(o, fa); break;
        case OpKind::FMV_W_X: setf(o, a); break;
        case OpKind::FEQ: set_from_fp(o, "FEQ(" + fa + ", " + fb + ")"); break;
        case OpKind::FLT: set_from_fp(o, "FLT(" + fa + ", " + fb + ")"); break;
        case OpKind::FLE: set_from_fp(o, "FLE(" + fa + ", " + fb + ")"); break;
        case OpKind::FCVT_S_W: { auto rm = rounding(b, i, o); out += out_pre_; setf(o, "FCVT_S_W(" + a + ", " + rm + ")"); break; }
        case OpKind::FCVT_S_WU: { auto rm = rounding(b, i, o); out += out_pre_; setf(o, "FCVT_S_WU(" + a + ", " + rm + ")"); break; }
        case OpKind::FCVT_W_S: { auto rm = rounding(b, i, o); out += out_pre_; set_from_fp(o, "FCVT_W_S(" + fa + ", " + rm + ")"); break; }
        case OpKind::FCVT_WU_S: { auto rm = rounding(b, i, o); out += out_pre_; set_from_fp(o, "FCVT_WU_S(" + fa + ", " + rm + ")"); break; }
        case OpKind::JAL:
            if (o.rd)
                set(o, fmt("0x%xu", b.end_pc()));
            out += "  " + go(b, o.imm) + "\n";
            break;
        case OpKind::JALR:
            out += fmt("  { uint32_t t = (%s + %s) & ~1u;", a.c_str(), imm.c_str());
            if (o.rd)
                out += fmt(" r%u = 0x%xu;", o.rd, b.end_pc());
            out += fmt(" n += %uu; pc = t; goto dispatch; }\n", b.len);
            break;
        case OpKind::BEQ: case OpKind::BNE: case OpKind::BLT: case OpKind::BGE: case OpKind::BLTU: case OpKind::BGEU: {
            const char *cond = o.kind == OpKind::BEQ ? "%s == %s" : o.kind == OpKind::BNE ? "%s != %s"
                             : o.kind == OpKind::BLT ? "(int32_t)%s < (int32_t)%s"
                             : o.kind == OpKind::BGE ? "(int32_t)%s >= (int32_t)%s"
                             : o.kind == OpKind::BLTU ? "%s < %s" : "%s >= %s";
            out += "  if (" + fmt(cond, a.c_str(), bb.c_str()) + ") " + go(b, o.imm) + "\n";
            out += "  " + go(b, b.end_pc()) + "\n";
            break;
        }
        case OpKind::END: out += "  " + go(b, b.end_pc()) + "\n"; break;
        case OpKind::SLOW: // the interpreter runs it: the ops before it retired
            out += fmt("  n += %uu; pc = 0x%xu; goto leave;\n", i, b.pc + 4 * i);
            break;
        }
    }

    const std::set<uint32_t> &native_;
    mutable std::string out_pre_;
};

// XXH3 of the generated C: any change of the code or of the translator gives a new name.
uint64_t content_hash(const std::string &c)
{
    return XXH3_64bits(c.data(), c.size());
}

std::string translate(const std::vector<const Block *> &blocks, const std::set<uint32_t> &native)
{
    Emitter e(native);
    for (const Block *b : blocks)
        if (native.count(b->pc))
            e.block(*b);
    std::string c = kPrelude;
    c += "int ipu_native_run(uint64_t *io, uint32_t *x, uint32_t *f, uint8_t *mem, const uint64_t *code_bits,\n"
         "                   void *const *fpu)\n{\n";
    for (unsigned i = 1; i < 32; i++)
        c += fmt("  uint32_t r%u = x[%u];\n", i, i);
    for (unsigned i = 0; i < 32; i++)
        c += fmt("  uint32_t g%u = f[%u];\n", i, i);
    c += fmt("  uint64_t n = io[%u]; const uint64_t budget = io[%u]; uint32_t pc = (uint32_t)io[%u];\n", kIoRetired,
             kIoBudget, kIoPc);
    c += fmt("  uint32_t fflags = (uint32_t)io[%u]; const uint32_t frm = (uint32_t)io[%u];\n", kIoFflags, kIoFrm);
    c += fmt("  const uint32_t stack_limit = (uint32_t)io[%u], size = (uint32_t)io[%u];\n", kIoStackLimit,
             kIoSramBytes);
    c += fmt("  const uint64_t code_words = io[%u];\n  int ret = 0;\n  (void)frm; (void)stack_limit;\n", kIoCodeWords);
    c += "dispatch:\n  switch (pc) {\n";
    for (uint32_t pc : native)
        c += fmt("  case 0x%xu: goto B_%x;\n", pc, pc);
    c += "  default: goto leave;\n  }\n";
    c += e.out;
    c += "leave:\n";
    for (unsigned i = 1; i < 32; i++)
        c += fmt("  x[%u] = r%u;\n", i, i);
    for (unsigned i = 0; i < 32; i++)
        c += fmt("  f[%u] = g%u;\n", i, i);
    c += fmt("  io[%u] = n; io[%u] = pc; io[%u] = fflags;\n  return ret;\n}\n", kIoRetired, kIoPc, kIoFflags);
    return c;
}

std::string cache_dir()
{
    if (const char *d = std::getenv("IPU_EMU_ISS_CACHE"); d && *d)
        return d;
    if (const char *d = std::getenv("XDG_CACHE_HOME"); d && *d)
        return std::string(d) + "/ipu-emu/iss";
    if (const char *d = std::getenv("HOME"); d && *d)
        return std::string(d) + "/.cache/ipu-emu/iss";
    return "/tmp/ipu-emu-iss-" + std::to_string(getuid());
}

bool make_dirs(const std::string &path)
{
    for (size_t i = 1; i <= path.size(); i++)
        if (i == path.size() || path[i] == '/')
            if (mkdir(path.substr(0, i).c_str(), 0755) != 0 && errno != EEXIST)
                return false;
    return true;
}

// The environment of a compiler run: the process's, with TMPDIR set to the
// service's private folder, where the compiler driver writes its own
// temporary files (cc*.s, cc*.o): a compiler stopped at exit leaves them
// there, and that folder is removed, not the user's temp folder.
std::vector<std::string> compiler_environment(const std::string &tmpdir)
{
    std::vector<std::string> env;
    for (char **e = environ; *e; e++)
        if (std::strncmp(*e, "TMPDIR=", 7) != 0)
            env.emplace_back(*e);
    env.push_back("TMPDIR=" + tmpdir);
    return env;
}

std::vector<char *> pointers(std::vector<std::string> &strings)
{
    std::vector<char *> p;
    for (auto &s : strings)
        p.push_back(s.data());
    p.push_back(nullptr);
    return p;
}

void report_once(const std::string &why)
{
    static std::once_flag once;
    std::call_once(once, [&] {
        std::fprintf(stderr,
                     "ipu-emu: IPU_EMU_ISS=%s: %s; running the fast ISS without native code. Install a C compiler "
                     "(cc) or set IPU_EMU_ISS_CC, and IPU_EMU_ISS_CACHE to a writable folder.\n",
                     std::getenv("IPU_EMU_ISS") ? std::getenv("IPU_EMU_ISS") : "", why.c_str());
    });
}

// Loads a compiled translation; nullptr (reported) if it cannot.
std::shared_ptr<const NativeCode> load(const std::string &so, const std::set<uint32_t> &entries)
{
    void *handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL); // kept for the life of the process
    void *sym = handle ? dlsym(handle, "ipu_native_run") : nullptr;
    if (!sym) {
        report_once("cannot load " + so);
        return nullptr;
    }
    auto code = std::make_shared<NativeCode>();
    code->run = reinterpret_cast<NativeFn>(sym);
    code->entries.assign(entries.begin(), entries.end());
    return code;
}

// A build folder a process made (tmp-PID-XXXXXX in the cache) whose process
// is gone: that process was killed before it could remove it.
bool orphaned_build_dir(const std::string &name)
{
    if (name.rfind("tmp-", 0) != 0)
        return false;
    char *end = nullptr;
    const long pid = std::strtol(name.c_str() + 4, &end, 10);
    return pid > 0 && *end == '-' && pid != getpid() && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

// The process's translations: loaded ones by content hash (tiles with the same
// code share one), and one thread that compiles the missing ones in turn.
// Every file a build writes (the C, the shared object before it is renamed
// into the cache, the compiler's temporaries) is in a private folder of the
// cache, and each compiler runs in a process group of its own. When the last
// model goes (NativeServiceHold) the requested compiles are waited for; at
// exit the service kills the compiler's group (the driver cc and its cc1, as
// and ld) and waits for the driver. Either way it joins its
// thread and removes the folder: nothing it started outlives its models and
// nothing is left in any temp folder.
class Service {
public:
    ~Service()
    {
        if (worker_ && getpid() != owner_) {
            // A forked child that exits: the thread, its compiler and its
            // folder are the parent's, not ours to stop, join or remove.
            (void)worker_.release();
            return;
        }
        stop(true);
    }

    // A model starts using the service; stop() runs when the last one goes.
    void hold()
    {
        std::lock_guard<std::mutex> g(mutex_);
        holders_++;
    }

    void release()
    {
        {
            std::lock_guard<std::mutex> g(mutex_);
            if (holders_ == 0 || --holders_ != 0)
                return;
        }
        if (getpid() == owner_ || !worker_)
            stop(false);
    }

    // Waits for the requested compiles to finish into the cache (so that the
    // next run loads them: a short run benefits too) or, with `kill` (at
    // exit), kills the one under way and drops the rest (their tiles stay on
    // the fast ISS); then joins the thread and removes the build folder, so
    // that nothing the service started outlives the models that used it and
    // nothing writes into the cache afterwards. Dropped translations are
    // forgotten: a later model asks for them again.
    void stop(bool kill)
    {
        std::unique_ptr<std::thread> worker;
        {
            std::lock_guard<std::mutex> g(mutex_);
            if (!worker_)
                return;
            stopping_ = true;
            killing_ = kill;
            worker = std::move(worker_);
        }
        wake_.notify_all();
        if (kill)
            stop_compiler();
        worker->join();
        std::error_code ec;
        if (!tmp_dir_.empty())
            std::filesystem::remove_all(tmp_dir_, ec);
        tmp_dir_.clear();
        std::lock_guard<std::mutex> g(mutex_);
        for (auto it = jobs_.begin(); it != jobs_.end();)
            it = it->second->cancelled ? jobs_.erase(it) : std::next(it);
        for (auto it = by_code_.begin(); it != by_code_.end();)
            it = it->second->cancelled ? by_code_.erase(it) : std::next(it);
        stopping_ = false;
        killing_ = false;
    }

    // The job already made for the blocks with this key, if any.
    std::shared_ptr<NativeJob> find(uint64_t key)
    {
        std::lock_guard<std::mutex> g(mutex_);
        auto it = by_code_.find(key);
        return it == by_code_.end() ? nullptr : it->second;
    }

    std::shared_ptr<NativeJob> remember(uint64_t key, std::shared_ptr<NativeJob> job)
    {
        std::lock_guard<std::mutex> g(mutex_);
        return by_code_.emplace(key, std::move(job)).first->second;
    }

    std::shared_ptr<NativeJob> request(const std::string &c, uint64_t hash, std::set<uint32_t> entries)
    {
        std::lock_guard<std::mutex> g(mutex_);
        if (auto it = jobs_.find(hash); it != jobs_.end())
            return it->second;
        auto job = std::make_shared<NativeJob>();
        jobs_[hash] = job;
        const std::string dir = cache_dir();
        char name[32];
        std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(hash));
        Work w{job, c, dir, name, std::move(entries)};
        if (access((dir + "/" + name + ".so").c_str(), R_OK) == 0) {
            finish(w); // compiled before: load it now
            return job;
        }
        if (stopping_) {
            cancel(*job);
            return job;
        }
        queue_.push_back(std::move(w));
        if (!worker_) {
            owner_ = getpid();
            worker_ = std::make_unique<std::thread>([this] { run(); });
        }
        wake_.notify_all();
        return job;
    }

private:
    struct Work {
        std::shared_ptr<NativeJob> job;
        std::string c, dir, name;
        std::set<uint32_t> entries;
    };

    static void cancel(NativeJob &job)
    {
        job.cancelled = true;
        job.done.store(true, std::memory_order_release);
    }

    void finish(Work &w)
    {
        w.job->code = load(w.dir + "/" + w.name + ".so", w.entries);
        w.job->done.store(true, std::memory_order_release);
    }

    // Kills the running compiler's process group, if any. The worker stores
    // the pid before it reads killing_ and this runs after killing_ is set,
    // so a compiler started just now is killed by one side or the other.
    void stop_compiler()
    {
        std::lock_guard<std::mutex> g(child_mutex_);
        if (child_)
            kill(-child_, SIGKILL);
    }

    // The private build folder in `cache` (made on first use, and again when
    // IPU_EMU_ISS_CACHE changed: the rename into the cache stays in one file
    // system), after removing the folders of processes killed before they could.
    bool ensure_tmp_dir(const std::string &cache)
    {
        std::error_code ec;
        if (!tmp_dir_.empty() && tmp_parent_ == cache && std::filesystem::is_directory(tmp_dir_, ec))
            return true;
        if (!tmp_dir_.empty())
            std::filesystem::remove_all(tmp_dir_, ec);
        tmp_dir_.clear();
        if (!make_dirs(cache))
            return false;
        for (const auto &e : std::filesystem::directory_iterator(cache, ec))
            if (orphaned_build_dir(e.path().filename().string()))
                std::filesystem::remove_all(e.path(), ec);
        std::string t = cache + "/tmp-" + std::to_string(getpid()) + "-XXXXXX";
        if (!mkdtemp(t.data()))
            return false;
        tmp_dir_ = t;
        tmp_parent_ = cache;
        return true;
    }

    // Runs the compiler in a process group of its own with its output
    // discarded (a background build must not write into a program's output);
    // returns true if it wrote `so`.
    bool compile(const std::string &c_path, const std::string &so)
    {
        const char *cc = std::getenv("IPU_EMU_ISS_CC");
        std::vector<std::string> args{cc && *cc ? cc : "cc", "-O2", "-fPIC", "-shared", "-fno-strict-aliasing",
                                      "-w", "-o", so, c_path};
        std::vector<std::string> env = compiler_environment(tmp_dir_);
        std::vector<char *> argv = pointers(args), envp = pointers(env);
        posix_spawn_file_actions_t files;
        posix_spawn_file_actions_init(&files);
        posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attr, 0); // its own group: cc, cc1, as and ld are killed together
        pid_t pid;
        const int spawned = posix_spawnp(&pid, argv[0], &files, &attr, argv.data(), envp.data());
        posix_spawnattr_destroy(&attr);
        posix_spawn_file_actions_destroy(&files);
        if (spawned != 0)
            return false;
        {
            std::lock_guard<std::mutex> g(child_mutex_);
            child_ = pid;
        }
        if (killing_)
            stop_compiler();
        // Waits without reaping, so that the pid (and group) stop_compiler
        // may kill stays this compiler's until child_ is cleared.
        siginfo_t info{};
        while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
        }
        {
            std::lock_guard<std::mutex> g(child_mutex_);
            child_ = 0;
        }
        int status = 0;
        return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }

    // Writes the C, compiles it in the private folder and renames the shared
    // object into the cache (another process may build the same file: the
    // rename is atomic).
    bool build(const Work &w)
    {
        if (!ensure_tmp_dir(w.dir)) {
            report_once("cannot create a build folder in " + w.dir);
            return false;
        }
        const std::string c_path = tmp_dir_ + "/" + w.name + ".c", tmp_so = tmp_dir_ + "/" + w.name + ".so";
        const std::string so = w.dir + "/" + w.name + ".so";
        if (FILE *out = std::fopen(c_path.c_str(), "w")) {
            std::fwrite(w.c.data(), 1, w.c.size(), out);
            std::fclose(out);
        }
        const bool ok = compile(c_path, tmp_so) && std::rename(tmp_so.c_str(), so.c_str()) == 0;
        std::remove(c_path.c_str());
        if (!ok) {
            std::remove(tmp_so.c_str());
            if (!killing_) // not the compiler stopped at exit
                report_once("compiling " + c_path + " failed");
        }
        return ok;
    }

    void run()
    {
        std::unique_lock<std::mutex> g(mutex_);
        for (;;) {
            wake_.wait(g, [&] { return stopping_ || !queue_.empty(); });
            if (killing_ || queue_.empty()) // stopping: at exit now, else once the requested work is done
                break;
            Work w = std::move(queue_.front());
            queue_.pop_front();
            g.unlock();
            const bool ok = build(w);
            g.lock();
            if (ok)
                finish(w);
            else if (killing_)
                cancel(*w.job);
            else
                w.job->done.store(true, std::memory_order_release); // no code: the tiles stay on the fast ISS
        }
        for (Work &w : queue_)
            cancel(*w.job);
        queue_.clear();
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::map<uint64_t, std::shared_ptr<NativeJob>> jobs_;    // by the C's content hash
    std::map<uint64_t, std::shared_ptr<NativeJob>> by_code_; // by the blocks' addresses and code words
    unsigned holders_ = 0;                                   // live models (NativeServiceHold)
    std::deque<Work> queue_;
    std::atomic<bool> stopping_{false}; // no new work; written under mutex_
    std::atomic<bool> killing_{false};  // kill the compiler; written under mutex_, read by build() without it
    std::mutex child_mutex_;
    pid_t child_ = 0;                   // the running compiler (its process group), 0 if none; under child_mutex_
    std::string tmp_dir_;               // the private build folder; used by the worker, removed at exit
    std::string tmp_parent_;            // the cache folder it is in
    std::unique_ptr<std::thread> worker_;
    pid_t owner_ = 0; // the process that started worker_
};

Service &service()
{
    static Service s;
    return s;
}

} // namespace

void *const *native_fpu_table() { return kFpuTable; }

std::shared_ptr<NativeJob> native_translate(const std::vector<const Block *> &unsorted)
{
    std::vector<const Block *> blocks = unsorted;
    std::sort(blocks.begin(), blocks.end(), [](const Block *a, const Block *b) { return a->pc < b->pc; });
    // Tiles running the same code (every tile of a Poplar program) ask for the
    // same translation: found by a hash of the blocks' addresses and code
    // words, before any C is generated.
    std::vector<uint32_t> words;
    for (const Block *b : blocks) {
        words.push_back(b->pc);
        words.push_back(b->len);
        words.insert(words.end(), b->raw.begin(), b->raw.end());
    }
    const uint64_t key = XXH3_64bits(words.data(), words.size() * sizeof(uint32_t));
    if (std::shared_ptr<NativeJob> known = service().find(key))
        return known;
    // A block that starts with a SLOW op has nothing native to run.
    std::set<uint32_t> native;
    for (const Block *b : blocks)
        if (b->ops[0].kind != OpKind::SLOW)
            native.insert(b->pc);
    const std::string c = translate(blocks, native);
    return service().remember(key, service().request(c, content_hash(c), std::move(native)));
}

NativeServiceHold::NativeServiceHold() { service().hold(); }

NativeServiceHold::~NativeServiceHold() { service().release(); }

} // namespace ipu::model
