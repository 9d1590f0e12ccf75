// Graph's questions about vertex fields: how many elements a field of a vertex has (getFieldSize) and the largest
// size or value a field of a vertex class can hold here (getMaxFieldDim, getMaxVertexFieldValue).
#include <cfloat>
#include <limits>
#include <map>

#include "poplar/Graph.hpp"
#include "poplar/exceptions.hpp"
#include "codelets.hpp"
#include "graph_impl.hpp"

namespace poplar {

namespace {

/// Field `fieldName` of class `vertexType`, or the SDK's exception naming what is missing.
const detail::FieldInfo &fieldOf(const detail::GraphImpl &g, const std::string &what, const std::string &vertexType,
                                 const std::string &fieldName) {
  auto cls = g.codelets.classes.find(vertexType);
  if (cls == g.codelets.classes.end())
    throw unknown_vertex_type(what + "('" + vertexType + "', '" + fieldName + "'): no vertex class '" + vertexType +
                              "' in the graph's codelets; add it with graph.addCodelets first");
  auto f = cls->second.fields.find(fieldName);
  if (f == cls->second.fields.end())
    throw unknown_field(what + "('" + vertexType + "', '" + fieldName + "'): vertex class '" + vertexType +
                        "' has no field '" + fieldName + "'");
  return f->second;
}

/// The largest value of a field's C type as the tile's DWARF names it (GCC's spellings, "short unsigned int", and
/// clang's, "unsigned short"); 0 when the type is not a number.
double largestOf(const std::string &type) {
  static const std::map<std::string, double> limits = {
      {"bool", 1.0},
      {"char", double(std::numeric_limits<signed char>::max())},
      {"signed char", double(std::numeric_limits<signed char>::max())},
      {"unsigned char", double(std::numeric_limits<unsigned char>::max())},
      {"short", double(std::numeric_limits<short>::max())},
      {"short int", double(std::numeric_limits<short>::max())},
      {"short unsigned int", double(std::numeric_limits<unsigned short>::max())},
      {"long int", double(std::numeric_limits<std::int32_t>::max())},
      {"long unsigned int", double(std::numeric_limits<std::uint32_t>::max())},
      {"long long int", double(std::numeric_limits<long long>::max())},
      {"long long unsigned int", double(std::numeric_limits<unsigned long long>::max())},
      {"_Bool", 1.0},
      {"unsigned short", double(std::numeric_limits<unsigned short>::max())},
      {"int", double(std::numeric_limits<int>::max())},
      {"unsigned int", double(std::numeric_limits<unsigned>::max())},
      {"unsigned", double(std::numeric_limits<unsigned>::max())},
      {"long", double(std::numeric_limits<std::int32_t>::max())}, // the tile's long is 32 bits (RV32)
      {"unsigned long", double(std::numeric_limits<std::uint32_t>::max())},
      {"long long", double(std::numeric_limits<long long>::max())},
      {"unsigned long long", double(std::numeric_limits<unsigned long long>::max())},
      {"half", 65504.0},
      {"float", double(FLT_MAX)},
      {"double", DBL_MAX},
  };
  auto it = limits.find(type);
  return it == limits.end() ? 0.0 : it->second;
}

} // namespace

std::size_t Graph::getFieldSize(FieldRef field) const {
  if (field.graphImpl() != impl_.get() || field.vertexId() >= impl_->vertices.size())
    throw graph_connection_error("getFieldSize(" + field.name() + "): the vertex does not belong to this graph");
  const detail::Vertex &v = impl_->vertices[field.vertexId()];
  auto list = v.lists.find(field.name());
  if (list != v.lists.end()) {
    if (!field.isIndexed())
      return list->second.size();
    if (field.getIndex() >= list->second.size())
      throw index_error("getFieldSize(" + v.type + "." + field.name() + "[" + std::to_string(field.getIndex()) +
                        "]): the field has " + std::to_string(list->second.size()) + " items");
    const Tensor &item = list->second[field.getIndex()];
    return item.valid() ? item.numElements() : 0;
  }
  auto edge = v.edges.find(field.name());
  if (edge == v.edges.end())
    throw graph_connection_error("getFieldSize(" + v.type + "." + field.name() + "): the field has no size yet: "
                                 "connect a tensor to it, or give a VectorList its size with setFieldSize");
  return edge->second.numElements();
}

double Graph::getMaxFieldDim(const std::string &vertexType, const std::string &fieldName, unsigned dimIndex) const {
  const detail::FieldInfo &f = fieldOf(*impl_, "getMaxFieldDim", vertexType, fieldName);
  // A Vector holds its size, and a VectorList its item count and each item's size, as 32-bit counts.
  const unsigned dims = f.kind == detail::FieldKind::Vector ? 1u : f.kind == detail::FieldKind::List ? 2u : 0u;
  if (dimIndex >= dims)
    throw poplar_error("getMaxFieldDim('" + vertexType + "', '" + fieldName + "', " + std::to_string(dimIndex) +
                       "): the field has " + std::to_string(dims) + " size dimension(s)" +
                       (dims ? " (0.." + std::to_string(dims - 1) + ")" : "; only Vector and VectorList fields do"));
  return double(std::numeric_limits<std::uint32_t>::max());
}

double Graph::getMaxVertexFieldValue(const std::string &vertexType, const std::string &fieldName) const {
  const detail::FieldInfo &f = fieldOf(*impl_, "getMaxVertexFieldValue", vertexType, fieldName);
  double largest = largestOf(f.elemTypeName);
  if (largest == 0.0)
    throw poplar_error("getMaxVertexFieldValue('" + vertexType + "', '" + fieldName + "'): the field's type '" +
                       f.elemTypeName + "' is not a number type");
  return largest;
}

} // namespace poplar
