// popops' image vertex (popops/NormaliseImage.hpp), included by popops_codelets.cpp.
namespace popops {

/// out[i] = in[i] widened from an 8-bit unsigned pixel value to half (exact: half holds every integer to 2048).
/// popops' element-wise maps do not take UNSIGNED_CHAR, so normaliseImage widens its 8-bit input with this first.
class UCharToHalf : public Vertex {
public:
  Input<Vector<unsigned char>> in;
  Output<Vector<half>> out;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = half(float(in[i]));
    return true;
  }
};

} // namespace popops
