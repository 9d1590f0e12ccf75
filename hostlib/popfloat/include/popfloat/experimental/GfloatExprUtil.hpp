// Names of the gfloat enumerations (as vertex template arguments spell them) and the Poplar type of each storage
// type.
#ifndef POPFLOAT_EXPERIMENTAL_GFLOATEXPRUTIL_HPP
#define POPFLOAT_EXPERIMENTAL_GFLOATEXPRUTIL_HPP

#include <string>

#include <popfloat/experimental/GfloatExpr.hpp>
#include <poplar/Type.hpp>
#include <poputil/VertexTemplates.hpp>

namespace popfloat {
namespace experimental {

/// The enumerator's name ("RN", "SR", ..., "INV" for INV). Throws poputil::poplibs_error for a value outside the
/// enumeration; so do the three below.
std::string roundTypeToString(RoundType rmode);
/// The enumerator's name ("IEEE_FP16", "BFLOAT16", ..., "INVALID_FORMAT").
std::string formatTypeToString(FormatType fmt);
/// The enumerator's name ("UNIFORM", ..., "INVALID").
std::string srDensityTypeToString(SRDensityType dist);
/// The enumerator's name ("FP32", "BF16", ..., "AUTO").
std::string specTypeToString(SpecType specType);
/// The Poplar type results of `specType` are held in: FLOAT for FP32 and BF16, HALF, SIGNED_CHAR, SHORT, INT.
/// Throws poputil::poplibs_error for AUTO, which names no single type.
poplar::Type specTypeToPoplarType(SpecType specType);

} // namespace experimental
} // namespace popfloat

namespace poputil {
/// A RoundType as a vertex template argument: "popfloat::experimental::RoundType::RN".
template <> struct VertexTemplateToString<popfloat::experimental::RoundType> {
  static std::string to_string(const popfloat::experimental::RoundType &v) {
    return "popfloat::experimental::RoundType::" + popfloat::experimental::roundTypeToString(v);
  }
};
/// A FormatType as a vertex template argument.
template <> struct VertexTemplateToString<popfloat::experimental::FormatType> {
  static std::string to_string(const popfloat::experimental::FormatType &v) {
    return "popfloat::experimental::FormatType::" + popfloat::experimental::formatTypeToString(v);
  }
};
/// An SRDensityType as a vertex template argument.
template <> struct VertexTemplateToString<popfloat::experimental::SRDensityType> {
  static std::string to_string(const popfloat::experimental::SRDensityType &v) {
    return "popfloat::experimental::SRDensityType::" + popfloat::experimental::srDensityTypeToString(v);
  }
};
/// A SpecType as a vertex template argument.
template <> struct VertexTemplateToString<popfloat::experimental::SpecType> {
  static std::string to_string(const popfloat::experimental::SpecType &v) {
    return "popfloat::experimental::SpecType::" + popfloat::experimental::specTypeToString(v);
  }
};
} // namespace poputil

#endif // POPFLOAT_EXPERIMENTAL_GFLOATEXPRUTIL_HPP
