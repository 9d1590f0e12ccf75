// popops' sort vertices (included at the end of popops_codelets.cpp). SortKeys*/SortKV* sort whole runs in place,
// their keys and optionally the values that move with them, by a stable binary insertion sort: equal keys keep
// their order in both directions, which popops::topK relies on for its ties; half keys compare as floats.
// MergeSplit*: two sorted neighbouring pieces of a row that lives on several tiles are merged (stably, the lower
// piece first on ties) and split back, the smaller keys into the lower piece: one step of a block odd-even
// transposition sort.
namespace popops {
namespace sortdetail {

// True when `a` must come before `b`: strictly smaller (ascending) or strictly larger (descending).
template <typename K> inline bool before(K a, K b, bool descending) { return descending ? b < a : a < b; }
inline bool beforeH(half a, half b, bool descending) {
  float x = float(a), y = float(b);
  return descending ? y < x : x < y;
}

// Sorts keys[0..n) (and values[0..n) when not null) stably.
template <typename K, typename V, typename Less> void insertionSort(K *keys, V *values, unsigned n, Less less) {
  for (unsigned i = 1; i < n; ++i) {
    K k = keys[i];
    // The first position whose key k must come before: after every equal key (stable).
    unsigned lo = 0, hi = i;
    while (lo < hi) {
      unsigned mid = (lo + hi) / 2;
      if (less(k, keys[mid]))
        hi = mid;
      else
        lo = mid + 1;
    }
    if (lo == i)
      continue;
    V v = values ? values[i] : V();
    for (unsigned j = i; j > lo; --j) {
      keys[j] = keys[j - 1];
      if (values)
        values[j] = values[j - 1];
    }
    keys[lo] = k;
    if (values)
      values[lo] = v;
  }
}

template <typename K> struct Less {
  bool descending;
  bool operator()(K a, K b) const { return before<K>(a, b, descending); }
};
struct LessH {
  bool descending;
  bool operator()(half a, half b) const { return beforeH(a, b, descending); }
};
template <typename K> struct LessFor { typedef Less<K> type; };
template <> struct LessFor<half> { typedef LessH type; };

template <typename K, typename V, typename KL, typename VL>
void sortRows(KL &keys, VL *values, unsigned descending) {
  typename LessFor<K>::type less;
  less.descending = descending != 0;
  for (unsigned r = 0; r < keys.size(); ++r)
    insertionSort<K, V>(keys[r].data(), values ? (*values)[r].data() : (V *)0, keys[r].size(), less);
}

// Merges the sorted lo[0..nl) and hi[0..nh) through tk/tv and writes the first nl back to lo, the rest to hi.
template <typename K, typename V, typename Less>
void mergeSplit(K *lo, V *loV, unsigned nl, K *hi, V *hiV, unsigned nh, K *tk, V *tv, Less less) {
  if (nl == 0 || nh == 0 || !less(hi[0], lo[nl - 1]))
    return; // already in order
  unsigned i = 0, j = 0, o = 0;
  while (i < nl || j < nh) {
    bool takeHi = i == nl || (j < nh && less(hi[j], lo[i]));
    if (takeHi) {
      tk[o] = hi[j];
      if (loV)
        tv[o] = hiV[j];
      ++j;
    } else {
      tk[o] = lo[i];
      if (loV)
        tv[o] = loV[i];
      ++i;
    }
    ++o;
  }
  for (unsigned k = 0; k < nl + nh; ++k) {
    if (k < nl)
      lo[k] = tk[k];
    else
      hi[k - nl] = tk[k];
    if (loV) {
      if (k < nl)
        loV[k] = tv[k];
      else
        hiV[k - nl] = tv[k];
    }
  }
}

template <typename K, typename V, typename LoE, typename TmpE>
void mergeSplitEdges(LoE &lo, LoE &hi, TmpE &tmp, V *loV, V *hiV, V *tv, unsigned descending) {
  typename LessFor<K>::type less;
  less.descending = descending != 0;
  mergeSplit<K, V>(lo.data(), loV, lo.size(), hi.data(), hiV, hi.size(), tmp.data(), tv, less);
}

} // namespace sortdetail

// The vertex classes, class templates over the key type K (float, half, int, unsigned) and the value word V
// (unsigned or unsigned short: the values' bits as the host reinterprets them), their instances listed below:
// popc records them as popops::SortKeys<float>, popops::SortKV<half, short unsigned int>, ... (the tile compiler's
// spelling, which the host reproduces with poputil::detail::templateVertex).

/// Sorts each row of `keys` in place.
template <typename K> class SortKeys : public Vertex {
public:
  InOut<VectorList<K>> keys;
  unsigned descending;
  bool compute() {
    sortdetail::sortRows<K, K>(keys, (InOut<VectorList<K>> *)0, descending);
    return true;
  }
};

/// Sorts each row of `keys` in place and permutes the same row of `values` alike.
template <typename K, typename V> class SortKV : public Vertex {
public:
  InOut<VectorList<K>> keys;
  InOut<VectorList<V>> values;
  unsigned descending;
  bool compute() {
    sortdetail::sortRows<K, V>(keys, &values, descending);
    return true;
  }
};

/// Merges the sorted runs lo and hi (through tmp) so that lo holds the first lo.size() of the merge, hi the rest.
template <typename K> class MergeSplitKeys : public Vertex {
public:
  InOut<Vector<K>> lo;
  InOut<Vector<K>> hi;
  Output<Vector<K>> tmp;
  unsigned descending;
  bool compute() {
    sortdetail::mergeSplitEdges<K, K>(lo, hi, tmp, (K *)0, (K *)0, (K *)0, descending);
    return true;
  }
};

/// The same, moving each key's value with it.
template <typename K, typename V> class MergeSplitKV : public Vertex {
public:
  InOut<Vector<K>> lo;
  InOut<Vector<K>> hi;
  Output<Vector<K>> tmp;
  InOut<Vector<V>> loValues;
  InOut<Vector<V>> hiValues;
  Output<Vector<V>> tmpValues;
  unsigned descending;
  bool compute() {
    sortdetail::mergeSplitEdges<K, V>(lo, hi, tmp, loValues.data(), hiValues.data(), tmpValues.data(), descending);
    return true;
  }
};

template struct VertexInstances<SortKeys<float>, SortKeys<half>, SortKeys<int>, SortKeys<unsigned>>;
template struct VertexInstances<SortKV<float, unsigned>, SortKV<half, unsigned>, SortKV<int, unsigned>,
                                SortKV<unsigned, unsigned>, SortKV<float, unsigned short>,
                                SortKV<half, unsigned short>, SortKV<int, unsigned short>,
                                SortKV<unsigned, unsigned short>>;
template struct VertexInstances<MergeSplitKeys<float>, MergeSplitKeys<half>, MergeSplitKeys<int>,
                                MergeSplitKeys<unsigned>>;
template struct VertexInstances<MergeSplitKV<float, unsigned>, MergeSplitKV<half, unsigned>,
                                MergeSplitKV<int, unsigned>, MergeSplitKV<unsigned, unsigned>,
                                MergeSplitKV<float, unsigned short>, MergeSplitKV<half, unsigned short>,
                                MergeSplitKV<int, unsigned short>, MergeSplitKV<unsigned, unsigned short>>;

} // namespace popops
