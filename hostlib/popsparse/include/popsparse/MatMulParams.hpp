// The shape of a sparse x dense matrix product (Graphcore's popsparse/MatMulParams.hpp). dynamic::MatMulParams: the
// left operand [groups][m][k] is sparse with a pattern set when the program runs, room for a fixed number of
// non-zero values, times a dense [groups][k][n]. static_::MatMulParams: the pattern is given when the graph is
// built, with the sparse operand on the left (sparse x dense) or on the right (dense x sparse).
#ifndef POPSPARSE_MATMUL_PARAMS_HPP
#define POPSPARSE_MATMUL_PARAMS_HPP

#include <cstddef>
#include <ostream>

#include <popsparse/SparsityParams.hpp>

namespace popsparse {
namespace dynamic {

class MatMulParams {
  SparsityParams sparsityParams;
  double nzRatio;
  std::size_t groups;
  std::size_t m;
  std::size_t k;
  std::size_t n;

public:
  /// [groups][m][k] (sparse) x [groups][k][n] = [groups][m][n], room for ceil(nzRatio x the blocks of all groups)
  /// non-zero blocks; nzRatio in [0, 1]; m and k must be multiples of the block's rows and columns.
  static MatMulParams createWithNzRatio(const SparsityParams &sparsityParams, double nzRatio, std::size_t groups,
                                        std::size_t m, std::size_t k, std::size_t n);
  /// As above with room for numNonZeroElems values (a whole number of blocks) over all groups.
  static MatMulParams createWithNumNonZeroValues(const SparsityParams &sparsityParams, std::size_t numNonZeroElems,
                                                 std::size_t groups, std::size_t m, std::size_t k, std::size_t n);
  const SparsityParams &getSparsityParams() const { return sparsityParams; }
  std::size_t getNumGroups() const { return groups; }
  std::size_t getM() const { return m; }
  std::size_t getK() const { return k; }
  std::size_t getN() const { return n; }
  double getNzRatio() const;
  std::size_t getNumNonZeroValues() const;

  friend bool operator<(const MatMulParams &a, const MatMulParams &b);
  friend bool operator==(const MatMulParams &a, const MatMulParams &b);
  friend bool operator!=(const MatMulParams &a, const MatMulParams &b);
};

std::ostream &operator<<(std::ostream &os, const MatMulParams &p);

} // namespace dynamic

namespace static_ {

class MatMulParams {
  std::size_t groups;
  std::size_t m;
  std::size_t k;
  std::size_t n;
  bool transposed;

public:
  /// Sparse x dense: [groups][m][k] (sparse) x [groups][k][n] = [groups][m][n].
  static MatMulParams createForSparseDense(std::size_t groups, std::size_t m, std::size_t k, std::size_t n);
  /// Dense x sparse: [groups][n][k] x [groups][k][m] (sparse) = [groups][n][m]; isTransposed() is true.
  static MatMulParams createForDenseSparse(std::size_t groups, std::size_t n, std::size_t k, std::size_t m);

  std::size_t getNumGroups() const { return groups; }
  std::size_t getM() const { return m; }
  std::size_t getK() const { return k; }
  std::size_t getN() const { return n; }
  bool isTransposed() const { return transposed; }

  friend bool operator<(const MatMulParams &a, const MatMulParams &b);
  friend bool operator==(const MatMulParams &a, const MatMulParams &b);
  friend bool operator!=(const MatMulParams &a, const MatMulParams &b);
};

std::ostream &operator<<(std::ostream &os, const MatMulParams &p);

} // namespace static_
} // namespace popsparse

#endif
