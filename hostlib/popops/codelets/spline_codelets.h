// popops' spline vertices (popops/SplineBasis.hpp, popops/SplineWeighting.hpp), included by popops_codelets.cpp.
namespace popops {

/// The B-spline basis function `kMod` (0..degree) of a uniform spline of `degree` (1..3) at the fraction v in
/// [0, 1) of a knot interval. Any other degree gives -1 (the host refuses those before a vertex is made).
inline float splineBasisFunction(float v, unsigned kMod, unsigned degree) {
  if (degree == 1)
    return kMod == 0 ? 1.0f - v : v;
  if (degree == 2) {
    if (kMod == 0)
      return 0.5f * (1.0f - v) * (1.0f - v);
    if (kMod == 1)
      return -v * v + v + 0.5f;
    return 0.5f * v * v;
  }
  if (degree == 3) {
    const float w = 1.0f - v;
    if (kMod == 0)
      return w * w * w / 6.0f;
    if (kMod == 1)
      return (3.0f * v * v * v - 6.0f * v * v + 4.0f) / 6.0f;
    if (kMod == 2)
      return (-3.0f * v * v * v + 3.0f * v * v + 3.0f * v + 1.0f) / 6.0f;
    return v * v * v / 6.0f;
  }
  return -1.0f;
}

/// For each edge of the chunk (pseudo: [edges, dims] coordinates in [0, 1]) and each of the (degree + 1)^dims
/// splines s (digit d of s in base degree + 1 picks the basis function of dimension d): basis = the product over
/// the dimensions of the basis function at the coordinate's knot fraction, weightIndex = the index of the kernel
/// weight it multiplies (the knot index plus the digit, modulo the kernel size, mixed-radix over the dimensions).
/// A closed spline has kernelSize knot intervals, an open one kernelSize - degree. Computed in float.
template <typename T> class SplineBasis : public Vertex {
public:
  Input<Vector<T>> pseudo;
  Input<Vector<int>> kernelSize;
  Input<Vector<unsigned char>> isOpenSpline;
  Output<Vector<T>> basis;
  Output<Vector<int>> weightIndex;
  unsigned degree;
  bool compute() {
    const unsigned dims = kernelSize.size();
    if (dims == 0)
      return true;
    const unsigned edges = pseudo.size() / dims, splines = basis.size() / (edges ? edges : 1);
    for (unsigned e = 0; e < edges; ++e)
      for (unsigned s = 0; s < splines; ++s) {
        unsigned k = s, wi = 0, wiOffset = 1;
        float b = 1.0f;
        for (unsigned d = 0; d < dims; ++d) {
          const unsigned kMod = k % (degree + 1);
          k /= degree + 1;
          // A kernel size below 1 is invalid input; it is taken as 1 so that the modulo stays defined.
          const int ks = kernelSize[d] > 0 ? int(kernelSize[d]) : 1;
          const float v = float(pseudo[e * dims + d]) * float(ks - int(degree) * int(isOpenSpline[d]));
          const float knot = floorf(v);
          wi += ((unsigned(int(knot)) + kMod) % unsigned(ks)) * wiOffset;
          wiOffset *= unsigned(ks);
          b *= splineBasisFunction(v - knot, kMod, degree);
        }
        basis[e * splines + s] = T(b);
        weightIndex[e * splines + s] = int(wi);
      }
    return true;
  }
};

template struct VertexInstances<SplineBasis<float>, SplineBasis<half>>;

/// For each edge of the chunk: output[e][o] = sum over splines s and input channels i of
/// basis[e][s] * input[e][i] * weight[weightIndex[e][s]][i][o], accumulated in float. weight is the whole kernel
/// ([kernels, in, out]); a weight index outside it adds nothing (the host checks none of its own making is).
template <typename T> class SplineWeighting : public Vertex {
public:
  Input<Vector<T>> input;
  Input<Vector<T>> weight;
  Input<Vector<T>> basis;
  Input<Vector<int>> weightIndex;
  Output<Vector<T>> output;
  unsigned numInCh;
  unsigned numOutCh;
  bool compute() {
    if (numOutCh == 0)
      return true;
    const unsigned edges = output.size() / numOutCh, splines = edges ? basis.size() / edges : 0;
    const unsigned kernels = numInCh ? weight.size() / (numInCh * numOutCh) : 0;
    for (unsigned e = 0; e < edges; ++e)
      for (unsigned o = 0; o < numOutCh; ++o) {
        float acc = 0.0f;
        for (unsigned s = 0; s < splines; ++s) {
          const int wi = weightIndex[e * splines + s];
          if (wi < 0 || unsigned(wi) >= kernels)
            continue;
          const float b = float(basis[e * splines + s]);
          for (unsigned i = 0; i < numInCh; ++i)
            acc += float(weight[(unsigned(wi) * numInCh + i) * numOutCh + o]) * b * float(input[e * numInCh + i]);
        }
        output[e * numOutCh + o] = T(acc);
      }
    return true;
  }
};

template struct VertexInstances<SplineWeighting<float>, SplineWeighting<half>>;

} // namespace popops
