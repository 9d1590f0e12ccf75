// Graph::serialize, serializeTensors and deserializeTensors. Each builds one ProfileValue document and writes it
// with the profile writers (serializeToJSON pretty-printed for SerializationFormat::JSON, serializeToCBOR for
// Binary); deserializeTensors reads it back with parseProfileCBOR. The SDK's binary form is CapnProto; ours is
// CBOR, since no other program reads these files (the SDK's are for its own debugging and tests too).
//
// A tensor is written as its element type, its shape and its "expression": the runs of variable elements it views,
// in row-major order, [variable, begin, end] (a fourth number names the replica of a getNonReplicatedTensor view).
// Tile numbers are the top-level graph's, as the graph state keeps them.
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>

#include "graph_impl.hpp"
#include "program_node.hpp"
#include "poplar/Graph.hpp"
#include "poplar/ProfileValue.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace {

using detail::GraphImpl;
using detail::VarRegion;

constexpr const char *kGraphFormat = "poplar-graph";
constexpr const char *kTensorsFormat = "poplar-tensors";
constexpr unsigned kVersion = 1;

ProfileValue sizesValue(const std::vector<std::size_t> &v) {
  ProfileValue::Vector out;
  for (std::size_t n : v)
    out.push_back(ProfileValue(static_cast<unsigned long long>(n)));
  return ProfileValue(out);
}

ProfileValue typeValue(const Type &t) {
  ProfileValue::Map m;
  m["name"] = ProfileValue(t.toString());
  m["id"] = ProfileValue(t.id());
  return ProfileValue(m);
}

/// A tensor's type, shape and regions; `varIndex` gives the number a variable has in the document.
ProfileValue tensorValue(const Tensor &t, const std::function<unsigned(unsigned)> &varIndex) {
  ProfileValue::Map m;
  m["type"] = typeValue(t.elementType());
  m["shape"] = sizesValue(t.shape());
  ProfileValue::Vector regions;
  for (const VarRegion &r : t.regions()) {
    ProfileValue::Vector run{ProfileValue(varIndex(r.var)), ProfileValue(static_cast<unsigned long long>(r.begin)),
                             ProfileValue(static_cast<unsigned long long>(r.end))};
    if (r.replica != detail::kLocalReplica)
      run.push_back(ProfileValue(r.replica));
    regions.push_back(ProfileValue(run));
  }
  m["regions"] = ProfileValue(regions);
  return ProfileValue(m);
}

/// A variable's name, type, shape and tile mapping ([begin, end, tile] runs; unmapped runs left out).
ProfileValue variableValue(const detail::Variable &v) {
  ProfileValue::Map m;
  m["name"] = ProfileValue(v.name);
  m["type"] = typeValue(v.type);
  m["shape"] = sizesValue(v.shape);
  m["constant"] = ProfileValue(v.constant);
  ProfileValue::Vector mapping;
  v.mapping.forEach([&](std::size_t begin, std::size_t end, unsigned tile) {
    if (tile != detail::kUnmapped)
      mapping.push_back(ProfileValue(ProfileValue::Vector{ProfileValue(static_cast<unsigned long long>(begin)),
                                                          ProfileValue(static_cast<unsigned long long>(end)),
                                                          ProfileValue(tile)}));
  });
  m["mapping"] = ProfileValue(mapping);
  return ProfileValue(m);
}

void write(std::ostream &out, const ProfileValue &doc, SerializationFormat format) {
  if (format == SerializationFormat::JSON)
    serializeToJSON(out, doc, true);
  else
    serializeToCBOR(out, doc);
}

unsigned sameIndex(unsigned var) { return var; }



/// The data transfers of a program tree (Copy between tensors, to and from streams): the variables they move.
void collectCopies(const program::detail::Node &n, ProfileValue::Vector &copies) {
  using program::detail::Kind;
  ProfileValue::Map c;
  if (n.kind == Kind::Copy) {
    c["src"] = tensorValue(n.src, sameIndex);
    c["dst"] = tensorValue(n.dst, sameIndex);
  } else if (n.kind == Kind::StreamIn) {
    c["stream"] = ProfileValue(n.stream.handle());
    c["dst"] = tensorValue(n.dst, sameIndex);
  } else if (n.kind == Kind::StreamOut) {
    c["src"] = tensorValue(n.src, sameIndex);
    c["stream"] = ProfileValue(n.stream.handle());
  }
  if (!c.empty())
    copies.push_back(ProfileValue(c));
  for (const auto &child : n.children)
    if (child)
      collectCopies(*child, copies);
}

/// Reads field `key` of `v` as an unsigned integer no larger than `limit`; throws poplar_error naming `what`.
std::uint64_t readCount(const ProfileValue &v, const std::string &what, std::uint64_t limit) {
  std::uint64_t n = v.asUInt();
  if (n > limit)
    throw poplar_error("deserializeTensors: " + what + " is " + std::to_string(n) + ", more than " +
                       std::to_string(limit) + "; read the tensors into a graph of the target that wrote them");
  return n;
}

Type readType(const ProfileValue &v, const std::string &what) {
  Type t(unsigned(readCount(v["id"], what + "'s type id", ~0u)));
  if (!t.isValid() || t.toString() != v["name"].asString())
    throw poplar_error("deserializeTensors: " + what + " has type \"" + v["name"].asString() +
                       "\", which this Poplar does not know");
  return t;
}

std::vector<std::size_t> readShape(const ProfileValue &v, const std::string &what) {
  std::vector<std::size_t> shape;
  for (const auto &d : v.asVector())
    shape.push_back(std::size_t(readCount(d, what + "'s dimension", std::uint64_t(1) << 48)));
  return shape;
}

std::size_t product(const std::vector<std::size_t> &shape) {
  std::size_t n = 1;
  for (std::size_t d : shape)
    n *= d;
  return n;
}

} // namespace

/// The tensors of a serializeTensors document (defined below deserializeTensors, which checks its header).
static std::vector<Tensor> addTensors(Graph &graph, const ProfileValue &doc);

void Graph::serialize(std::ostream &out, SerializationFormat format) const {
  serialize(out, ArrayRef<program::Program>(), format);
}

void Graph::serialize(std::ostream &out, ArrayRef<program::Program> progs, SerializationFormat format) const {
  const GraphImpl &g = *impl_;
  ProfileValue::Map doc;
  doc["format"] = ProfileValue(kGraphFormat);
  doc["version"] = ProfileValue(kVersion);
  ProfileValue::Map target;
  target["type"] = ProfileValue(toString(g.target.getTargetType()));
  target["numIPUs"] = ProfileValue(g.target.getNumIPUs());
  target["tilesPerIPU"] = ProfileValue(g.target.getTilesPerIPU());
  target["numTiles"] = ProfileValue(g.target.getNumTiles());
  doc["target"] = ProfileValue(target);
  doc["replicationFactor"] = ProfileValue(g.replicationFactor);
  ProfileValue::Vector vars, computeSets, vertices, streams, copies;
  for (const auto &v : g.vars)
    vars.push_back(variableValue(v));
  for (const auto &cs : g.computeSets) {
    ProfileValue::Vector ids;
    for (unsigned id : cs.vertices)
      ids.push_back(ProfileValue(id));
    computeSets.push_back(ProfileValue(ProfileValue::Map{{"name", ProfileValue(cs.name)},
                                                         {"vertices", ProfileValue(ids)}}));
  }
  for (const auto &v : g.vertices) {
    ProfileValue::Map m, edges, lists;
    m["type"] = ProfileValue(v.type);
    m["computeSet"] = ProfileValue(v.computeSet);
    if (v.tile != detail::kUnmapped)
      m["tile"] = ProfileValue(v.tile);
    for (const auto &e : v.edges)
      edges[e.first] = tensorValue(e.second, sameIndex);
    for (const auto &l : v.lists) {
      ProfileValue::Vector items;
      for (const auto &t : l.second)
        items.push_back(tensorValue(t, sameIndex));
      lists[l.first] = ProfileValue(items);
    }
    m["edges"] = ProfileValue(edges);
    m["lists"] = ProfileValue(lists);
    vertices.push_back(ProfileValue(m));
  }
  for (const auto &s : g.streams)
    streams.push_back(ProfileValue(ProfileValue::Map{
        {"name", ProfileValue(s.name)},
        {"type", typeValue(s.type)},
        {"numElements", ProfileValue(static_cast<unsigned long long>(s.numElements))},
        {"toDevice", ProfileValue(s.direction == DataStreamType::HostToDeviceFIFO)}}));
  for (const auto &p : progs)
    if (p.node())
      collectCopies(*p.node(), copies);
  doc["variables"] = ProfileValue(vars);
  doc["computeSets"] = ProfileValue(computeSets);
  doc["vertices"] = ProfileValue(vertices);
  doc["streams"] = ProfileValue(streams);
  doc["copies"] = ProfileValue(copies);
  write(out, ProfileValue(doc), format);
}

void Graph::serializeTensors(std::ostream &out, ArrayRef<Tensor> tensors, SerializationFormat format) const {
  // The variables the tensors use, numbered in order of first use.
  std::map<unsigned, unsigned> index;
  std::vector<unsigned> used;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor &t = tensors[i];
    if (!t.valid())
      throw poplar_error("serializeTensors: tensor " + std::to_string(i) +
                         " is invalid (default-constructed); pass tensors made by this graph");
    if (t.graphImpl() != impl_.get())
      throw poplar_error("serializeTensors: tensor " + std::to_string(i) + " (" + detail::describe(t) +
                         ") belongs to another graph; serialize it with the graph that made it");
    for (const auto &r : t.regions())
      if (index.emplace(r.var, unsigned(used.size())).second)
        used.push_back(r.var);
  }
  ProfileValue::Map doc;
  doc["format"] = ProfileValue(kTensorsFormat);
  doc["version"] = ProfileValue(kVersion);
  ProfileValue::Vector vars, list;
  for (unsigned var : used)
    vars.push_back(variableValue(impl_->vars[var]));
  for (std::size_t i = 0; i < tensors.size(); ++i)
    list.push_back(tensorValue(tensors[i], [&](unsigned var) { return index.at(var); }));
  doc["variables"] = ProfileValue(vars);
  doc["tensors"] = ProfileValue(list);
  write(out, ProfileValue(doc), format);
}

std::vector<Tensor> Graph::deserializeTensors(std::istream &in, SerializationFormat format) {
  if (format != SerializationFormat::Binary)
    throw poplar_error("deserializeTensors: only SerializationFormat::Binary can be read back (JSON is for "
                       "reading by people); write the tensors with serializeTensors(out, tensors, "
                       "SerializationFormat::Binary)");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string fix = "; pass a stream written by Graph::serializeTensors with SerializationFormat::Binary "
                          "(open files with std::ios::binary)";
  ProfileValue doc;
  try {
    doc = parseProfileCBOR(bytes);
  } catch (const profiling_error &e) {
    throw poplar_error(std::string("deserializeTensors: the stream is not CBOR (") + e.what() + ")" + fix);
  }
  if (!doc.isMap() || !doc.contains("format") || !doc["format"].isString() ||
      doc["format"].asString() != kTensorsFormat)
    throw poplar_error("deserializeTensors: the stream holds another document than serializeTensors writes" + fix);
  if (!doc.contains("version") || !doc["version"].isInteger() || doc["version"].asUInt() != kVersion)
    throw poplar_error("deserializeTensors: the stream's format version is not " + std::to_string(kVersion) +
                       ", the one this Poplar reads" + fix);
  try {
    return addTensors(*this, doc);
  } catch (const profiling_error &e) {
    throw poplar_error(std::string("deserializeTensors: the stream is malformed (") + e.what() + ")" + fix);
  }
}

/// Each variable the tensors use is made anew in `graph`, mapped as it was.
static std::vector<Tensor> addTensors(Graph &graph, const ProfileValue &doc) {
  GraphImpl &g = graph.impl();
  // Everything is checked before the graph changes, so a bad stream adds nothing.
  struct NewVar {
    std::string name;
    Type type;
    std::vector<std::size_t> shape;
    std::vector<std::vector<std::uint64_t>> mapping;
  };
  std::vector<NewVar> vars;
  const unsigned numTiles = g.target.getNumTiles();
  for (const auto &v : doc["variables"].asVector()) {
    const std::string what = "variable " + std::to_string(vars.size());
    NewVar nv{v["name"].asString(), readType(v["type"], what), readShape(v["shape"], what), {}};
    const std::size_t n = product(nv.shape);
    for (const auto &run : v["mapping"].asVector()) {
      std::uint64_t begin = readCount(run[0], what + "'s mapped run start", n);
      std::uint64_t end = readCount(run[1], what + "'s mapped run end", n);
      std::uint64_t tile = readCount(run[2], what + "'s tile", numTiles - 1);
      if (begin >= end)
        throw poplar_error("deserializeTensors: " + what + " has an empty mapped run");
      nv.mapping.push_back({begin, end, tile});
    }
    vars.push_back(nv);
  }
  struct NewTensor {
    Type type;
    std::vector<std::size_t> shape;
    std::vector<VarRegion> regions;
  };
  std::vector<NewTensor> tensors;
  for (const auto &t : doc["tensors"].asVector()) {
    const std::string what = "tensor " + std::to_string(tensors.size());
    NewTensor nt{readType(t["type"], what), readShape(t["shape"], what), {}};
    std::size_t count = 0;
    for (const auto &run : t["regions"].asVector()) {
      unsigned var = unsigned(readCount(run[0], what + "'s variable", vars.size() - 1));
      if (vars.empty() || vars[var].type.getSize() != nt.type.getSize())
        throw poplar_error("deserializeTensors: " + what + " is " + nt.type.toString() + " but views variable " +
                           std::to_string(var) + " of " + (vars.empty() ? "(none)" : vars[var].type.toString()));
      const std::size_t n = product(vars[var].shape);
      VarRegion r{var, std::size_t(readCount(run[1], what + "'s run start", n)),
                  std::size_t(readCount(run[2], what + "'s run end", n)), detail::kLocalReplica};
      if (run.size() > 3)
        r.replica = unsigned(readCount(run[3], what + "'s replica", g.replicationFactor - 1));
      if (r.begin >= r.end)
        throw poplar_error("deserializeTensors: " + what + " has an empty run");
      count += r.end - r.begin;
      nt.regions.push_back(r);
    }
    if (count != product(nt.shape))
      throw poplar_error("deserializeTensors: " + what + " has " + std::to_string(product(nt.shape)) +
                         " elements by its shape but its runs hold " + std::to_string(count));
    tensors.push_back(nt);
  }
  // Each variable used becomes a new variable of this graph, mapped as it was.
  std::vector<unsigned> ids;
  for (const auto &nv : vars) {
    const unsigned id = unsigned(g.vars.size()); // addVariable's new variable (a QUARTER's metadata follows)
    graph.addVariable(nv.type, nv.shape, nv.name);
    for (const auto &run : nv.mapping)
      g.vars[id].mapping.assign(std::size_t(run[0]), std::size_t(run[1]), unsigned(run[2]));
    ids.push_back(id);
  }
  std::vector<Tensor> out;
  for (auto &nt : tensors) {
    for (auto &r : nt.regions)
      r.var = ids[r.var];
    out.push_back(Tensor(&g, nt.type, nt.shape,
                         std::make_shared<const std::vector<VarRegion>>(std::move(nt.regions))));
  }
  return out;
}

} // namespace poplar
