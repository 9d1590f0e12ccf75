// popops' transpose tile code (included at the end of popops_codelets.cpp): the vertex of
// popops::rearrange::addTransposeVertices (src/Rearrange.cpp builds it), behind partialTranspose and regrouping.
// A transpose only moves elements, so it exists per element size and the host reinterprets QUARTER, HALF/SHORT
// and FLOAT/INT tensors to the unsigned type of that size.

namespace popops {

/// For each list item k: dst[k] (cols x rows) = the transpose of src[k] (rows x cols), both row-major.
template <typename T> class Transpose : public Vertex {
public:
  Input<VectorList<T>> src;
  Output<VectorList<T>> dst;
  unsigned rows;
  unsigned cols;
  bool compute() {
    for (unsigned k = 0; k < src.size(); ++k) {
      const T *in = src[k].data();
      T *out = dst[k].data();
      for (unsigned r = 0; r < rows; ++r)
        for (unsigned c = 0; c < cols; ++c)
          out[c * rows + r] = in[r * cols + c];
    }
    return true;
  }
};

template struct VertexInstances<Transpose<unsigned>, Transpose<unsigned short>, Transpose<unsigned char>>;

} // namespace popops
