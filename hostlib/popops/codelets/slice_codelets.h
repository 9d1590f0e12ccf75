// popops' slicing tile code (included at the end of popops_codelets.cpp): the vertices of dynamicSlice,
// dynamicUpdate, multiSlice and the multiUpdate family (src/DynamicSlice.cpp builds them).
//
// Every vertex works on one sliced dimension seen as rows: the host connects, for each column region the vertex
// owns, all `numBaseElements` rows of the base (base[r * numBaseElements + row]) and the rows of the slice(s).
// The offsets are tensors read here at run time, so one compiled program slices wherever the host asks.
// Copies only move elements, so the copying vertices exist per element size (32, 16 and 8 bits) and the host
// reinterprets FLOAT/INT/UNSIGNED_INT, HALF/SHORT and BOOL/CHAR tensors to the unsigned type of that size.
// Out-of-range offsets follow PopLibs: dynamicSlice/dynamicUpdate start at row 0 (and a slice running past the
// end wraps to row 0); multiSlice gives zeros (or row 0 with `remap`); the multiUpdates ignore such rows.

namespace popops {
namespace {

template <typename Dst, typename Src> inline void copyRun(const Dst &dst, const Src &src) {
  for (unsigned i = 0; i < dst.size(); ++i)
    dst[i] = src[i];
}

// sub[r * nSub + j] = base[r * nBase + row(j)] with row(0) = off (or 0 when off is out of range), wrapping.
template <typename Base, typename Sub> void dynamicSliceRows(unsigned off, const Base &base, const Sub &sub,
                                                             unsigned nBase, unsigned nSub) {
  const unsigned regions = nSub == 0 ? 0 : sub.size() / nSub;
  for (unsigned r = 0; r < regions; ++r) {
    unsigned row = off < nBase ? off : 0;
    for (unsigned j = 0; j < nSub; ++j) {
      copyRun(sub[r * nSub + j], base[r * nBase + row]);
      if (++row >= nBase)
        row = 0;
    }
  }
}

// The reverse: base[r * nBase + row(j)] = sub[r * nSub + j].
template <typename Base, typename Sub> void dynamicUpdateRows(unsigned off, const Base &base, const Sub &sub,
                                                              unsigned nBase, unsigned nSub) {
  const unsigned regions = nSub == 0 ? 0 : sub.size() / nSub;
  for (unsigned r = 0; r < regions; ++r) {
    unsigned row = off < nBase ? off : 0;
    for (unsigned j = 0; j < nSub; ++j) {
      copyRun(base[r * nBase + row], sub[r * nSub + j]);
      if (++row >= nBase)
        row = 0;
    }
  }
}

// sub[(r * nIdx + k) * size + j] = base[r * nBase + offsets[k] + j], zeros past the end of the base.
template <typename T, typename Offsets, typename Base, typename Sub>
void multiSliceRows(const Offsets &offsets, const Base &base, const Sub &sub, unsigned nBase, unsigned size,
                    bool remap) {
  const unsigned nIdx = offsets.size();
  const unsigned regions = nIdx * size == 0 ? 0 : sub.size() / (nIdx * size);
  for (unsigned r = 0; r < regions; ++r)
    for (unsigned k = 0; k < nIdx; ++k) {
      unsigned first = offsets[k];
      if (remap && first >= nBase)
        first = 0;
      for (unsigned j = 0; j < size; ++j) {
        const auto &dst = sub[(r * nIdx + k) * size + j];
        if (first < nBase && first + j < nBase)
          copyRun(dst, base[r * nBase + first + j]);
        else
          for (unsigned i = 0; i < dst.size(); ++i)
            dst[i] = T(0);
      }
    }
}

// The multiUpdates: base row offsets[k] + j gets op(base, scale, sub[(r * nIdx + k) * size + j]); rows out of
// range are left alone. Op: 0 = assign, 1 = add scale * sub, 2 = max.
template <typename T, unsigned Op, typename Offsets, typename Base, typename Sub>
void multiUpdateRows(const Offsets &offsets, const Base &base, const Sub &sub, unsigned nBase, unsigned size,
                     T scale) {
  const unsigned nIdx = offsets.size();
  const unsigned regions = nIdx * size == 0 ? 0 : sub.size() / (nIdx * size);
  for (unsigned r = 0; r < regions; ++r)
    for (unsigned k = 0; k < nIdx; ++k) {
      const unsigned first = offsets[k];
      for (unsigned j = 0; j < size; ++j) {
        if (first >= nBase || first + j >= nBase)
          continue;
        const auto &dst = base[r * nBase + first + j];
        const auto &src = sub[(r * nIdx + k) * size + j];
        for (unsigned i = 0; i < dst.size(); ++i) {
          if (Op == 0)
            dst[i] = src[i];
          else if (Op == 1)
            dst[i] = T(dst[i] + scale * T(src[i]));
          else
            dst[i] = src[i] > dst[i] ? T(src[i]) : T(dst[i]);
        }
      }
    }
}

} // namespace

// The copying vertices of one element size: DynamicSlice<bits>, DynamicUpdate<bits>, MultiSlice<bits>,
// MultiUpdate<bits>.
#define POPOPS_SLICE_COPY_VERTICES(T, BITS)                                                                            \
  /** sub = base rows offset .. offset + numSubElements - 1 (wrapping), for each column region. */                     \
  class DynamicSlice##BITS : public Vertex {                                                                           \
  public:                                                                                                              \
    Input<unsigned> offset;                                                                                            \
    Input<VectorList<T> > baseT;                                                                                       \
    Output<VectorList<T> > subT;                                                                                       \
    unsigned numBaseElements;                                                                                          \
    unsigned numSubElements;                                                                                           \
    bool compute() {                                                                                                   \
      dynamicSliceRows(*offset, baseT, subT, numBaseElements, numSubElements);                                         \
      return true;                                                                                                     \
    }                                                                                                                  \
  };                                                                                                                   \
  /** base rows offset .. offset + numSubElements - 1 (wrapping) = sub, for each column region. */                     \
  class DynamicUpdate##BITS : public Vertex {                                                                          \
  public:                                                                                                              \
    Input<unsigned> offset;                                                                                            \
    InOut<VectorList<T> > baseT;                                                                                       \
    Input<VectorList<T> > subT;                                                                                        \
    unsigned numBaseElements;                                                                                          \
    unsigned numSubElements;                                                                                           \
    bool compute() {                                                                                                   \
      dynamicUpdateRows(*offset, baseT, subT, numBaseElements, numSubElements);                                        \
      return true;                                                                                                     \
    }                                                                                                                  \
  };                                                                                                                   \
  /** One slice of `sliceSize` rows per offset, for each column region. */                                             \
  class MultiSlice##BITS : public Vertex {                                                                             \
  public:                                                                                                              \
    Input<Vector<unsigned> > offsets;                                                                                  \
    Input<VectorList<T> > baseT;                                                                                       \
    Output<VectorList<T> > subT;                                                                                       \
    unsigned numBaseElements;                                                                                          \
    unsigned sliceSize;                                                                                                \
    unsigned remap;                                                                                                    \
    bool compute() {                                                                                                   \
      multiSliceRows<T>(offsets, baseT, subT, numBaseElements, sliceSize, remap != 0);                                 \
      return true;                                                                                                     \
    }                                                                                                                  \
  };                                                                                                                   \
  /** Writes one slice per offset into the base, for each column region; later offsets win. */                         \
  class MultiUpdate##BITS : public Vertex {                                                                            \
  public:                                                                                                              \
    Input<Vector<unsigned> > offsets;                                                                                  \
    InOut<VectorList<T> > baseT;                                                                                       \
    Input<VectorList<T> > subT;                                                                                        \
    unsigned numBaseElements;                                                                                          \
    unsigned sliceSize;                                                                                                \
    bool compute() {                                                                                                   \
      multiUpdateRows<T, 0>(offsets, baseT, subT, numBaseElements, sliceSize, static_cast<T>(0));                      \
      return true;                                                                                                     \
    }                                                                                                                  \
  };

POPOPS_SLICE_COPY_VERTICES(unsigned, 32)
POPOPS_SLICE_COPY_VERTICES(unsigned short, 16)
POPOPS_SLICE_COPY_VERTICES(unsigned char, 8)
#undef POPOPS_SLICE_COPY_VERTICES

// The arithmetic multiUpdates of one element type: MultiUpdateAdd<Name> (base += scale * sub, the scale of type
// S) and MultiUpdateMax<Name>. HALF arithmetic goes through float (half converts both ways).
#define POPOPS_SLICE_ADD_VERTEX(T, S, NAME)                                                                          \
  /** base rows at the offsets += scale * slices, for each column region. */                                        \
  class MultiUpdateAdd##NAME : public Vertex {                                                                       \
  public:                                                                                                            \
    Input<Vector<unsigned> > offsets;                                                                                \
    InOut<VectorList<T> > baseT;                                                                                     \
    Input<VectorList<T> > subT;                                                                                      \
    Input<S> scale;                                                                                                  \
    unsigned numBaseElements;                                                                                        \
    unsigned sliceSize;                                                                                              \
    bool compute() {                                                                                                 \
      multiUpdateRows<T, 1>(offsets, baseT, subT, numBaseElements, sliceSize, static_cast<T>(*scale));               \
      return true;                                                                                                   \
    }                                                                                                                \
  };
#define POPOPS_SLICE_MAX_VERTEX(T, NAME)                                                                             \
  /** base rows at the offsets = max(base, slices), for each column region. */                                     \
  class MultiUpdateMax##NAME : public Vertex {                                                                       \
  public:                                                                                                            \
    Input<Vector<unsigned> > offsets;                                                                                \
    InOut<VectorList<T> > baseT;                                                                                     \
    Input<VectorList<T> > subT;                                                                                      \
    unsigned numBaseElements;                                                                                        \
    unsigned sliceSize;                                                                                              \
    bool compute() {                                                                                                 \
      multiUpdateRows<T, 2>(offsets, baseT, subT, numBaseElements, sliceSize, static_cast<T>(0));                    \
      return true;                                                                                                   \
    }                                                                                                                \
  };

POPOPS_SLICE_ADD_VERTEX(float, float, Float)
POPOPS_SLICE_ADD_VERTEX(int, int, Int)
POPOPS_SLICE_ADD_VERTEX(unsigned, unsigned, Unsigned)
POPOPS_SLICE_ADD_VERTEX(half, half, Half)
POPOPS_SLICE_ADD_VERTEX(half, float, HalfFloatScale)
POPOPS_SLICE_MAX_VERTEX(float, Float)
POPOPS_SLICE_MAX_VERTEX(int, Int)
POPOPS_SLICE_MAX_VERTEX(unsigned, Unsigned)
POPOPS_SLICE_MAX_VERTEX(half, Half)
#undef POPOPS_SLICE_ADD_VERTEX
#undef POPOPS_SLICE_MAX_VERTEX

} // namespace popops
