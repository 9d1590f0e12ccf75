// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11): a counter-based generator.
// Four 32-bit output words are a pure function of a 128-bit counter and a 64-bit key, so any tile can produce the
// numbers of any element without state or communication. Shared by the tile codelets and the host (tests check
// device output against it), hence plain C++ with no library.
#ifndef POPRAND_PHILOX_H
#define POPRAND_PHILOX_H

namespace poprand {
namespace philox {

/// Four 32-bit words: a counter going in, random bits coming out.
struct Block {
  unsigned w[4];
};

inline void mulHiLo(unsigned a, unsigned b, unsigned &hi, unsigned &lo) {
  unsigned long long p = (unsigned long long)a * b;
  hi = (unsigned)(p >> 32);
  lo = (unsigned)p;
}

/// The ten rounds of Philox4x32 applied to `ctr` under key (k0, k1).
inline Block philox4x32(Block ctr, unsigned k0, unsigned k1) {
  for (int round = 0; round < 10; ++round) {
    unsigned hi0, lo0, hi1, lo1;
    mulHiLo(0xD2511F53u, ctr.w[0], hi0, lo0);
    mulHiLo(0xCD9E8D57u, ctr.w[2], hi1, lo1);
    Block next;
    next.w[0] = hi1 ^ ctr.w[1] ^ k0;
    next.w[1] = lo1;
    next.w[2] = hi0 ^ ctr.w[3] ^ k1;
    next.w[3] = lo0;
    ctr = next;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return ctr;
}

/// Block `block` of a seeded call: key = the seed tensor's two words, counter = (block, lane, seedModifier,
/// attempt). Attempt 0 (lane 0) is shared by the elements of the block: element k of the reference uses its
/// words from (k % per) * width, where width is 1 or 2 words per element and per = 4 / width. A later attempt
/// (truncated normal's re-draws) is a block of the element's own, told apart by its lane k % per.
inline Block seeded(unsigned seed0, unsigned seed1, unsigned seedModifier, unsigned block, unsigned lane,
                    unsigned attempt) {
  Block c;
  c.w[0] = block;
  c.w[1] = lane;
  c.w[2] = seedModifier;
  c.w[3] = attempt;
  return philox4x32(c, seed0, seed1);
}

/// The same from a hardware-like state (key0, key1, counterLo, counterHi): blocks are numbered from the state's
/// 64-bit counter, which a call advances by the blocks it used.
inline Block fromState(const unsigned *state, unsigned block, unsigned lane, unsigned attempt) {
  Block c;
  c.w[0] = state[2] + block;
  c.w[1] = state[3] + (c.w[0] < state[2] ? 1u : 0u);
  c.w[2] = 0xA5A5A5A5u ^ lane; // keeps state streams apart from seeded ones under the same key
  c.w[3] = attempt;
  return philox4x32(c, state[0], state[1]);
}

/// [0, 1) with 24 random bits: exact in float.
inline float unitOpen1(unsigned bits) { return (float)(bits >> 8) * (1.0f / 16777216.0f); }
/// (0, 1] with 24 random bits: safe for log().
inline float unitOpen0(unsigned bits) { return (float)((bits >> 8) + 1u) * (1.0f / 16777216.0f); }

} // namespace philox
} // namespace poprand

#endif // POPRAND_PHILOX_H
