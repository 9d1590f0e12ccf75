// Device-side Poplar vertex API for codelets: Vertex, Input/Output/InOut of scalars, Vector and VectorList.
//
// Codelets are compiled for the tiles (riscv64-unknown-elf-g++, freestanding, no exceptions or RTTI). The
// host reads each vertex class's field layout from the compiler's DWARF, so the classes below are the state
// layout: a scalar edge is one pointer, a Vector edge is {pointer, size}, a VectorList edge is {pointer to
// {pointer, size} items, count}. Sizes are 32-bit, as on the IPU.
#ifndef POPLAR_DEVICE_VERTEX_HPP
#define POPLAR_DEVICE_VERTEX_HPP

#ifndef __riscv
#error "poplar/Vertex.hpp is the device-side header: compile codelets with Graph::addCodelets or popc"
#endif

// `half` (16-bit, as on the IPU) and the vector types float2, half4, ... are available in every codelet.
#include "../ipudef.h"

namespace poplar {

/// Base of every codelet class; a vertex defines `bool compute()`.
class Vertex {
public:
  Vertex() = default;
};
/// Kept for source compatibility: on this target a supervisor vertex runs on a worker like any vertex.
typedef Vertex SupervisorVertex;

/// Base of a codelet that runs on every worker of its tile at once: it defines `bool compute(unsigned workerId)`,
/// called once for each workerId in 0 .. numWorkers()-1 on the same vertex state, and splits the work by workerId.
class MultiVertex {
public:
  MultiVertex() = default;
  /// Worker contexts a MultiVertex runs on (6, as on every IPU).
  static constexpr unsigned numWorkers() { return 6; }
};

/// How a vector's pointer is stored on the IPU; every layout is {pointer, size} here.
enum class VectorLayout { ONE_PTR, SPAN, SHORT_SPAN, SCALED_PTR32, SCALED_PTR64, SCALED_PTR128, COMPACT_PTR, COMPACT_DELTAN };

/// Marker for a vector edge: Input<Vector<float>> is a contiguous run of floats on this tile.
template <typename T, VectorLayout L = VectorLayout::SPAN, unsigned Align = alignof(T), bool Interleaved = false>
class Vector;
/// How a vector list's items are stored on the IPU; every layout is a list of {pointer, size} here.
enum class VectorListLayout { DELTAN, DELTANELEMENTS, COMPACT_DELTAN, ONE_PTR, SCALED_PTR32, SCALED_PTR64 };
/// Marker for a list of vectors: Input<VectorList<float>> is several runs (Graph::setFieldSize, field[i]).
template <typename T, VectorListLayout L = VectorListLayout::DELTANELEMENTS, unsigned Align = alignof(T)>
class VectorList;

namespace detail {

/// A run of elements: what a Vector edge and each VectorList item hold.
template <typename P> class Span {
public:
  P *begin() const { return data_; }
  P *end() const { return data_ + size_; }
  unsigned size() const { return size_; }
  P &operator[](unsigned i) const { return data_[i]; }
  P *data() const { return data_; }
  /// `in->size()`, `in->data()`: member access through the edge as through a pointer to the vector.
  const Span *operator->() const { return this; }

private:
  P *data_;
  unsigned size_;
};

/// A scalar edge: one pointer to the element.
template <typename P> class ScalarEdge {
public:
  P &operator*() const { return *ptr_; }
  P *operator->() const { return ptr_; }
  operator P &() const { return *ptr_; }
  P &operator[](unsigned i) const { return ptr_[i]; }

protected:
  P *ptr_;
};

/// A list of runs: {items, count}.
template <typename P> class ListEdge {
public:
  const Span<P> &operator[](unsigned i) const { return items_[i]; }
  unsigned size() const { return count_; }
  const Span<P> *begin() const { return items_; }
  const Span<P> *end() const { return items_ + count_; }
  const ListEdge *operator->() const { return this; }

private:
  const Span<P> *items_;
  unsigned count_;
};

} // namespace detail

/// An input edge: read-only.
template <typename T> class Input : public detail::ScalarEdge<const T> {};
template <typename T, VectorLayout L, unsigned A, bool I>
class Input<Vector<T, L, A, I> > : public detail::Span<const T> {};
template <typename T, VectorListLayout L, unsigned A>
class Input<VectorList<T, L, A> > : public detail::ListEdge<const T> {};

/// An output edge: written by compute(); data reaches other tiles after the compute phase.
template <typename T> class Output : public detail::ScalarEdge<T> {
public:
  Output &operator=(const T &v) {
    *this->ptr_ = v;
    return *this;
  }
};
template <typename T, VectorLayout L, unsigned A, bool I>
class Output<Vector<T, L, A, I> > : public detail::Span<T> {};
template <typename T, VectorListLayout L, unsigned A>
class Output<VectorList<T, L, A> > : public detail::ListEdge<T> {};

/// An edge that is read and written.
template <typename T> class InOut : public detail::ScalarEdge<T> {
public:
  InOut &operator=(const T &v) {
    *this->ptr_ = v;
    return *this;
  }
};
template <typename T, VectorLayout L, unsigned A, bool I>
class InOut<Vector<T, L, A, I> > : public detail::Span<T> {};
template <typename T, VectorListLayout L, unsigned A>
class InOut<VectorList<T, L, A> > : public detail::ListEdge<T> {};

} // namespace poplar

#endif // POPLAR_DEVICE_VERTEX_HPP
