// RV32 instruction fields: the register numbers and the sign-extended
// immediates of the I, S, B, U and J formats. The one decoder of these fields
// that every ISS tier (the interpreter, the block decoder, translations built
// from its blocks) uses, so that the tiers cannot disagree on an encoding.
#pragma once
#include <cstdint>

namespace ipu::model::rv32 {

constexpr int32_t sext(uint32_t v, unsigned bits) { return static_cast<int32_t>(v << (32 - bits)) >> (32 - bits); }

constexpr uint32_t opcode(uint32_t i) { return i & 0x7f; }
constexpr uint32_t rd(uint32_t i) { return (i >> 7) & 31; }
constexpr uint32_t funct3(uint32_t i) { return (i >> 12) & 7; }
constexpr uint32_t rs1(uint32_t i) { return (i >> 15) & 31; }
constexpr uint32_t rs2(uint32_t i) { return (i >> 20) & 31; }
constexpr uint32_t funct7(uint32_t i) { return i >> 25; }

constexpr uint32_t imm_i(uint32_t i) { return static_cast<uint32_t>(static_cast<int32_t>(i) >> 20); }
constexpr uint32_t imm_s(uint32_t i) { return static_cast<uint32_t>(sext(((i >> 25) << 5) | ((i >> 7) & 0x1f), 12)); }
constexpr uint32_t imm_b(uint32_t i)
{
    return static_cast<uint32_t>(
        sext(((i >> 31) << 12) | (((i >> 7) & 1) << 11) | (((i >> 25) & 0x3f) << 5) | (((i >> 8) & 0xf) << 1), 13));
}
constexpr uint32_t imm_u(uint32_t i) { return i & 0xfffff000u; }
constexpr uint32_t imm_j(uint32_t i)
{
    return static_cast<uint32_t>(
        sext(((i >> 31) << 20) | (((i >> 12) & 0xff) << 12) | (((i >> 20) & 1) << 11) | (((i >> 21) & 0x3ff) << 1),
             21));
}

// Spot checks of the formats' bit shuffles on encodings from the ISA manual.
static_assert(imm_i(0xfff00093u) == 0xffffffffu, "addi x1, x0, -1");
static_assert(imm_s(0xfe112e23u) == 0xfffffffcu, "sw x1, -4(x2)");
static_assert(imm_b(0xfe000ee3u) == 0xfffffffcu, "beq x0, x0, -4");
static_assert(imm_j(0xffdff06fu) == 0xfffffffcu, "jal x0, -4");
static_assert(imm_u(0x123450b7u) == 0x12345000u, "lui x1, 0x12345");

} // namespace ipu::model::rv32
