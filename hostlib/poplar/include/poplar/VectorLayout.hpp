// How a vertex's vector fields are laid out in tile memory, as the SDK's profiler and FieldData name the layouts,
// in the header of the same path as the SDK's. The emulator's vertex state always holds a full pointer and a size
// (what the SDK calls Span), so FieldData reports Span for vectors and NotAVector for scalars.
#ifndef POPLAR_VECTOR_LAYOUT_HPP
#define POPLAR_VECTOR_LAYOUT_HPP

#include <ostream>
#include <string>

namespace poplar {
namespace layout {

/// The layouts of a Vector field.
enum class Vector { NotAVector, Span, ShortSpan, OnePtr, ScaledPtr32, ScaledPtr64, ScaledPtr128 };
/// The layouts of a VectorList field.
enum class VectorList { NotAVector, OnePtr, ScaledPtr32, ScaledPtr64, ScaledPtr128, DeltaN, DeltaNElements };

/// The enumerator's name ("Span", "DeltaN", ...).
std::string to_string(const Vector v);
std::string to_string(const VectorList v);
/// Writes to_string(v).
std::ostream &operator<<(std::ostream &os, const Vector v);
std::ostream &operator<<(std::ostream &os, const VectorList v);

} // namespace layout
} // namespace poplar

#endif // POPLAR_VECTOR_LAYOUT_HPP
