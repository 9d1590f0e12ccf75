// Tensor views: every operation computes the runs of variable elements the new view covers; no data moves.
#include "poplar/Tensor.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <numeric>
#include <sstream>
#include <utility>

#include "graph_impl.hpp"
#include "half.hpp"
#include "poplar/exceptions.hpp"
#include "region_list.hpp"
#include "view_work.hpp"

namespace poplar {

using detail::RegionList;
using detail::RegionSpan;
using detail::VarRegion;
using Regions = std::vector<VarRegion>;

namespace {

/// The value of one element of `type` stored in device bytes at `p` (little-endian, HALF as binary16).
double deviceValueToDouble(const Type &type, const std::uint8_t *p) {
  std::uint32_t u = 0;
  std::memcpy(&u, p, type.getSize());
  if (type == FLOAT) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  if (type == HALF)
    return detail::halfToFloat(std::uint16_t(u));
  if (type == INT)
    return double(std::int32_t(u));
  if (type == SHORT)
    return double(std::int16_t(u));
  if (type == CHAR)
    return double(std::int8_t(u));
  return double(u);
}

std::string shapeStr(const std::vector<std::size_t> &s) {
  std::string out = "{";
  for (std::size_t i = 0; i < s.size(); ++i)
    out += (i ? "," : "") + std::to_string(s[i]);
  return out + "}";
}

/// The element count of `shape`; throws poplar_error when it does not fit in 64 bits (a wrapped count would make
/// a huge tensor look empty, and it would compile).
std::size_t checkedCount(const std::vector<std::size_t> &shape, const std::string &what) {
  std::size_t n = 1;
  bool zero = false, overflow = false;
  for (std::size_t d : shape) {
    if (d == 0)
      zero = true;
    else if (n > ~std::size_t(0) / d)
      overflow = true;
    else
      n *= d;
  }
  if (overflow && !zero)
    throw poplar_error(what + ": shape " + shapeStr(shape) +
                       " has more than 2^64 - 1 elements; use a shape whose element count fits in 64 bits");
  return zero ? 0 : n;
}

std::size_t product(const std::vector<std::size_t> &shape, std::size_t from = 0, std::size_t to = ~std::size_t(0)) {
  std::size_t n = 1;
  for (std::size_t i = from; i < shape.size() && i < to; ++i)
    n *= shape[i];
  return n;
}

/// Flattened index of the first element of each region, then the element count: Gatherer's index.
std::shared_ptr<const std::vector<std::size_t> > regionStarts(RegionSpan regions) {
  auto starts = std::make_shared<std::vector<std::size_t> >(regions.size() + 1, 0);
  for (std::size_t i = 0; i < regions.size(); ++i)
    (*starts)[i + 1] = (*starts)[i] + (regions[i].end - regions[i].begin);
  return starts;
}

/// Gathers runs (flat start, length) of the source view into one region list. Each run starts with a lookup in
/// the view's index, so its cost follows the regions it crosses, not the size of the view.
class Gatherer {
public:
  Gatherer(RegionSpan src, std::shared_ptr<const std::vector<std::size_t> > starts)
      : src_(src), starts_(std::move(starts)) {}
  Gatherer(Gatherer &&o) noexcept : src_(o.src_), starts_(std::move(o.starts_)), steps_(std::exchange(o.steps_, 0)) {}
  Gatherer(const Gatherer &) = delete;
  Gatherer &operator=(const Gatherer &) = delete;
  Gatherer &operator=(Gatherer &&) = delete;
  ~Gatherer() { detail::countViewSteps(steps_); }
  void run(RegionList &out, std::size_t flat, std::size_t len) {
    // A view of at most one region has no index (Tensor's constructor): its only region starts at 0.
    std::size_t i = 0;
    if (starts_)
      i = std::size_t(std::upper_bound(starts_->begin(), starts_->end(), flat) - starts_->begin()) - 1;
    ++steps_;
    while (len > 0) {
      std::size_t off = flat - (starts_ ? (*starts_)[i] : 0);
      std::size_t avail = (src_[i].end - src_[i].begin) - off;
      std::size_t take = std::min(avail, len);
      out.append(src_[i].var, src_[i].begin + off, src_[i].begin + off + take, src_[i].replica);
      len -= take;
      flat += take;
      ++i;
      ++steps_;
    }
  }

private:
  RegionSpan src_;
  std::shared_ptr<const std::vector<std::size_t> > starts_;
  std::uint64_t steps_ = 0;
};

} // namespace

Tensor::Tensor() : graph_(nullptr), single_(false), region_() {} // no regions, so no index (see below)

Tensor::Tensor(detail::GraphImpl *graph, Type type, const std::vector<std::size_t> &shape,
               std::shared_ptr<const Regions> regions)
    : graph_(graph), type_(type), single_(false), shape_(shape), region_() {
  checkedCount(shape_, "cannot create a tensor");
  if (regions && regions->size() == 1) {
    single_ = true;
    region_ = regions->front();
  } else if (regions && !regions->empty()) {
    regions_ = std::move(regions);
    // Only a view of several regions needs the index: a view of one knows its only region starts at 0.
    starts_ = regionStarts(*regions_);
  }
}

Tensor Tensor::sameElements(const Type &type, const std::vector<std::size_t> &shape) const {
  Tensor t = *this;
  t.type_ = type;
  t.shape_ = shape;
  return t;
}

Tensor Tensor::withRegions(std::vector<std::size_t> shape, RegionList &regions) const {
  checkedCount(shape, "cannot create a tensor");
  Tensor t;
  t.graph_ = graph_;
  t.type_ = type_;
  t.shape_ = std::move(shape);
  if (regions.single()) {
    t.single_ = true;
    t.region_ = regions.first();
    return t;
  }
  Regions many = regions.take();
  if (!many.empty()) {
    t.regions_ = std::make_shared<const Regions>(std::move(many));
    t.starts_ = regionStarts(*t.regions_);
  }
  return t;
}

std::size_t Tensor::numElements() const { return product(shape_); }

std::size_t Tensor::dim(unsigned i) const {
  if (i >= shape_.size())
    throw index_error("Tensor::dim(" + std::to_string(i) + "): the tensor has rank " + std::to_string(shape_.size()));
  return shape_[i];
}

Tensor Tensor::operator[](std::size_t i) const {
  if (shape_.empty())
    throw index_error("Tensor::operator[]: a scalar (rank 0) tensor cannot be indexed");
  if (i >= shape_[0])
    throw index_error("Tensor::operator[](" + std::to_string(i) + "): index out of range for dimension 0 of size " +
                      std::to_string(shape_[0]));
  Tensor t = slice(i, i + 1, 0);
  t.shape_.erase(t.shape_.begin());
  return t;
}

Tensor Tensor::slice(const Interval &region, unsigned dim) const { return slice(region.begin(), region.end(), dim); }

Tensor Tensor::slice(std::size_t begin, std::size_t end, unsigned d) const {
  if (!valid())
    throw index_error("Tensor::slice on an invalid tensor");
  if (d >= shape_.size())
    throw index_error("Tensor::slice: dimension " + std::to_string(d) + " does not exist in a tensor of shape " +
                      shapeStr(shape_));
  if (begin > end || end > shape_[d])
    throw index_error("Tensor::slice: [" + std::to_string(begin) + ", " + std::to_string(end) +
                      ") is not inside dimension " + std::to_string(d) + " of size " + std::to_string(shape_[d]));
  std::size_t outer = product(shape_, 0, d), inner = product(shape_, d + 1);
  RegionList out;
  Gatherer g(regions(), starts_);
  for (std::size_t o = 0; o < outer; ++o)
    g.run(out, (o * shape_[d] + begin) * inner, (end - begin) * inner);
  // The shape is copied once, into the view itself (tutorial 7 slices 150,000 views while it builds its graph).
  Tensor t = withRegions(shape_, out);
  t.shape_[d] = end - begin;
  return t;
}

Tensor Tensor::slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const {
  if (begin.size() != shape_.size() || end.size() != shape_.size())
    throw index_error("Tensor::slice: give one begin and one end per dimension (the tensor has shape " +
                      shapeStr(shape_) + ")");
  Tensor t = *this;
  for (unsigned d = 0; d < shape_.size(); ++d)
    t = t.slice(begin[d], end[d], d);
  return t;
}

Tensor Tensor::flatten() const { return reshape({numElements()}); }

Tensor Tensor::flatten(unsigned dimBegin, unsigned dimEnd) const {
  if (dimBegin >= dimEnd || dimEnd > shape_.size())
    throw index_error("Tensor::flatten: dimensions [" + std::to_string(dimBegin) + ", " + std::to_string(dimEnd) +
                      ") are not a non-empty range of a tensor of shape " + shapeStr(shape_));
  std::vector<std::size_t> shape(shape_.begin(), shape_.begin() + dimBegin);
  shape.push_back(product(shape_, dimBegin, dimEnd));
  shape.insert(shape.end(), shape_.begin() + dimEnd, shape_.end());
  return reshape(shape);
}

Tensor Tensor::reshape(ArrayRef<std::size_t> newShape) const {
  std::vector<std::size_t> shape = newShape.cloneAsVector();
  if (checkedCount(shape, "Tensor::reshape") != numElements())
    throw index_error("Tensor::reshape: shape " + shapeStr(shape) + " does not have the " +
                      std::to_string(numElements()) + " elements of shape " + shapeStr(shape_));
  return sameElements(type_, shape);
}

Tensor Tensor::dimShuffle(ArrayRef<unsigned> perm) const {
  std::size_t r = shape_.size();
  std::vector<bool> seen(r, false);
  if (perm.size() != r)
    throw index_error("Tensor::dimShuffle: the permutation has " + std::to_string(perm.size()) +
                      " entries for a tensor of rank " + std::to_string(r));
  for (unsigned p : perm) {
    if (p >= r || seen[p])
      throw index_error("Tensor::dimShuffle: the list is not a permutation of 0.." + std::to_string(r - 1));
    seen[p] = true;
  }
  std::vector<std::size_t> shape(r), strides(r);
  std::size_t s = 1;
  for (std::size_t i = r; i-- > 0;) {
    strides[i] = s;
    s *= shape_[i];
  }
  for (std::size_t i = 0; i < r; ++i)
    shape[i] = shape_[perm[i]];
  RegionList out;
  Gatherer g(regions(), starts_);
  std::size_t n = numElements();
  std::vector<std::size_t> idx(r, 0);
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t flat = 0;
    for (std::size_t i = 0; i < r; ++i)
      flat += idx[i] * strides[perm[i]];
    g.run(out, flat, 1);
    for (std::size_t i = r; i-- > 0;) {
      if (++idx[i] < shape[i])
        break;
      idx[i] = 0;
    }
  }
  return withRegions(std::move(shape), out);
}

Tensor Tensor::transpose() const {
  if (shape_.size() != 2)
    throw index_error("Tensor::transpose: needs a rank-2 tensor, this one has shape " + shapeStr(shape_) +
                      " (use dimShuffle)");
  return dimShuffle({1, 0});
}

Tensor Tensor::reverse(unsigned d) const {
  if (d >= shape_.size())
    throw index_error("Tensor::reverse: no dimension " + std::to_string(d));
  std::size_t outer = product(shape_, 0, d), inner = product(shape_, d + 1);
  RegionList out;
  Gatherer g(regions(), starts_);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t i = shape_[d]; i-- > 0;)
      g.run(out, (o * shape_[d] + i) * inner, inner);
  return withRegions(shape_, out);
}

Tensor Tensor::expand(ArrayRef<std::size_t> indices) const {
  std::vector<std::size_t> shape = shape_;
  std::vector<std::size_t> sorted = indices.cloneAsVector();
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    if (sorted[k] + k > shape.size())
      throw index_error("Tensor::expand: index " + std::to_string(sorted[k]) + " is beyond the rank");
    shape.insert(shape.begin() + sorted[k] + k, 1);
  }
  return sameElements(type_, shape);
}

Tensor Tensor::squeeze(ArrayRef<std::size_t> dims) const {
  std::vector<std::size_t> shape;
  for (std::size_t i = 0; i < shape_.size(); ++i) {
    bool drop = std::find(dims.begin(), dims.end(), i) != dims.end();
    if (drop && shape_[i] != 1)
      throw index_error("Tensor::squeeze: dimension " + std::to_string(i) + " has size " +
                        std::to_string(shape_[i]) + ", not 1");
    if (!drop)
      shape.push_back(shape_[i]);
  }
  return sameElements(type_, shape);
}

Tensor Tensor::index(ArrayRef<std::size_t> indices) const {
  if (indices.size() > shape_.size())
    throw index_error("Tensor::index: " + std::to_string(indices.size()) + " indices for a tensor of shape " +
                      shapeStr(shape_));
  Tensor t = *this;
  for (std::size_t i : indices)
    t = t[i];
  return t;
}

std::vector<Tensor> Tensor::slices(ArrayRef<Interval> intervals, unsigned d) const {
  std::vector<Tensor> out;
  for (const Interval &i : intervals)
    out.push_back(slice(i, d));
  return out;
}

std::vector<Tensor> Tensor::slices(const std::vector<std::vector<Interval> > &intervals, unsigned d) const {
  std::vector<Tensor> out;
  for (const auto &list : intervals) {
    if (list.empty())
      throw index_error("Tensor::slices: an inner list of intervals is empty; give at least one interval per "
                        "result");
    out.push_back(concat(slices(ArrayRef<Interval>(list), d), d));
  }
  return out;
}

std::vector<Tensor> Tensor::slices(ArrayRef<unsigned> indices, unsigned d) const {
  std::vector<Tensor> out;
  for (unsigned i : indices)
    out.push_back(slice(i, std::size_t(i) + 1, d));
  return out;
}

Tensor Tensor::reshapePartial(unsigned beginIndex, unsigned endIndex, ArrayRef<std::size_t> newDims) const {
  if (beginIndex > endIndex || endIndex > shape_.size())
    throw index_error("Tensor::reshapePartial: dimensions [" + std::to_string(beginIndex) + ", " +
                      std::to_string(endIndex) + ") are not a range of a tensor of shape " + shapeStr(shape_));
  std::vector<std::size_t> dims = newDims.cloneAsVector();
  if (checkedCount(dims, "Tensor::reshapePartial") != product(shape_, beginIndex, endIndex))
    throw index_error("Tensor::reshapePartial: dimensions " + shapeStr(dims) + " do not have the elements of " +
                      "dimensions [" + std::to_string(beginIndex) + ", " + std::to_string(endIndex) + ") of " +
                      shapeStr(shape_));
  std::vector<std::size_t> shape(shape_.begin(), shape_.begin() + beginIndex);
  shape.insert(shape.end(), dims.begin(), dims.end());
  shape.insert(shape.end(), shape_.begin() + endIndex, shape_.end());
  return reshape(shape);
}

Tensor Tensor::dimShufflePartial(ArrayRef<unsigned> source, ArrayRef<unsigned> destination) const {
  std::size_t r = shape_.size();
  if (source.size() != destination.size())
    throw index_error("Tensor::dimShufflePartial: " + std::to_string(source.size()) + " source and " +
                      std::to_string(destination.size()) + " destination dimensions; give one destination each");
  std::vector<int> perm(r, -1);
  std::vector<bool> moved(r, false);
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] >= r || destination[i] >= r || moved[source[i]] || perm[destination[i]] != -1)
      throw index_error("Tensor::dimShufflePartial: dimensions must be distinct and below the rank " +
                        std::to_string(r));
    perm[destination[i]] = int(source[i]);
    moved[source[i]] = true;
  }
  std::size_t next = 0;
  std::vector<unsigned> full(r);
  for (std::size_t i = 0; i < r; ++i) {
    if (perm[i] == -1) {
      while (moved[next])
        ++next;
      perm[i] = int(next++);
    }
    full[i] = unsigned(perm[i]);
  }
  return dimShuffle(full);
}

Tensor Tensor::dimRoll(unsigned dimIdx, unsigned newIdx) const { return dimShufflePartial({dimIdx}, {newIdx}); }

Tensor Tensor::subSample(unsigned stride, unsigned d) const {
  if (stride == 0)
    throw index_error("Tensor::subSample: stride 0; use a stride of 1 or more");
  if (d >= shape_.size())
    throw index_error("Tensor::subSample: no dimension " + std::to_string(d) + " in shape " + shapeStr(shape_));
  std::size_t n = shape_[d], outer = product(shape_, 0, d), inner = product(shape_, d + 1);
  RegionList out;
  Gatherer g(regions(), starts_);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t i = 0; i < n; i += stride)
      g.run(out, (o * n + i) * inner, inner);
  std::vector<std::size_t> shape = shape_;
  shape[d] = (n + stride - 1) / stride;
  return withRegions(std::move(shape), out);
}

Tensor Tensor::upsample(unsigned scale, unsigned d, UpsampleMethod method) const {
  if (method != UpsampleMethod::REPEAT)
    throw index_error("Tensor::upsample: unknown method; use UpsampleMethod::REPEAT");
  if (d >= shape_.size())
    throw index_error("Tensor::upsample: no dimension " + std::to_string(d) + " in shape " + shapeStr(shape_));
  std::vector<std::size_t> shape = shape_;
  shape[d] = shape_[d] * scale;
  if (scale && shape[d] / scale != shape_[d])
    throw poplar_error("Tensor::upsample: dimension " + std::to_string(d) + " times " + std::to_string(scale) +
                       " does not fit in 64 bits");
  checkedCount(shape, "Tensor::upsample");
  std::size_t n = shape_[d], outer = product(shape_, 0, d), inner = product(shape_, d + 1);
  RegionList out;
  Gatherer g(regions(), starts_);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t i = 0; i < n; ++i)
      for (unsigned k = 0; k < scale; ++k)
        g.run(out, (o * n + i) * inner, inner);
  return withRegions(std::move(shape), out);
}

Tensor Tensor::broadcast(unsigned N, unsigned d) const {
  if (d >= shape_.size())
    throw index_error("Tensor::broadcast: no dimension " + std::to_string(d) + " in shape " + shapeStr(shape_));
  std::vector<std::size_t> shape = shape_;
  shape[d] = shape_[d] * N;
  if (N && shape[d] / N != shape_[d])
    throw poplar_error("Tensor::broadcast: dimension " + std::to_string(d) + " times " + std::to_string(N) +
                       " does not fit in 64 bits");
  checkedCount(shape, "Tensor::broadcast");
  std::size_t row = product(shape_, d), outer = product(shape_, 0, d);
  RegionList out;
  Gatherer g(regions(), starts_);
  for (std::size_t o = 0; o < outer; ++o)
    for (unsigned k = 0; k < N; ++k)
      g.run(out, o * row, row);
  return withRegions(std::move(shape), out);
}

Tensor Tensor::reinterpret(const Type &type) const {
  if (!type.isValid())
    throw poplar_error("Tensor::reinterpret: invalid element type");
  if (type.getSize() != type_.getSize())
    throw poplar_error("Tensor::reinterpret: " + type_.toString() + " (" + std::to_string(type_.getSize()) +
                       " bytes) cannot be seen as " + type.toString() + " (" + std::to_string(type.getSize()) +
                       " bytes); the new type must have the same size");
  return sameElements(type, shape_);
}

bool Tensor::constantValue(double &value) const {
  if (!graph_ || regions().empty())
    return false;
  bool first = true;
  for (const auto &r : regions()) {
    if (r.var >= graph_->vars.size() || !graph_->vars[r.var].constant)
      return false;
    const detail::Variable &v = graph_->vars[r.var];
    std::size_t size = v.type.getSize();
    for (std::size_t i = r.begin; i < r.end; ++i) {
      if ((i + 1) * size > v.init.size())
        return false;
      double d = deviceValueToDouble(v.type, &v.init[i * size]);
      if (!first && !(d == value))
        return false;
      value = d;
      first = false;
    }
  }
  return true;
}

bool Tensor::getConstantData(void *dst) const {
  if (!graph_)
    return false;
  for (const auto &r : regions()) {
    const detail::Variable *v = r.var < graph_->vars.size() ? &graph_->vars[r.var] : nullptr;
    // A replication-index constant holds another value in each replica: not one value to copy.
    if (!v || !v->constant || v->replicationIndex || r.end * v->type.getSize() > v->init.size())
      return false;
  }
  auto *out = static_cast<std::uint8_t *>(dst);
  for (const auto &r : regions()) {
    const detail::Variable &v = graph_->vars[r.var];
    const std::size_t size = v.type.getSize();
    out = std::copy(v.init.begin() + std::ptrdiff_t(r.begin * size), v.init.begin() + std::ptrdiff_t(r.end * size),
                    out);
  }
  return true;
}

std::string Tensor::shapeToString() const { return shapeStr(shape_); }

std::vector<Interval> Tensor::getContiguousRegions() const {
  std::vector<Interval> out;
  std::size_t pos = 0;
  for (const auto &r : regions()) {
    out.push_back(Interval(pos, pos + (r.end - r.begin)));
    pos += r.end - r.begin;
  }
  return out;
}

std::vector<VariableInterval> Tensor::getVarRegions() const {
  std::vector<VariableInterval> out;
  for (const auto &r : regions())
    out.push_back(VariableInterval(VariableRef(r.var), Interval(r.begin, r.end)));
  return out;
}

std::string Tensor::getDebugStr() const {
  std::vector<unsigned> seen;
  std::string out;
  for (const auto &r : regions()) {
    if (std::find(seen.begin(), seen.end(), r.var) != seen.end())
      continue;
    seen.push_back(r.var);
    out += (out.empty() ? "" : "/");
    out += graph_ && r.var < graph_->vars.size() ? graph_->vars[r.var].name : "var" + std::to_string(r.var);
  }
  return out;
}

std::ostream &Tensor::output(std::ostream &os) const { return os << *this; }

void Tensor::dump() const { output(std::cout) << "\n"; }

void Tensor::dumpRegions() const { outputRegions(std::cout) << "\n"; }

std::string Tensor::getVarStr() const {
  std::ostringstream os;
  outputRegions(os);
  return os.str();
}

std::ostream &Tensor::outputRegions(std::ostream &os) const {
  os << "{";
  bool first = true;
  for (const auto &r : regions()) {
    os << (first ? "" : ", ");
    if (graph_ && r.var < graph_->vars.size())
      os << graph_->vars[r.var].name;
    else
      os << "var" << r.var;
    os << "[" << r.begin << "," << r.end << ")";
    if (r.replica != detail::kLocalReplica)
      os << "@replica" << r.replica;
    first = false;
  }
  return os << "}";
}

bool Tensor::operator==(const Tensor &o) const {
  if (graph_ != o.graph_ || type_ != o.type_ || shape_ != o.shape_)
    return false;
  const RegionSpan a = regions(), b = o.regions();
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].var != b[i].var || a[i].begin != b[i].begin || a[i].end != b[i].end || a[i].replica != b[i].replica)
      return false;
  return true;
}

bool Tensor::isContiguous() const { return regions().size() <= 1; }

bool Tensor::containsAliases() const {
  if (regions().size() < 2)
    return false;
  Regions r = regions().cloneAsVector();
  std::sort(r.begin(), r.end(), [](const VarRegion &a, const VarRegion &b) {
    return a.var < b.var || (a.var == b.var && (a.replica < b.replica || (a.replica == b.replica && a.begin < b.begin)));
  });
  for (std::size_t i = 1; i < r.size(); ++i)
    if (r[i].var == r[i - 1].var && r[i].replica == r[i - 1].replica && r[i].begin < r[i - 1].end)
      return true;
  return false;
}

bool Tensor::containsConstant() const {
  if (!graph_)
    return false;
  for (const auto &r : regions())
    if (r.var < graph_->vars.size() && graph_->vars[r.var].constant)
      return true;
  return false;
}

bool Tensor::isParallelWriteable() const { return !containsAliases() && !containsConstant(); }

bool Tensor::intersectsWith(const Tensor &other) const {
  for (const auto &a : regions())
    for (const auto &b : other.regions())
      if (a.var == b.var && a.replica == b.replica && a.begin < b.end && b.begin < a.end)
        return true;
  return false;
}

Tensor concat(ArrayRef<Tensor> ts, unsigned d) {
  if (ts.empty())
    throw index_error("concat: no tensors given");
  const Tensor &first = ts[0];
  for (const Tensor &t : ts) {
    if (t.graphImpl() != first.graphImpl())
      throw index_error("concat: the tensors belong to different graphs");
    if (t.rank() != first.rank() || d >= t.rank())
      throw index_error("concat: every tensor needs the same rank, above dimension " + std::to_string(d));
    if (t.elementType() != first.elementType())
      throw index_error("concat: element types differ (" + first.elementType().toString() + " and " +
                        t.elementType().toString() + ")");
    for (unsigned i = 0; i < t.rank(); ++i)
      if (i != d && t.dim(i) != first.dim(i))
        throw index_error("concat: dimension " + std::to_string(i) + " differs between the tensors");
  }
  std::vector<std::size_t> shape = first.shape();
  shape[d] = 0;
  for (const Tensor &t : ts)
    shape[d] += t.dim(d);
  std::size_t outer = product(first.shape(), 0, d);
  RegionList out;
  std::vector<Gatherer> gs;
  gs.reserve(ts.size());
  for (const Tensor &t : ts)
    gs.emplace_back(t.regions(), t.starts_);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t k = 0; k < ts.size(); ++k) {
      std::size_t rowLen = product(ts[k].shape(), d);
      gs[k].run(out, o * rowLen, rowLen);
    }
  return first.withRegions(std::move(shape), out);
}

Tensor concat(const Tensor &a, const Tensor &b, unsigned d) { return concat({a, b}, d); }

Tensor append(const Tensor &first, const Tensor &second, unsigned d) {
  if (second.rank() + 1 != first.rank())
    throw index_error("append: the appended tensor needs rank " + std::to_string(first.rank()) + " - 1, it has " +
                      "shape " + shapeStr(second.shape()) + " (use concat for tensors of the same rank)");
  if (d > second.rank())
    throw index_error("append: dimension " + std::to_string(d) + " is beyond the rank " +
                      std::to_string(first.rank()));
  return concat(first, second.expand({d}), d);
}

std::ostream &operator<<(std::ostream &os, const Tensor &t) {
  os << t.elementType() << shapeStr(t.shape()) << " ";
  return t.outputRegions(os);
}

} // namespace poplar

namespace poplar {

bool Tensor::hasMetadata() const {
  if (!graph_ || regions().empty())
    return false;
  for (const auto &r : regions())
    if (r.var >= graph_->vars.size() || !graph_->vars[r.var].metadata)
      return false;
  return true;
}

Tensor Tensor::getMetadata() const {
  if (!hasMetadata())
    throw poplar_error("Tensor::getMetadata: the tensor views a variable created without metadata (only QUARTER "
                       "variables made with Graph::addVariable(type, metadata, shape) have it)");
  const auto &first = *graph_->vars[regions().front().var].metadata;
  for (const auto &r : regions())
    if (graph_->vars[r.var].metadata->getVarRegions() != first.getVarRegions())
      throw poplar_error("Tensor::getMetadata: the tensor views variables with different metadata; slice it so "
                         "that each part has one");
  return first;
}

} // namespace poplar
