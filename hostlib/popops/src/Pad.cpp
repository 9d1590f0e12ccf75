// popops::pad (popops/Pad.hpp): one dimension at a time, negative padding first slices that end off, then the
// padding is concatenated: a new constant (mapped by the MappingMethod), broadcast views of a one-element tensor,
// or views of the tensor's edge (EDGE) or of the elements next to it, reversed (REFLECT).
#include "popops/Pad.hpp"

#include <functional>
#include <string>

#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

// Makes the padding of `shape` (the tensor's shape with `dim` of the padding's size); `low` says which end.
using PadMaker = std::function<Tensor(const Tensor &t, const std::vector<std::size_t> &shape, unsigned dim, bool low)>;

void checkTensor(const Tensor &t) {
  if (!t.valid())
    throw poplibs_error("popops::pad: the tensor is invalid (default-constructed)");
}

Tensor padDim(const Tensor &t0, std::ptrdiff_t lo, std::ptrdiff_t hi, unsigned dim, const PadMaker &make) {
  checkTensor(t0);
  if (dim >= t0.rank())
    throw poplibs_error("popops::pad: dimension " + std::to_string(dim) + " is out of range for a tensor of rank " +
                        std::to_string(t0.rank()) + "; pad a dimension below the rank");
  Tensor t = t0;
  const std::ptrdiff_t n = std::ptrdiff_t(t.dim(dim));
  const std::ptrdiff_t cut = (lo < 0 ? -lo : 0) + (hi < 0 ? -hi : 0);
  if (cut > n)
    throw poplibs_error("popops::pad: negative padding removes " + std::to_string(cut) + " elements from dimension " +
                        std::to_string(dim) + " of size " + std::to_string(n) + "; remove at most the dimension");
  if (lo < 0 || hi < 0)
    t = t.slice(std::size_t(lo < 0 ? -lo : 0), std::size_t(n - (hi < 0 ? -hi : 0)), dim);
  std::vector<Tensor> parts;
  std::vector<std::size_t> shape = t.shape();
  if (lo > 0) {
    shape[dim] = std::size_t(lo);
    parts.push_back(make(t, shape, dim, true));
  }
  parts.push_back(t);
  if (hi > 0) {
    shape[dim] = std::size_t(hi);
    parts.push_back(make(t, shape, dim, false));
  }
  return parts.size() == 1 ? t : poplar::concat(parts, dim);
}

Tensor padAll(const Tensor &t, const std::vector<std::ptrdiff_t> &lo, const std::vector<std::ptrdiff_t> &hi,
              const PadMaker &make) {
  checkTensor(t);
  if (lo.size() != t.rank() || hi.size() != t.rank())
    throw poplibs_error("popops::pad: " + std::to_string(lo.size()) + " lower and " + std::to_string(hi.size()) +
                        " upper paddings for a tensor of rank " + std::to_string(t.rank()) +
                        "; give one of each per dimension");
  Tensor r = t;
  for (unsigned d = 0; d < t.rank(); ++d)
    r = padDim(r, lo[d], hi[d], d, make);
  return r;
}

// A new constant padding of t's type holding `value`, mapped by `method`.
template <typename V> PadMaker constantMaker(poplar::Graph &graph, V value, padding::MappingMethod method) {
  return [&graph, value, method](const Tensor &t, const std::vector<std::size_t> &shape, unsigned dim, bool low) {
    Tensor c = graph.addConstant(t.elementType(), shape, value, "popops::pad/value");
    if (method == padding::MappingMethod::ZERO) {
      graph.setTileMapping(c, 0);
    } else if (method == padding::MappingMethod::EDGE) {
      if (t.dim(dim) == 0)
        throw poplibs_error("popops::pad: MappingMethod::EDGE needs elements on the edge of dimension " +
                            std::to_string(dim) + ", which is empty; use MappingMethod::ZERO");
      std::size_t at = low ? 0 : t.dim(dim) - 1;
      auto m = graph.getTileMapping(t.slice(at, at + 1, dim));
      for (std::size_t i = 0; i < shape[dim]; ++i)
        graph.setTileMapping(c.slice(i, i + 1, dim), m);
    }
    return c;
  };
}

PadMaker tensorMaker(const Tensor &val) {
  return [val](const Tensor &t, const std::vector<std::size_t> &shape, unsigned, bool) {
    if (!val.valid() || val.numElements() != 1 || val.elementType() != t.elementType())
      throw poplibs_error("popops::pad: the padding value must be a one-element " + t.elementType().toString() +
                          " tensor (the padded tensor's type)");
    Tensor v = val.flatten().reshape(std::vector<std::size_t>(shape.size(), 1));
    for (unsigned d = 0; d < shape.size(); ++d)
      if (shape[d] != 1)
        v = v.broadcast(unsigned(shape[d]), d);
    return v;
  };
}

PadMaker typeMaker(padding::Type type) {
  return [type](const Tensor &t, const std::vector<std::size_t> &shape, unsigned dim, bool low) {
    const std::size_t n = t.dim(dim), p = shape[dim];
    if (type == padding::Type::EDGE) {
      if (n == 0)
        throw poplibs_error("popops::pad: EDGE padding of dimension " + std::to_string(dim) +
                            ", which is empty; pad it with a constant");
      std::size_t at = low ? 0 : n - 1;
      return t.slice(at, at + 1, dim).broadcast(unsigned(p), dim);
    }
    if (p >= n)
      throw poplibs_error("popops::pad: REFLECT padding of " + std::to_string(p) + " in dimension " +
                          std::to_string(dim) + " of size " + std::to_string(n) +
                          "; reflection needs padding smaller than the dimension");
    return low ? t.slice(1, p + 1, dim).reverse(dim) : t.slice(n - 1 - p, n - 1, dim).reverse(dim);
  };
}

} // namespace

Tensor pad(poplar::Graph &graph, const Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
           const std::vector<std::ptrdiff_t> &paddingUpper, float val, padding::MappingMethod mappingMethod) {
  return padAll(t, paddingLower, paddingUpper, constantMaker(graph, val, mappingMethod));
}

Tensor pad(poplar::Graph &graph, const Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
           const std::vector<std::ptrdiff_t> &paddingUpper, int val, padding::MappingMethod mappingMethod) {
  return padAll(t, paddingLower, paddingUpper, constantMaker(graph, val, mappingMethod));
}

Tensor pad(poplar::Graph &, const Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
           const std::vector<std::ptrdiff_t> &paddingUpper, const Tensor &val, padding::MappingMethod) {
  return padAll(t, paddingLower, paddingUpper, tensorMaker(val));
}

Tensor pad(poplar::Graph &graph, const Tensor &t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper,
           unsigned dim, float val, padding::MappingMethod mappingMethod) {
  return padDim(t, paddingLower, paddingUpper, dim, constantMaker(graph, val, mappingMethod));
}

Tensor pad(poplar::Graph &graph, const Tensor &t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper,
           unsigned dim, int val, padding::MappingMethod mappingMethod) {
  return padDim(t, paddingLower, paddingUpper, dim, constantMaker(graph, val, mappingMethod));
}

Tensor pad(poplar::Graph &, const Tensor &t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper, unsigned dim,
           const Tensor &val, padding::MappingMethod) {
  return padDim(t, paddingLower, paddingUpper, dim, tensorMaker(val));
}

Tensor pad(const Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
           const std::vector<std::ptrdiff_t> &paddingUpper, padding::Type type) {
  return padAll(t, paddingLower, paddingUpper, typeMaker(type));
}

Tensor pad(const Tensor &t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper, unsigned dim,
           padding::Type type) {
  return padDim(t, paddingLower, paddingUpper, dim, typeMaker(type));
}

} // namespace popops
