// popops' histogram vertex (popops/GatherStatistics.hpp), included by popops_codelets.cpp.
namespace popops {

/// counts[b] = the number of elements of the runs of `data` in bin b of `levels` (bin 0: below levels[0]; bin i:
/// levels[i-1] <= x < levels[i]; the last bin: the rest, NaN included); with `absolute` each element's magnitude.
/// Count is unsigned (exact) or float (the useFloatArithmetic option). Levels are compared as float, which holds
/// every half exactly.
template <typename T, typename Count> class Histogram : public Vertex {
public:
  Input<VectorList<T>> data;
  Input<Vector<T>> levels;
  Output<Vector<Count>> counts;
  bool absolute;
  bool compute() {
    const unsigned numLevels = levels.size();
    for (unsigned b = 0; b <= numLevels; ++b)
      counts[b] = Count(0);
    for (unsigned r = 0; r < data.size(); ++r) {
      const auto &run = data[r];
      for (unsigned i = 0; i < run.size(); ++i) {
        float x = float(run[i]);
        if (absolute)
          x = fabsf(x);
        // Levels ascend, so the bin is the first level above x; a linear scan suits the few levels histograms use.
        unsigned b = 0;
        while (b < numLevels && !(x < float(levels[b])))
          ++b;
        counts[b] = Count(counts[b] + Count(1));
      }
    }
    return true;
  }
};

template struct VertexInstances<Histogram<float, unsigned>, Histogram<float, float>, Histogram<half, unsigned>,
                                Histogram<half, float>>;

} // namespace popops
