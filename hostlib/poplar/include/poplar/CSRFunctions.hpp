// The floating-point behaviour of the tiles, as Graphcore's SDK sets it through the tiles' control registers:
// which floating-point exceptions trap, stochastic rounding, and NaN on half-precision overflow.
//
// On this emulator the tiles' floating-point behaviour is fixed, so these functions are accepted, validated, and
// change nothing: a tile computes IEEE 754 binary32 (RV32F), every exception is quiet (an invalid operation gives
// NaN, a division by zero and an overflow give an infinity, none stops the program), rounding is always to
// nearest even (never stochastic), and a half-precision result that overflows is an infinity. The state that
// getAndModifyFloatingPointBehaviour reads is therefore always that fixed one (every field false). Programs that
// turn exceptions on to check that nothing raises one run here as if nothing did (hostlib/poplar/README.md).
// Compiles as C++11, as users build.
#ifndef POPLAR_CSRFUNCTIONS_HPP
#define POPLAR_CSRFUNCTIONS_HPP

#include "poplar/DebugContext.hpp"
#include "poplar/Graph.hpp"
#include "poplar/Program.hpp"
#include "poplar/Tensor.hpp"

namespace poplar {

/// What a tile does on floating-point events. Each field is what the SDK's tile would do when it is true:
/// `inv` traps on an invalid operation, `div0` on a division by zero, `oflo` on an overflow; `esr` enables
/// stochastic rounding; `nanoo` makes a half-precision overflow give NaN rather than saturate.
/// The default-constructed value has every field true, as the SDK's.
struct FloatingPointBehaviour {
  bool inv = true;
  bool div0 = true;
  bool oflo = true;
  bool esr = true;
  bool nanoo = true;
  FloatingPointBehaviour(bool inv_, bool div0_, bool oflo_, bool esr_, bool nanoo_)
      : inv(inv_), div0(div0_), oflo(oflo_), esr(esr_), nanoo(nanoo_) {}
  FloatingPointBehaviour() = default;
  /// Every field negated (a mask of the fields that are false).
  FloatingPointBehaviour operator!() const { return FloatingPointBehaviour(!inv, !div0, !oflo, !esr, !nanoo); }
};

/// Appends to `prog` the setting of every tile's floating-point behaviour to `behaviour`. Accepted; the emulated
/// tiles' behaviour is fixed (see the file comment), so it has no effect.
void setFloatingPointBehaviour(Graph &graph, program::Sequence &prog, const FloatingPointBehaviour &behaviour,
                               const DebugContext &debugContext = {});

/// Appends to `prog` the restoring of a state that getAndModifyFloatingPointBehaviour returned. Throws
/// poplar_error when `behaviour` is not a one-element UNSIGNED_INT tensor of `graph`. No effect on the emulated
/// tiles (their state is fixed).
void setFloatingPointBehaviour(Graph &graph, program::Sequence &prog, const Tensor &behaviour,
                               const DebugContext &debugContext = {});

/// Appends to `prog` the turning on or off of stochastic rounding on every tile. Accepted; the emulated tiles
/// always round to nearest even, so it has no effect.
void setStochasticRounding(Graph &graph, program::Sequence &prog, bool behaviour,
                           const DebugContext &debugContext = {});

/// Appends to `prog` a read of the tiles' floating-point state into the returned tensor (one UNSIGNED_INT, on
/// tile 0), then the clearing of the fields true in `clear` and the setting of those true in `set`. Give the
/// tensor to setFloatingPointBehaviour to restore the state. On the emulated tiles the state read is the fixed
/// one (every field false, the value 0) and the modification has no effect.
Tensor getAndModifyFloatingPointBehaviour(Graph &graph, program::Sequence &prog,
                                          const FloatingPointBehaviour &clear, const FloatingPointBehaviour &set,
                                          const DebugContext &debugContext = {});

} // namespace poplar

#endif // POPLAR_CSRFUNCTIONS_HPP
