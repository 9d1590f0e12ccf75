// The sparsity of a dynamic sparse operand (Graphcore's popsparse/SparsityParams.hpp): single elements or fixed-size
// blocks, with no structure beyond that.
#ifndef POPSPARSE_SPARSITY_PARAMS_HPP
#define POPSPARSE_SPARSITY_PARAMS_HPP

#include <array>
#include <cstddef>
#include <ostream>

namespace popsparse {
namespace dynamic {

/// Whether the non-zero values are single elements or blocks.
enum class SparsityType { Element, Block };
std::ostream &operator<<(std::ostream &os, const SparsityType &t);

/// The structure of the non-zero pattern; only unstructured exists.
enum class SparsityStructure { Unstructured };
std::ostream &operator<<(std::ostream &os, const SparsityStructure &s);

/// Element or block sparsity with its block shape {rows, columns}. As in PopLibs, the type follows the block
/// shape: {1, 1} is Element, anything larger is Block, whatever type is passed.
struct SparsityParams {
  SparsityType type;
  SparsityStructure structure;
  std::array<std::size_t, 2> blockDimensions;

  SparsityParams(SparsityType type_ = SparsityType::Element,
                 SparsityStructure structure_ = SparsityStructure::Unstructured,
                 std::array<std::size_t, 2> blockDimensions_ = {{1, 1}})
      : type(blockDimensions_[0] * blockDimensions_[1] == 1 ? SparsityType::Element : SparsityType::Block),
        structure(structure_), blockDimensions(blockDimensions_) {
    (void)type_;
  }
  SparsityParams(const SparsityParams &) = default;
  SparsityParams &operator=(const SparsityParams &) = default;

  friend bool operator<(const SparsityParams &a, const SparsityParams &b);
  friend bool operator==(const SparsityParams &a, const SparsityParams &b);
  friend bool operator!=(const SparsityParams &a, const SparsityParams &b);
  friend std::ostream &operator<<(std::ostream &os, const SparsityParams &p);
};

} // namespace dynamic
} // namespace popsparse

#endif
