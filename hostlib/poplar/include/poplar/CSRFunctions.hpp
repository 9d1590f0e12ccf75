// The floating-point behaviour of the tiles, as Graphcore's SDK sets it through the tiles' control registers:
// which floating-point exceptions trap, stochastic rounding, and NaN on overflow.
//
// On this emulator the tiles' arithmetic is fixed: a tile computes IEEE 754 binary32 (RV32F), every exception is
// quiet (an invalid operation gives NaN, a division by zero and an overflow give an infinity, none stops the
// program), rounding is always to nearest even (never stochastic), and a half-precision result that overflows is
// an infinity. So inv, div0, oflo and esr are accepted and change nothing. The one field modelled is nanoo for the
// conversions to QUARTER (popops::cast): the graph holds a control word (getFloatingPointControlTensor) that these
// functions write in program order and the QUARTER conversions read, so a value that overflows the 8-bit format
// becomes NaN (0x80) when nanoo is on and the largest value of its sign when it is off. Before any of these
// functions runs, nanoo is off (saturation). Programs that turn exceptions on to check that nothing raises one run
// here as if nothing did (hostlib/poplar/README.md). Compiles as C++11, as users build.
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

/// Appends to `prog` the setting of every tile's floating-point behaviour to `behaviour`: of the fields only
/// nanoo has an effect here (the QUARTER conversions that run after it; see the file comment).
void setFloatingPointBehaviour(Graph &graph, program::Sequence &prog, const FloatingPointBehaviour &behaviour,
                               const DebugContext &debugContext = {});

/// Appends to `prog` the restoring of a state that getAndModifyFloatingPointBehaviour returned (its nanoo is the
/// one field with an effect). Throws poplar_error when `behaviour` is not a one-element UNSIGNED_INT tensor.
void setFloatingPointBehaviour(Graph &graph, program::Sequence &prog, const Tensor &behaviour,
                               const DebugContext &debugContext = {});

/// Appends to `prog` the turning on or off of stochastic rounding on every tile. Accepted; the emulated tiles
/// always round to nearest even, so it has no effect.
void setStochasticRounding(Graph &graph, program::Sequence &prog, bool behaviour,
                           const DebugContext &debugContext = {});

/// Appends to `prog` a read of the tiles' floating-point state into the returned tensor (one UNSIGNED_INT, on
/// tile 0), then the clearing of the fields true in `clear` and the setting of those true in `set`. Give the
/// tensor to setFloatingPointBehaviour to restore the state. On the emulated tiles the state holds nanoo only
/// (the other fields read as false and their modification has no effect).
Tensor getAndModifyFloatingPointBehaviour(Graph &graph, program::Sequence &prog,
                                          const FloatingPointBehaviour &clear, const FloatingPointBehaviour &set,
                                          const DebugContext &debugContext = {});

/// Emulator extension, not in Graphcore's SDK: the one-element UNSIGNED_INT variable (tile 0 of `graph`) that
/// holds the emulated floating-point control for `graph`'s programs, made on first call and the same tensor after.
/// Bit 0 is nanoo (FloatingPointControlBits); it starts at 0. PopLibs' QUARTER conversions connect it to their
/// vertices so they follow setFloatingPointBehaviour.
Tensor getFloatingPointControlTensor(Graph &graph);

/// The bits of the control word getFloatingPointControlTensor holds.
enum FloatingPointControlBits : unsigned { FP_CONTROL_NANOO = 1u };

} // namespace poplar

#endif // POPLAR_CSRFUNCTIONS_HPP
