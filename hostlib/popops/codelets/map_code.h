// The serialized form of a popops expression that the MapInterpreter vertex runs for each element: shared by the
// host (which writes it) and the tile (which reads it). C++11 and freestanding.
//
// Layout (32-bit words): [0..4] the number of operands of each element type (float, int, unsigned, bool, half), so
// that run r's operand k of type t is the list item r * count[t] + k; [5] the result type; then instructions until
// END. A half value is loaded as a float and every half result is rounded to half (nearest even), so half
// arithmetic is float arithmetic rounded once per operation, as an IPU's f16 instructions round theirs.
// Instruction word: kind | type << 4 | op << 8 | arg << 16. A CONST is followed by the value's 32 bits.
#ifndef POPOPS_MAP_CODE_H
#define POPOPS_MAP_CODE_H

namespace popops {
namespace mapcode {

/// Value types: float, int, unsigned, bool, half.
const unsigned F = 0, I = 1, U = 2, B = 3, H = 4, NUM_TYPES = 5;
const unsigned END = 0;
const unsigned LOAD = 1;    ///< push operand `arg` of list `type`; a one-element operand is broadcast
const unsigned CONST = 2;   ///< push the next word (for half: a float's bits, rounded to half)
const unsigned UNARY = 3;   ///< apply UnaryOpType `op` of `type` to the top
const unsigned BINARY = 4;  ///< pop b, pop a, push a `op` b (computed in `type`)
const unsigned TERNARY = 5; ///< pop c, b, a; push TernaryOpType `op` (computed in `type`)
const unsigned CAST = 6;    ///< convert the top from `type` to `arg`
const unsigned kHeaderWords = NUM_TYPES + 1;
const unsigned kResultWord = NUM_TYPES;
const unsigned kMaxStack = 16;

/// The bits of an instruction word that hold its kind (the type starts at bit 4).
const unsigned kKindMask = 15;

inline unsigned encode(unsigned kind, unsigned type, unsigned op, unsigned arg) {
  return kind | type << 4 | op << 8 | arg << 16;
}

} // namespace mapcode
} // namespace popops

#endif // POPOPS_MAP_CODE_H
