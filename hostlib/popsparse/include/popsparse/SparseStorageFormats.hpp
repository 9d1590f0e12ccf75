// Host-side storage formats of sparse matrices (Graphcore's popsparse/SparseStorageFormats.hpp): coordinate (COO),
// compressed sparse rows (CSR) and compressed sparse columns (CSC), of elements or of fixed-size blocks.
#ifndef POPSPARSE_SPARSE_STORAGE_FORMATS_HPP
#define POPSPARSE_SPARSE_STORAGE_FORMATS_HPP

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace popsparse {

/// The shape of the unit a format stores: {1, 1} for single elements, {rows, columns} for blocks.
struct Block {
  /// Columns of a block.
  std::size_t getNumColumnsInBlock() const { return blockDimensions[1]; }
  /// Rows of a block.
  std::size_t getNumRowsInBlock() const { return blockDimensions[0]; }
  /// Elements of a block.
  std::size_t getBlockSize() const { return blockDimensions[0] * blockDimensions[1]; }
  /// {rows, columns} of a block.
  std::array<std::size_t, 2> getBlockDimensions() const { return blockDimensions; }

protected:
  std::array<std::size_t, 2> blockDimensions;
};

/// Coordinate format: non-zero value (or block, its elements row-major) i is at row rowIndices[i], column
/// columnIndices[i] (of its first element, for blocks). numRows/numColumns are the dense shape when known (0 if not).
template <typename T> struct COOMatrix : Block {
  std::size_t numRows = 0;
  std::size_t numColumns = 0;
  std::vector<T> nzValues;
  std::vector<std::size_t> columnIndices;
  std::vector<std::size_t> rowIndices;

  /// From the values and their coordinates.
  COOMatrix(const std::vector<T> &nzValues_, const std::vector<std::size_t> &columnIndices_,
            const std::vector<std::size_t> &rowIndices_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : nzValues(nzValues_), columnIndices(columnIndices_), rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  /// As above with the dense shape.
  COOMatrix(std::size_t numRows_, std::size_t numColumns_, const std::vector<T> &nzValues_,
            const std::vector<std::size_t> &columnIndices_, const std::vector<std::size_t> &rowIndices_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : numRows(numRows_), numColumns(numColumns_), nzValues(nzValues_), columnIndices(columnIndices_),
        rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  /// From the values and coordinates, moved in.
  COOMatrix(std::vector<T> &&nzValues_, std::vector<std::size_t> &&columnIndices_,
            std::vector<std::size_t> &&rowIndices_, const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : nzValues(std::move(nzValues_)), columnIndices(std::move(columnIndices_)), rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  /// As above with the dense shape.
  COOMatrix(std::size_t numRows_, std::size_t numColumns_, std::vector<T> &&nzValues_,
            std::vector<std::size_t> &&columnIndices_, std::vector<std::size_t> &&rowIndices_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : numRows(numRows_), numColumns(numColumns_), nzValues(std::move(nzValues_)),
        columnIndices(std::move(columnIndices_)), rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  /// Room for `numNZValues` values and their coordinates, to be filled in.
  COOMatrix(std::size_t numNZValues, const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : nzValues(numNZValues), columnIndices(numNZValues), rowIndices(numNZValues) {
    Block::blockDimensions = blockDimensions_;
  }
  /// An empty matrix.
  COOMatrix(const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}}) { Block::blockDimensions = blockDimensions_; }
  COOMatrix(const COOMatrix &) = default;
};

/// Compressed sparse columns: the values (or blocks) of column (block column) c are
/// nzValues[columnIndices[c] .. columnIndices[c + 1]) (element offsets), at rows rowIndices[...] of the same range
/// (one entry per value or block). columnIndices has one entry per column plus one.
template <typename T> struct CSCMatrix : Block {
  std::size_t numRows = 0;
  std::size_t numColumns = 0;
  std::vector<T> nzValues;
  std::vector<std::size_t> columnIndices;
  std::vector<std::size_t> rowIndices;

  /// From the values, the column starts and the row of each value.
  CSCMatrix(const std::vector<T> &nzValues_, const std::vector<std::size_t> &columnIndices_,
            const std::vector<std::size_t> &rowIndices_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : nzValues(nzValues_), columnIndices(columnIndices_), rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  /// As above with the dense shape.
  CSCMatrix(std::size_t numRows_, std::size_t numColumns_, const std::vector<T> &nzValues_,
            const std::vector<std::size_t> &columnIndices_, const std::vector<std::size_t> &rowIndices_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : numRows(numRows_), numColumns(numColumns_), nzValues(nzValues_), columnIndices(columnIndices_),
        rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  /// From the values and indices, moved in.
  CSCMatrix(std::vector<T> &&nzValues_, std::vector<std::size_t> &&columnIndices_,
            std::vector<std::size_t> &&rowIndices_, const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : nzValues(std::move(nzValues_)), columnIndices(std::move(columnIndices_)), rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  /// As above with the dense shape.
  CSCMatrix(std::size_t numRows_, std::size_t numColumns_, std::vector<T> &&nzValues_,
            std::vector<std::size_t> &&columnIndices_, std::vector<std::size_t> &&rowIndices_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : numRows(numRows_), numColumns(numColumns_), nzValues(std::move(nzValues_)),
        columnIndices(std::move(columnIndices_)), rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  /// Room for `numNZValues` values of a matrix of `numColumns` columns, to be filled in.
  CSCMatrix(std::size_t numNZValues, std::size_t numColumns_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : nzValues(numNZValues), columnIndices(numColumns_ + 1), rowIndices(numNZValues) {
    Block::blockDimensions = blockDimensions_;
  }
  /// An empty matrix.
  CSCMatrix(const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}}) {
    Block::blockDimensions = blockDimensions_;
  }
  CSCMatrix(const CSCMatrix &) = default;
};

/// Compressed sparse rows: the values (or blocks) of row (block row) r are
/// nzValues[rowIndices[r] .. rowIndices[r + 1]) (element offsets), at columns columnIndices[...] of the same
/// range (one entry per value or block). rowIndices has one entry per row plus one.
template <typename T> struct CSRMatrix : Block {
  std::size_t numRows = 0;
  std::size_t numColumns = 0;
  std::vector<T> nzValues;
  std::vector<std::size_t> columnIndices;
  std::vector<std::size_t> rowIndices;

  /// From the values, the column of each value and the row starts.
  CSRMatrix(const std::vector<T> &nzValues_, const std::vector<std::size_t> &columnIndices_,
            const std::vector<std::size_t> &rowIndices_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : nzValues(nzValues_), columnIndices(columnIndices_), rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  /// As above with the dense shape.
  CSRMatrix(std::size_t numRows_, std::size_t numColumns_, const std::vector<T> &nzValues_,
            const std::vector<std::size_t> &columnIndices_, const std::vector<std::size_t> &rowIndices_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : numRows(numRows_), numColumns(numColumns_), nzValues(nzValues_), columnIndices(columnIndices_),
        rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  /// From the values and indices, moved in.
  CSRMatrix(std::vector<T> &&nzValues_, std::vector<std::size_t> &&columnIndices_,
            std::vector<std::size_t> &&rowIndices_, const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : nzValues(std::move(nzValues_)), columnIndices(std::move(columnIndices_)), rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  /// As above with the dense shape.
  CSRMatrix(std::size_t numRows_, std::size_t numColumns_, std::vector<T> &&nzValues_,
            std::vector<std::size_t> &&columnIndices_, std::vector<std::size_t> &&rowIndices_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : numRows(numRows_), numColumns(numColumns_), nzValues(std::move(nzValues_)),
        columnIndices(std::move(columnIndices_)), rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  /// Room for `numNZValues` values of a matrix of `numRows` rows, to be filled in.
  CSRMatrix(std::size_t numNZValues, std::size_t numRows_,
            const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}})
      : nzValues(numNZValues), columnIndices(numNZValues), rowIndices(numRows_ + 1) {
    Block::blockDimensions = blockDimensions_;
  }
  /// An empty matrix.
  CSRMatrix(const std::array<std::size_t, 2> &blockDimensions_ = {{1, 1}}) {
    Block::blockDimensions = blockDimensions_;
  }
  CSRMatrix(const CSRMatrix &) = default;
};

} // namespace popsparse

#endif // POPSPARSE_SPARSE_STORAGE_FORMATS_HPP
