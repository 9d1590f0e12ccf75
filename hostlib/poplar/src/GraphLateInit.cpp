// Graph::setInitCallback: records a field's late initialiser on the vertex; compiler/late_init.cpp runs it once the
// layout is known.
#include "graph_impl.hpp"
#include "poplar/Graph.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

void Graph::setInitCallbackBytes(FieldRef field, std::size_t size,
                                 const std::function<void(const VertexEdgeInfo &, void *)> &fill) {
  const std::string call = "setInitCallback(" + field.name() + ")";
  if (field.graphImpl() != impl_.get() || field.vertexId() >= impl_->vertices.size())
    throw graph_connection_error(call + ": the vertex does not belong to this graph; set the callback through the "
                                        "graph that added the vertex");
  if (field.index() != ~std::size_t(0))
    throw graph_connection_error(call + "[" + std::to_string(field.index()) + "]: a callback sets a whole plain "
                                 "field, not an item of a VectorList; pass vertex[\"" + field.name() + "\"]");
  if (!fill)
    throw graph_connection_error(call + ": the callback is empty; pass a function that returns the field's value");
  detail::Vertex &v = impl_->vertices[field.vertexId()];
  auto cls = impl_->codelets.classes.find(v.type);
  if (cls != impl_->codelets.classes.end()) {
    auto f = cls->second.fields.find(field.name());
    if (f == cls->second.fields.end())
      throw graph_connection_error(call + ": vertex type '" + v.type + "' has no field '" + field.name() + "'");
    if (f->second.kind != detail::FieldKind::Plain)
      throw graph_connection_error(call + ": '" + v.type + "." + field.name() + "' is an edge; only a plain field "
                                   "(e.g. `unsigned n;`) takes a value from a callback");
    if (f->second.size != size)
      throw graph_connection_error(call + ": '" + v.type + "." + field.name() + "' is " +
                                   std::to_string(f->second.size) + " bytes but the callback returns " +
                                   std::to_string(size) + "; give setInitCallback<T> the field's own type");
  }
  v.lateInits[field.name()] = detail::LateInit{size, fill};
}

} // namespace poplar
