// dynamic:: and static_::MatMulParams: plain values with checks, ordering and printing. The dynamic one counts its
// room for non-zero values as FullyConnectedParams does (params_check.hpp): the sparse [m, k] per group plays the
// weights [outputChannels, inputChannels].
#include "popsparse/MatMulParams.hpp"

#include <string>
#include <tuple>

#include "params_check.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace dynamic {

namespace {
const char *const kWho = "popsparse::dynamic::MatMulParams";
} // namespace

MatMulParams MatMulParams::createWithNzRatio(const SparsityParams &sparsityParams, double nzRatio, std::size_t groups,
                                             std::size_t m, std::size_t k, std::size_t n) {
  detail::checkedGridBlocks(kWho, sparsityParams, n, groups, m, k);
  detail::checkNzRatio(kWho, nzRatio);
  MatMulParams p;
  p.sparsityParams = sparsityParams;
  p.nzRatio = nzRatio;
  p.groups = groups;
  p.m = m;
  p.k = k;
  p.n = n;
  return p;
}

MatMulParams MatMulParams::createWithNumNonZeroValues(const SparsityParams &sparsityParams,
                                                      std::size_t numNonZeroElems, std::size_t groups, std::size_t m,
                                                      std::size_t k, std::size_t n) {
  const std::size_t blocks = detail::checkedGridBlocks(kWho, sparsityParams, n, groups, m, k);
  return createWithNzRatio(sparsityParams, detail::nzRatioFromCount(kWho, sparsityParams, numNonZeroElems, blocks),
                           groups, m, k, n);
}

double MatMulParams::getNzRatio() const { return nzRatio; }

std::size_t MatMulParams::getNumNonZeroValues() const {
  const std::size_t br = sparsityParams.blockDimensions[0], bc = sparsityParams.blockDimensions[1];
  return detail::nzValuesFromRatio(sparsityParams, nzRatio, groups * (m / br) * (k / bc));
}

namespace {
auto key(const MatMulParams &p) {
  return std::make_tuple(p.getSparsityParams(), p.getNzRatio(), p.getNumGroups(), p.getM(), p.getK(), p.getN());
}
} // namespace

bool operator<(const MatMulParams &a, const MatMulParams &b) { return key(a) < key(b); }
bool operator==(const MatMulParams &a, const MatMulParams &b) { return key(a) == key(b); }
bool operator!=(const MatMulParams &a, const MatMulParams &b) { return !(a == b); }

std::ostream &operator<<(std::ostream &os, const MatMulParams &p) {
  return os << "{sparsity: " << p.getSparsityParams() << ", nzRatio: " << p.getNzRatio()
            << ", groups: " << p.getNumGroups() << ", m: " << p.getM() << ", k: " << p.getK() << ", n: " << p.getN()
            << "}";
}

} // namespace dynamic

namespace static_ {

namespace {

void checkSizes(const char *factory, std::size_t groups, std::size_t m, std::size_t k, std::size_t n) {
  if (groups == 0 || m == 0 || k == 0 || n == 0)
    throw poputil::poplibs_error(std::string("popsparse::static_::MatMulParams::") + factory +
                                 ": groups, m, k and n must be non-zero");
}

} // namespace

MatMulParams MatMulParams::createForSparseDense(std::size_t groups, std::size_t m, std::size_t k, std::size_t n) {
  checkSizes("createForSparseDense", groups, m, k, n);
  MatMulParams p;
  p.groups = groups;
  p.m = m;
  p.k = k;
  p.n = n;
  p.transposed = false;
  return p;
}

MatMulParams MatMulParams::createForDenseSparse(std::size_t groups, std::size_t n, std::size_t k, std::size_t m) {
  checkSizes("createForDenseSparse", groups, m, k, n);
  MatMulParams p = createForSparseDense(groups, m, k, n);
  p.transposed = true;
  return p;
}

namespace {
auto key(const MatMulParams &p) {
  return std::make_tuple(p.getNumGroups(), p.getM(), p.getK(), p.getN(), p.isTransposed());
}
} // namespace

bool operator<(const MatMulParams &a, const MatMulParams &b) { return key(a) < key(b); }
bool operator==(const MatMulParams &a, const MatMulParams &b) { return key(a) == key(b); }
bool operator!=(const MatMulParams &a, const MatMulParams &b) { return !(a == b); }

std::ostream &operator<<(std::ostream &os, const MatMulParams &p) {
  return os << "{" << (p.isTransposed() ? "dense x sparse" : "sparse x dense") << ", groups: " << p.getNumGroups()
            << ", m: " << p.getM() << ", k: " << p.getK() << ", n: " << p.getN() << "}";
}

} // namespace static_
} // namespace popsparse
