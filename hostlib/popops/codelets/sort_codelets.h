// popops' sort vertices (included at the end of popops_codelets.cpp): each vertex sorts whole rows in place, its
// keys and optionally the values that move with them. The sort is a stable binary insertion sort: equal keys keep
// their order in both directions, which popops::topK relies on for its ties; half keys compare as floats.
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

} // namespace sortdetail

// Keys only: SortKeys<Type>. Key-value: SortKV<KeyType><ValueBits>, the values seen as 32- or 16-bit words.
#define POPOPS_SORT_KEYS(Name, K)                                                                                   \
  class Name : public Vertex {                                                                                      \
  public:                                                                                                           \
    InOut<VectorList<K>> keys;                                                                                      \
    unsigned descending;                                                                                            \
    bool compute() {                                                                                                \
      sortdetail::sortRows<K, K>(keys, (InOut<VectorList<K>> *)0, descending);                                      \
      return true;                                                                                                  \
    }                                                                                                               \
  };
#define POPOPS_SORT_KV(Name, K, V)                                                                                  \
  class Name : public Vertex {                                                                                      \
  public:                                                                                                           \
    InOut<VectorList<K>> keys;                                                                                      \
    InOut<VectorList<V>> values;                                                                                    \
    unsigned descending;                                                                                            \
    bool compute() {                                                                                                \
      sortdetail::sortRows<K, V>(keys, &values, descending);                                                        \
      return true;                                                                                                  \
    }                                                                                                               \
  };

POPOPS_SORT_KEYS(SortKeysFloat, float)
POPOPS_SORT_KEYS(SortKeysHalf, half)
POPOPS_SORT_KEYS(SortKeysInt, int)
POPOPS_SORT_KEYS(SortKeysUnsigned, unsigned)
POPOPS_SORT_KV(SortKVFloat32, float, unsigned)
POPOPS_SORT_KV(SortKVHalf32, half, unsigned)
POPOPS_SORT_KV(SortKVInt32, int, unsigned)
POPOPS_SORT_KV(SortKVUnsigned32, unsigned, unsigned)
POPOPS_SORT_KV(SortKVFloat16, float, unsigned short)
POPOPS_SORT_KV(SortKVHalf16, half, unsigned short)
POPOPS_SORT_KV(SortKVInt16, int, unsigned short)
POPOPS_SORT_KV(SortKVUnsigned16, unsigned, unsigned short)

#undef POPOPS_SORT_KEYS
#undef POPOPS_SORT_KV

} // namespace popops
