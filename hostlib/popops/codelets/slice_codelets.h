// popops' slicing tile code (included at the end of popops_codelets.cpp): the vertices of dynamicSlice,
// dynamicUpdate, multiSlice and the multiUpdate family (src/DynamicSlice.cpp builds them).
//
// Every vertex works on one sliced dimension seen as rows: the host connects, for each column region the vertex
// owns, all `numBaseElements` rows of the base and the rows of the slice(s): one list item per row, or with
// `packed` one item per region when the host found each region contiguous (see Rows below).
// The offsets are tensors read here at run time, so one compiled program slices wherever the host asks.
// Copies only move elements, so the copying vertices exist per element size (32, 16 and 8 bits) and the host
// reinterprets FLOAT/INT/UNSIGNED_INT, HALF/SHORT and BOOL/CHAR tensors to the unsigned type of that size.
// Out-of-range offsets follow PopLibs: dynamicSlice/dynamicUpdate start at row 0 (and a slice running past the
// end wraps to row 0); multiSlice gives zeros and the multiUpdates ignore such rows, or with `remap` both use row 0.

namespace popops {
namespace {

// The rows of a vertex's column regions. Unpacked: item r * n + i of the list is row i of region r. Packed: item
// r is region r whole, its n rows of equal width one after the other (the host connects that form when each
// region is contiguous in memory: one list item per region instead of one per row).
template <bool Packed, typename List> struct Rows {
  const List &list;
  unsigned n;
  unsigned regions() const { return n == 0 ? 0 : Packed ? list.size() : list.size() / n; }
  unsigned width(unsigned r) const { return Packed ? list[r].size() / n : list[r * n].size(); }
  /// Row i of region r, whose width is w (width(r), computed once per region: it divides).
  auto row(unsigned r, unsigned i, unsigned w) const -> decltype(list[0].data()) {
    return Packed ? list[r].data() + i * w : list[r * n + i].data();
  }
};

template <typename Dst, typename Src> inline void copyRow(Dst *dst, const Src *src, unsigned w) {
  for (unsigned i = 0; i < w; ++i)
    dst[i] = src[i];
}

// A worker's share of a vertex's column regions (dynamicSlice, dynamicUpdate and the multiUpdates are
// MultiVertices, as PopLibs splits a tile's columns over its six workers): the regions' columns counted in 8-byte
// data-path vectors (a region's last vector may be short), concatenated and cut into numWorkers equal shares of
// whole vectors, so one big region is split six ways and many small ones are dealt out whole. Calls f(r, c0, c1)
// for each piece [c0, c1) of region r that worker `wid` owns. popops' estimators (src/perf_estimators.cpp) charge
// the same split.
template <typename T, typename R, typename F> void forWorkerColumns(const R &rows, unsigned wid, unsigned workers, F f) {
  const unsigned per = sizeof(T) < 8 ? 8 / sizeof(T) : 1;
  unsigned total = 0;
  for (unsigned r = 0; r < rows.regions(); ++r)
    total += (rows.width(r) + per - 1) / per;
  const unsigned share = (total + workers - 1) / workers;
  const unsigned lo = wid * share < total ? wid * share : total;
  const unsigned hi = total - lo < share ? total : lo + share;
  unsigned at = 0;
  for (unsigned r = 0; r < rows.regions() && at < hi; ++r) {
    const unsigned w = rows.width(r), vectors = (w + per - 1) / per;
    const unsigned a = lo > at ? lo : at, b = hi < at + vectors ? hi : at + vectors;
    if (a < b)
      f(r, (a - at) * per, (b - at) * per < w ? (b - at) * per : w);
    at += vectors;
  }
}

// The direction of a dynamic step's copy: slice (sub = base) or update (base = sub); a type, so that each
// vertex compiles only the direction its const-ness allows.
template <bool Update> struct RowCopy {
  template <typename B, typename S> static void copy(B *base, S *sub, unsigned n) { copyRow(sub, base, n); }
};
template <> struct RowCopy<true> {
  template <typename B, typename S> static void copy(B *base, S *sub, unsigned n) { copyRow(base, sub, n); }
};

// Worker `wid`'s columns of: sub row j = base row (off + j) of each region, starting at row 0 when off is out of
// range and wrapping. Update (the reverse): base row (off + j) = sub row j.
template <bool Packed, bool Update, typename T, typename Base, typename Sub>
void dynamicRows(unsigned off, const Base &baseList, const Sub &subList, unsigned nBase, unsigned nSub, unsigned wid,
                 unsigned workers) {
  const Rows<Packed, Base> base = {baseList, nBase};
  const Rows<Packed, Sub> sub = {subList, nSub};
  forWorkerColumns<T>(sub, wid, workers, [&](unsigned r, unsigned c0, unsigned c1) {
    const unsigned w = sub.width(r);
    unsigned row = off < nBase ? off : 0;
    for (unsigned j = 0; j < nSub; ++j) {
      RowCopy<Update>::copy(base.row(r, row, w) + c0, sub.row(r, j, w) + c0, c1 - c0);
      if (++row >= nBase)
        row = 0;
    }
  });
}

// sub row k * size + j = base row offsets[k] + j of each region, zeros past the end of the base.
template <typename T, bool Packed, typename Offsets, typename Base, typename Sub>
void multiSliceRows(const Offsets &offsets, const Base &baseList, const Sub &subList, unsigned nBase, unsigned size,
                    bool remap) {
  const unsigned nIdx = offsets.size();
  const Rows<Packed, Base> base = {baseList, nBase};
  const Rows<Packed, Sub> sub = {subList, nIdx * size};
  for (unsigned r = 0; r < sub.regions(); ++r) {
    const unsigned w = sub.width(r);
    for (unsigned k = 0; k < nIdx; ++k) {
      unsigned first = offsets[k];
      if (remap && first >= nBase)
        first = 0;
      for (unsigned j = 0; j < size; ++j) {
        T *dst = sub.row(r, k * size + j, w);
        if (first < nBase && first + j < nBase)
          copyRow(dst, base.row(r, first + j, w), w);
        else
          for (unsigned i = 0; i < w; ++i)
            dst[i] = T(0);
      }
    }
  }
}

// The multiUpdates: base row offsets[k] + j gets op(base, scale, sub row k * size + j); rows out of range are left
// alone. Op: 0 = assign, 1 = add scale * sub, 2 = max, 3 = multiply. MultiVertices, as PopLibs' MultiUpdateOp:
// worker `wid` updates its share of the columns (forWorkerColumns), every offset in order, so later offsets still
// win in each column.
template <typename T, unsigned Op, bool Packed, typename Offsets, typename Base, typename Sub>
void multiUpdateRows(const Offsets &offsets, const Base &baseList, const Sub &subList, unsigned nBase, unsigned size,
                     T scale, bool remap, unsigned wid, unsigned workers) {
  const unsigned nIdx = offsets.size();
  const Rows<Packed, Base> base = {baseList, nBase};
  const Rows<Packed, Sub> sub = {subList, nIdx * size};
  forWorkerColumns<T>(sub, wid, workers, [&](unsigned r, unsigned c0, unsigned c1) {
    const unsigned w = sub.width(r);
    for (unsigned k = 0; k < nIdx; ++k) {
      const unsigned first = remap && offsets[k] >= nBase ? 0 : offsets[k];
      for (unsigned j = 0; j < size; ++j) {
        if (first >= nBase || first + j >= nBase)
          continue;
        T *dst = base.row(r, first + j, w);
        const T *src = sub.row(r, k * size + j, w);
        for (unsigned i = c0; i < c1; ++i) {
          if (Op == 0)
            dst[i] = src[i];
          else if (Op == 1)
            dst[i] = T(dst[i] + scale * T(src[i]));
          else if (Op == 2)
            dst[i] = src[i] > dst[i] ? T(src[i]) : T(dst[i]);
          else
            dst[i] = T(dst[i] * src[i]);
        }
      }
    }
  });
}

// The compute() of every multiUpdate vertex: its fields to multiUpdateRows in the packed or the unpacked form.
template <typename T, unsigned Op, typename V> bool multiUpdateVertex(V &v, T scale, unsigned wid) {
  if (v.packed)
    multiUpdateRows<T, Op, true>(v.offsets, v.baseT, v.subT, v.numBaseElements, v.sliceSize, scale, v.remap != 0,
                                 wid, v.numWorkers());
  else
    multiUpdateRows<T, Op, false>(v.offsets, v.baseT, v.subT, v.numBaseElements, v.sliceSize, scale,
                                  v.remap != 0, wid, v.numWorkers());
  return true;
}

} // namespace

// The vertex classes are class templates over the element type, their instances listed at the end: the copying
// vertices over the unsigned type of each element size (unsigned long long, unsigned, unsigned short, unsigned
// char: the host reinterprets the tensors), the arithmetic multiUpdates over the element type T and, for the add,
// the scale's type S. HALF arithmetic goes through float (half converts both ways). popc records them as
// popops::DynamicSlice<short unsigned int>, popops::MultiUpdateAdd<half, float>, ... (the tile compiler's spelling,
// which the host reproduces with poputil::detail::templateVertex).

/// sub = base rows offset .. offset + numSubElements - 1 (wrapping), for each column region; a MultiVertex whose
/// workers share the columns (forWorkerColumns).
template <typename T> class DynamicSlice : public MultiVertex {
public:
  Input<unsigned> offset;
  Input<VectorList<T> > baseT;
  Output<VectorList<T> > subT;
  unsigned numBaseElements;
  unsigned packed;
  unsigned numSubElements;
  bool compute(unsigned workerId) {
    if (packed)
      dynamicRows<true, false, T>(*offset, baseT, subT, numBaseElements, numSubElements, workerId, numWorkers());
    else
      dynamicRows<false, false, T>(*offset, baseT, subT, numBaseElements, numSubElements, workerId, numWorkers());
    return true;
  }
};

/// base rows offset .. offset + numSubElements - 1 (wrapping) = sub, for each column region; a MultiVertex whose
/// workers share the columns (forWorkerColumns).
template <typename T> class DynamicUpdate : public MultiVertex {
public:
  Input<unsigned> offset;
  InOut<VectorList<T> > baseT;
  Input<VectorList<T> > subT;
  unsigned numBaseElements;
  unsigned packed;
  unsigned numSubElements;
  bool compute(unsigned workerId) {
    if (packed)
      dynamicRows<true, true, T>(*offset, baseT, subT, numBaseElements, numSubElements, workerId, numWorkers());
    else
      dynamicRows<false, true, T>(*offset, baseT, subT, numBaseElements, numSubElements, workerId, numWorkers());
    return true;
  }
};

/// One slice of `sliceSize` rows per offset, for each column region.
template <typename T> class MultiSlice : public Vertex {
public:
  Input<Vector<unsigned> > offsets;
  Input<VectorList<T> > baseT;
  Output<VectorList<T> > subT;
  unsigned numBaseElements;
  unsigned packed;
  unsigned sliceSize;
  unsigned remap;
  bool compute() {
    if (packed)
      multiSliceRows<T, true>(offsets, baseT, subT, numBaseElements, sliceSize, remap != 0);
    else
      multiSliceRows<T, false>(offsets, baseT, subT, numBaseElements, sliceSize, remap != 0);
    return true;
  }
};

/// Writes one slice per offset into the base, for each column region; later offsets win.
template <typename T> class MultiUpdate : public MultiVertex {
public:
  Input<Vector<unsigned> > offsets;
  InOut<VectorList<T> > baseT;
  Input<VectorList<T> > subT;
  unsigned numBaseElements;
  unsigned packed;
  unsigned sliceSize;
  unsigned remap; ///< an offset past the base's rows updates row 0 (remapOutOfBoundIndices)
  bool compute(unsigned workerId) { return multiUpdateVertex<T, 0>(*this, static_cast<T>(0), workerId); }
};

/// base rows at the offsets += scale * slices, for each column region.
template <typename T, typename S> class MultiUpdateAdd : public MultiVertex {
public:
  Input<Vector<unsigned> > offsets;
  InOut<VectorList<T> > baseT;
  Input<VectorList<T> > subT;
  Input<S> scale;
  unsigned numBaseElements;
  unsigned packed;
  unsigned sliceSize;
  unsigned remap; ///< an offset past the base's rows updates row 0 (remapOutOfBoundIndices)
  bool compute(unsigned workerId) { return multiUpdateVertex<T, 1>(*this, static_cast<T>(*scale), workerId); }
};

/// base rows at the offsets = max(base, slices), for each column region.
template <typename T> class MultiUpdateMax : public MultiVertex {
public:
  Input<Vector<unsigned> > offsets;
  InOut<VectorList<T> > baseT;
  Input<VectorList<T> > subT;
  unsigned numBaseElements;
  unsigned packed;
  unsigned sliceSize;
  unsigned remap; ///< an offset past the base's rows updates row 0 (remapOutOfBoundIndices)
  bool compute(unsigned workerId) { return multiUpdateVertex<T, 2>(*this, static_cast<T>(0), workerId); }
};

/// base rows at the offsets *= slices, for each column region.
template <typename T> class MultiUpdateMul : public MultiVertex {
public:
  Input<Vector<unsigned> > offsets;
  InOut<VectorList<T> > baseT;
  Input<VectorList<T> > subT;
  unsigned numBaseElements;
  unsigned packed;
  unsigned sliceSize;
  unsigned remap; ///< an offset past the base's rows updates row 0 (remapOutOfBoundIndices)
  bool compute(unsigned workerId) { return multiUpdateVertex<T, 3>(*this, static_cast<T>(0), workerId); }
};

template struct VertexInstances<DynamicSlice<unsigned>, DynamicSlice<unsigned short>, DynamicSlice<unsigned char>,
                                DynamicUpdate<unsigned>, DynamicUpdate<unsigned short>, DynamicUpdate<unsigned char>,
                                MultiSlice<unsigned>, MultiSlice<unsigned short>, MultiSlice<unsigned char>,
                                MultiUpdate<unsigned>, MultiUpdate<unsigned short>, MultiUpdate<unsigned char>>;
// 8-byte elements (LONGLONG, UNSIGNED_LONGLONG) are copied whole by their own instances.
template struct VertexInstances<DynamicSlice<unsigned long long>, DynamicUpdate<unsigned long long>,
                                MultiSlice<unsigned long long>, MultiUpdate<unsigned long long>>;
template struct VertexInstances<MultiUpdateAdd<float, float>, MultiUpdateAdd<int, int>,
                                MultiUpdateAdd<unsigned, unsigned>, MultiUpdateAdd<half, half>,
                                MultiUpdateAdd<half, float>, MultiUpdateMax<float>, MultiUpdateMax<int>,
                                MultiUpdateMax<unsigned>, MultiUpdateMax<half>, MultiUpdateMul<float>,
                                MultiUpdateMul<int>, MultiUpdateMul<unsigned>, MultiUpdateMul<half>>;

} // namespace popops
