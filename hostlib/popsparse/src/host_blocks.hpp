// Host sparse matrices as lists of blocks, shared by the dynamic and static Partitioners and the static products:
// any storage format read as blocks (first element's row and column, values row-major), and blocks in row-major
// order written back as COO, CSR or CSC.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <popsparse/SparseStorageFormats.hpp>

#include "poputil/exceptions.hpp"

namespace popsparse {
namespace detail {

template <typename T> struct HostBlock {
  std::size_t row, col;
  std::vector<T> values;
};

/// Refuses a matrix whose blocks are not br x bc; `name` starts the error.
inline void checkBlockShape(const Block &m, std::size_t br, std::size_t bc, const std::string &name) {
  if (m.getNumRowsInBlock() != br || m.getNumColumnsInBlock() != bc)
    throw poputil::poplibs_error(name + ": the matrix has " + std::to_string(m.getNumRowsInBlock()) + "x" +
                                 std::to_string(m.getNumColumnsInBlock()) + " blocks; the operation wants " +
                                 std::to_string(br) + "x" + std::to_string(bc));
}

/// The blocks of a COO matrix, in its order.
template <typename T> std::vector<HostBlock<T> > readBlocks(const COOMatrix<T> &m, const std::string &name) {
  const std::size_t area = m.getBlockSize();
  if (m.rowIndices.size() != m.columnIndices.size() || m.nzValues.size() != m.rowIndices.size() * area)
    throw poputil::poplibs_error(name + ": the COO matrix's indices and values differ in number");
  std::vector<HostBlock<T> > out;
  for (std::size_t k = 0; k < m.rowIndices.size(); ++k) {
    const auto first = m.nzValues.begin() + long(k * area);
    out.push_back({m.rowIndices[k], m.columnIndices[k], std::vector<T>(first, first + long(area))});
  }
  return out;
}

/// The blocks of entries [begin, end) of a compressed format: values at element offsets, one index per block.
template <typename T>
void addRange(std::vector<HostBlock<T> > &out, const std::vector<T> &nz, const std::vector<std::size_t> &other,
              std::size_t begin, std::size_t end, std::size_t fixed, bool fixedIsRow, std::size_t area,
              const std::string &name) {
  if (begin % area || end % area || end > nz.size() || begin > end || end / area > other.size())
    throw poputil::poplibs_error(name + ": the compressed offsets do not match the values");
  for (std::size_t k = begin / area; k < end / area; ++k) {
    const auto first = nz.begin() + long(k * area);
    out.push_back({fixedIsRow ? fixed : other[k], fixedIsRow ? other[k] : fixed,
                   std::vector<T>(first, first + long(area))});
  }
}

/// The blocks of a CSR matrix, row by row.
template <typename T> std::vector<HostBlock<T> > readBlocks(const CSRMatrix<T> &m, const std::string &name) {
  std::vector<HostBlock<T> > out;
  for (std::size_t r = 0; r + 1 < m.rowIndices.size(); ++r)
    addRange(out, m.nzValues, m.columnIndices, m.rowIndices[r], m.rowIndices[r + 1], r * m.getNumRowsInBlock(), true,
             m.getBlockSize(), name);
  return out;
}

/// The blocks of a CSC matrix, column by column.
template <typename T> std::vector<HostBlock<T> > readBlocks(const CSCMatrix<T> &m, const std::string &name) {
  std::vector<HostBlock<T> > out;
  for (std::size_t c = 0; c + 1 < m.columnIndices.size(); ++c)
    addRange(out, m.nzValues, m.rowIndices, m.columnIndices[c], m.columnIndices[c + 1], c * m.getNumColumnsInBlock(),
             false, m.getBlockSize(), name);
  return out;
}

/// The shape of a host matrix: rows x cols in br x bc blocks.
struct HostShape {
  std::size_t rows, cols, br, bc;
};

/// `blocks` (row-major order) as a COO matrix.
template <typename T> COOMatrix<T> toCOO(const std::vector<HostBlock<T> > &blocks, const HostShape &s) {
  std::vector<T> nz;
  std::vector<std::size_t> rows, cols;
  for (const HostBlock<T> &b : blocks) {
    rows.push_back(b.row);
    cols.push_back(b.col);
    nz.insert(nz.end(), b.values.begin(), b.values.end());
  }
  return COOMatrix<T>(s.rows, s.cols, nz, cols, rows, {{s.br, s.bc}});
}

/// The parts of a compressed format: the values and minor indices (columns for CSR, rows for CSC) of `blocks` in
/// their order, and the element offset at which each major line (block row or column) starts, plus the end.
template <typename T> struct Compressed {
  std::vector<T> nz;
  std::vector<std::size_t> minor, starts;
};

/// `blocks`, ordered by their major line, compressed by block rows (byRow) or block columns.
template <typename T> Compressed<T> compress(const std::vector<HostBlock<T> > &blocks, const HostShape &s, bool byRow) {
  const std::size_t majors = byRow ? s.rows / s.br : s.cols / s.bc;
  Compressed<T> c;
  c.starts.assign(majors + 1, 0);
  for (const HostBlock<T> &b : blocks) {
    c.minor.push_back(byRow ? b.col : b.row);
    c.nz.insert(c.nz.end(), b.values.begin(), b.values.end());
    c.starts[(byRow ? b.row / s.br : b.col / s.bc) + 1] += s.br * s.bc;
  }
  for (std::size_t i = 0; i < majors; ++i)
    c.starts[i + 1] += c.starts[i];
  return c;
}

/// `blocks` (row-major order) as a CSR matrix.
template <typename T> CSRMatrix<T> toCSR(const std::vector<HostBlock<T> > &blocks, const HostShape &s) {
  const Compressed<T> c = compress(blocks, s, true);
  return CSRMatrix<T>(s.rows, s.cols, c.nz, c.minor, c.starts, {{s.br, s.bc}});
}

/// `blocks` (row-major order) as a CSC matrix.
template <typename T> CSCMatrix<T> toCSC(std::vector<HostBlock<T> > blocks, const HostShape &s) {
  std::stable_sort(blocks.begin(), blocks.end(),
                   [](const HostBlock<T> &a, const HostBlock<T> &b) { return a.col < b.col; });
  const Compressed<T> c = compress(blocks, s, false);
  return CSCMatrix<T>(s.rows, s.cols, c.nz, c.starts, c.minor, {{s.br, s.bc}});
}

/// Each block's number in the row-major grid of s (refusing blocks off the grid and duplicates), ascending, with
/// the block; `name` starts the errors.
template <typename T>
std::vector<std::pair<std::size_t, const HostBlock<T> *> > numberBlocks(const std::vector<HostBlock<T> > &blocks,
                                                                      const HostShape &s, const std::string &name) {
  std::vector<std::pair<std::size_t, const HostBlock<T> *> > out;
  for (const HostBlock<T> &b : blocks) {
    if (b.row % s.br || b.col % s.bc || b.row >= s.rows || b.col >= s.cols || b.values.size() != s.br * s.bc)
      throw poputil::poplibs_error(name + ": a block at (" + std::to_string(b.row) + ", " + std::to_string(b.col) +
                                   ") is not on the grid of the " + std::to_string(s.rows) + " x " +
                                   std::to_string(s.cols) + " matrix");
    out.emplace_back((b.row / s.br) * (s.cols / s.bc) + b.col / s.bc, &b);
  }
  std::sort(out.begin(), out.end(),
            [](const std::pair<std::size_t, const HostBlock<T> *> &a,
               const std::pair<std::size_t, const HostBlock<T> *> &b) { return a.first < b.first; });
  for (std::size_t i = 1; i < out.size(); ++i)
    if (out[i].first == out[i - 1].first)
      throw poputil::poplibs_error(name + ": two blocks at (" + std::to_string(out[i].second->row) + ", " +
                                   std::to_string(out[i].second->col) + ")");
  return out;
}

} // namespace detail
} // namespace popsparse
