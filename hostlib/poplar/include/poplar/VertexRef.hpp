// Handles to a vertex and to one of its fields, for connecting tensors and mapping vertices to tiles.
#ifndef POPLAR_VERTEX_REF_HPP
#define POPLAR_VERTEX_REF_HPP

#include <cstddef>
#include <stdexcept>
#include <string>

namespace poplar {

namespace detail {
struct GraphImpl;
}

class VertexRef;

/// A field of a vertex ("in", "out"), or element `index` of a VectorList field.
class FieldRef {
public:
  FieldRef() : graph_(0), vertex_(~0u), index_(~std::size_t(0)) {}
  /// Internal: field `name` of vertex `vertex`.
  FieldRef(detail::GraphImpl *graph, unsigned vertex, const std::string &name, std::size_t index = ~std::size_t(0))
      : graph_(graph), vertex_(vertex), name_(name), index_(index) {}
  /// Element `i` of a VectorList field.
  FieldRef operator[](std::size_t i) const { return FieldRef(graph_, vertex_, name_, i); }
  /// The field's name.
  const std::string &name() const { return name_; }
  /// The vertex's id.
  unsigned vertexId() const { return vertex_; }
  /// The VectorList element, or ~0 for the whole field.
  std::size_t index() const { return index_; }
  /// Whether this reference names one element of a vector field (made with operator[]).
  bool isIndexed() const { return index_ != ~std::size_t(0); }
  /// The element index of an indexed reference; throws std::logic_error for a reference to a whole field.
  std::size_t getIndex() const {
    if (!isIndexed())
      throw std::logic_error("FieldRef::getIndex: field '" + name_ + "' is not indexed; check isIndexed() first");
    return index_;
  }
  /// Internal.
  detail::GraphImpl *graphImpl() const { return graph_; }

private:
  detail::GraphImpl *graph_;
  unsigned vertex_;
  std::string name_;
  std::size_t index_;
};

/// A vertex of a compute set.
class VertexRef {
public:
  VertexRef() : graph_(0), id_(~0u) {}
  /// Internal: vertex `id` of `graph`.
  VertexRef(detail::GraphImpl *graph, unsigned id) : graph_(graph), id_(id) {}
  /// The field `name`, to pass to Graph::connect() or Graph::setInitialValue().
  FieldRef operator[](const std::string &name) const { return FieldRef(graph_, id_, name); }
  /// The vertex's id in its graph.
  unsigned getId() const { return id_; }
  /// Internal.
  detail::GraphImpl *graphImpl() const { return graph_; }

private:
  detail::GraphImpl *graph_;
  unsigned id_;
};

} // namespace poplar

#endif // POPLAR_VERTEX_REF_HPP
