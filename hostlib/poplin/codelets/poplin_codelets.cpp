// poplin's tile code, compiled with popc at build time into poplin.gp (loaded by poplin::addCodelets):
//  - poplin::MatMul<In><Out> multiplies the operand blocks a tile holds (one block of the planner's split) on all
//    six workers at once; each worker computes a share of the block's output elements, accumulating in float;
//  - poplin::ReducePartials<Out> sums the float partial blocks of an inner-dimension split, element by element;
//    ReducePartialsHalf<Out> the half partials of partialsType half (each stage rounds its sums to half).
// Operand blocks arrive as one contiguous run each (the graph compiler gathers a view into an edge buffer when it
// is not one local run), so the vertices only need the block's dimensions.
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace poplin {
namespace {

// c[g][r][j] = sum_k a[g][r][k] * b[g][k][j] for the output elements [begin, end) of the flattened c.
template <typename In, typename Out>
void matMulRange(const In *a, const In *b, Out *c, unsigned rows, unsigned inner, unsigned cols, unsigned begin,
                 unsigned end) {
  const unsigned perGroup = rows * cols;
  unsigned idx = begin;
  while (idx < end) {
    const unsigned g = idx / perGroup;
    const unsigned r = (idx - g * perGroup) / cols;
    unsigned j = idx - g * perGroup - r * cols;
    const In *arow = a + (g * rows + r) * inner;
    const In *bg = b + g * inner * cols;
    // The rest of this output row, or up to `end`.
    unsigned rowEnd = cols;
    if (end - idx < cols - j)
      rowEnd = j + (end - idx);
    Out *crow = c + (g * rows + r) * cols;
    // Four outputs at a time share each load of a's element (about 3 instructions per multiply-add, not 6).
    for (; j + 4 <= rowEnd; j += 4, idx += 4) {
      float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
      const In *bp = bg + j;
      for (unsigned k = 0; k < inner; ++k, bp += cols) {
        const float x = float(arow[k]);
        acc0 += x * float(bp[0]);
        acc1 += x * float(bp[1]);
        acc2 += x * float(bp[2]);
        acc3 += x * float(bp[3]);
      }
      crow[j] = Out(acc0);
      crow[j + 1] = Out(acc1);
      crow[j + 2] = Out(acc2);
      crow[j + 3] = Out(acc3);
    }
    for (; j < rowEnd; ++j, ++idx) {
      float acc = 0.0f;
      const In *bp = bg + j;
      for (unsigned k = 0; k < inner; ++k, bp += cols)
        acc += float(arow[k]) * float(*bp);
      crow[j] = Out(acc);
    }
  }
}

// The share of `total` elements that worker `w` of `workers` computes: [begin, end).
void workerRange(unsigned total, unsigned w, unsigned workers, unsigned &begin, unsigned &end) {
  const unsigned per = (total + workers - 1) / workers;
  begin = w * per < total ? w * per : total;
  end = begin + per < total ? begin + per : total;
}

// Sums the partials in float; In is float or half (half partials, loaded as float).
template <typename In, typename Out> void reduceRange(const In *in, Out *out, unsigned n, unsigned partials,
                                                      unsigned b, unsigned e) {
  for (unsigned i = b; i < e; ++i) {
    float acc = 0.0f;
    for (unsigned p = 0; p < partials; ++p)
      acc += float(in[p * n + i]);
    out[i] = Out(acc);
  }
}

} // namespace

/// One tile's block of a (grouped) matrix product: a is [groups][rows][inner], b is [groups][inner][cols], c is
/// [groups][rows][cols], all row-major. Float operands, float result.
class MatMulFloatFloat : public MultiVertex {
public:
  Input<Vector<float>> a;
  Input<Vector<float>> b;
  Output<Vector<float>> c;
  unsigned rows;
  unsigned inner;
  unsigned cols;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    workerRange(c.size(), workerId, numWorkers(), begin, end);
    matMulRange<float, float>(a.data(), b.data(), c.data(), rows, inner, cols, begin, end);
    return true;
  }
};

/// The same with half operands and float partials (the result of one inner-dimension share).
class MatMulHalfFloat : public MultiVertex {
public:
  Input<Vector<half>> a;
  Input<Vector<half>> b;
  Output<Vector<float>> c;
  unsigned rows;
  unsigned inner;
  unsigned cols;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    workerRange(c.size(), workerId, numWorkers(), begin, end);
    matMulRange<half, float>(a.data(), b.data(), c.data(), rows, inner, cols, begin, end);
    return true;
  }
};

/// The same with half operands, accumulated in float and rounded once to a half result.
class MatMulHalfHalf : public MultiVertex {
public:
  Input<Vector<half>> a;
  Input<Vector<half>> b;
  Output<Vector<half>> c;
  unsigned rows;
  unsigned inner;
  unsigned cols;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    workerRange(c.size(), workerId, numWorkers(), begin, end);
    matMulRange<half, half>(a.data(), b.data(), c.data(), rows, inner, cols, begin, end);
    return true;
  }
};

/// out[i] = sum over p of in[p][i]: in holds in.size() / out.size() partial runs of out's length, back to back.
class ReducePartialsFloat : public MultiVertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    const unsigned n = out.size();
    workerRange(n, workerId, numWorkers(), begin, end);
    reduceRange<float, float>(in.data(), out.data(), n, n ? in.size() / n : 0, begin, end);
    return true;
  }
};

/// The same, rounding the float sums to a half result.
class ReducePartialsHalf : public MultiVertex {
public:
  Input<Vector<float>> in;
  Output<Vector<half>> out;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    const unsigned n = out.size();
    workerRange(n, workerId, numWorkers(), begin, end);
    reduceRange<float, half>(in.data(), out.data(), n, n ? in.size() / n : 0, begin, end);
    return true;
  }
};

/// Half partials (partialsType half): summed in float, the stage's result rounded once to half.
class ReducePartialsHalfHalf : public MultiVertex {
public:
  Input<Vector<half>> in;
  Output<Vector<half>> out;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    const unsigned n = out.size();
    workerRange(n, workerId, numWorkers(), begin, end);
    reduceRange<half, half>(in.data(), out.data(), n, n ? in.size() / n : 0, begin, end);
    return true;
  }
};

/// Half partials summed in float into a float result.
class ReducePartialsHalfFloat : public MultiVertex {
public:
  Input<Vector<half>> in;
  Output<Vector<float>> out;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    const unsigned n = out.size();
    workerRange(n, workerId, numWorkers(), begin, end);
    reduceRange<half, float>(in.data(), out.data(), n, n ? in.size() / n : 0, begin, end);
    return true;
  }
};

} // namespace poplin
