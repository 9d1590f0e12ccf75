// poplin's tile code, compiled with popc at build time into poplin.gp (loaded by poplin::addCodelets):
//  - poplin::MatMul<In, Out> multiplies the operand blocks a tile holds (one block of the planner's split) on all
//    six workers at once; each worker computes a share of the block's output elements, accumulating in float;
//  - poplin::ReducePartials<In, Out> sums the partial blocks of an inner-dimension split, element by element: float
//    partials, or the half partials of partialsType half (each stage rounds its sums to half).
//  - poplin::ConvPartialnx1<In, Out> computes a convolution's output rows straight from the input rows they read.
// All are class templates; the explicit instantiations are the vertex classes popc records.
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
/// [groups][rows][cols], all row-major. Accumulated in float on all workers, each rounded once into c. The vertex
/// classes are the instantiations below, named poplin::MatMul<In, Out> (the host spells them with
/// poputil::detail::templateVertex): float operands and result; half operands with float partials (the result of
/// one inner-dimension share) or a half result.
template <typename In, typename Out> class MatMul : public MultiVertex {
public:
  Input<Vector<In>> a;
  Input<Vector<In>> b;
  Output<Vector<Out>> c;
  unsigned rows;
  unsigned inner;
  unsigned cols;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    workerRange(c.size(), workerId, numWorkers(), begin, end);
    matMulRange<In, Out>(a.data(), b.data(), c.data(), rows, inner, cols, begin, end);
    return true;
  }
};

template class MatMul<float, float>;
template class MatMul<half, float>;
template class MatMul<half, half>;

/// out[i] = sum over p of in[p][i]: in holds in.size() / out.size() partial runs of out's length, back to back,
/// summed in float and rounded once into out. The instantiations below, poplin::ReducePartials<In, Out>: float
/// partials into a float or half result, and half partials (partialsType half) into a half result (each stage
/// rounds its sums to half) or a float one.
template <typename In, typename Out> class ReducePartials : public MultiVertex {
public:
  Input<Vector<In>> in;
  Output<Vector<Out>> out;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    const unsigned n = out.size();
    workerRange(n, workerId, numWorkers(), begin, end);
    reduceRange<In, Out>(in.data(), out.data(), n, n ? in.size() / n : 0, begin, end);
    return true;
  }
};

template class ReducePartials<float, float>;
template class ReducePartials<float, half>;
template class ReducePartials<half, half>;
template class ReducePartials<half, float>;

/// One tile's share of a convolution read straight from its input, with no im2col copy (the form of PopLibs'
/// ConvPartialnx1: each output position accumulates over the kernel's positions from the input field):
/// out[co][y][x] = sum over ci, ky, kx of in[ci][y * strideY + ky][x * strideX + kx] * weights[co][ci][ky][kx], with
/// in [inChans][inRows][inWidth], weights [outChans][inChans][kernelH][kernelW] and out [outChans][outRows][outWidth]
/// (outChans = out.size() / (outRows * outWidth)). Accumulated in float on all workers, each output element rounded
/// once into out; the workers share out's elements.
template <typename In, typename Out> class ConvPartialnx1 : public MultiVertex {
public:
  Input<Vector<In>> in;
  Input<Vector<In>> weights;
  Output<Vector<Out>> out;
  unsigned inChans;
  unsigned inRows;
  unsigned inWidth;
  unsigned kernelH;
  unsigned kernelW;
  unsigned outRows;
  unsigned outWidth;
  unsigned strideY;
  unsigned strideX;
  bool compute(unsigned workerId) {
    unsigned begin, end;
    workerRange(out.size(), workerId, numWorkers(), begin, end);
    const unsigned perChan = outRows * outWidth, kernel = kernelH * kernelW;
    for (unsigned i = begin; i < end; ++i) {
      const unsigned co = i / perChan, y = (i - co * perChan) / outWidth, x = i - co * perChan - y * outWidth;
      float acc = 0.0f;
      for (unsigned ci = 0; ci < inChans; ++ci) {
        const In *ip = &in[(ci * inRows + y * strideY) * inWidth + x * strideX];
        const In *wp = &weights[(co * inChans + ci) * kernel];
        for (unsigned ky = 0; ky < kernelH; ++ky)
          for (unsigned kx = 0; kx < kernelW; ++kx)
            acc += float(ip[ky * inWidth + kx]) * float(wp[ky * kernelW + kx]);
      }
      out[i] = Out(acc);
    }
    return true;
  }
};

template class ConvPartialnx1<float, float>;
template class ConvPartialnx1<half, float>;
template class ConvPartialnx1<half, half>;

} // namespace poplin
