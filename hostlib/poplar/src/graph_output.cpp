// Graph::outputVertexGraph and outputComputeGraph: the graph as GraphViz dot text, for looking at what was built.
#include <set>
#include <sstream>

#include "graph_impl.hpp"
#include "poplar/Graph.hpp"

namespace poplar {

namespace {

using detail::GraphImpl;

std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s)
    out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

/// For each edge of vertex `vi`: the variables it touches and whether the vertex reads and/or writes them.
template <typename Fn> void forEachEdge(const GraphImpl &g, unsigned vi, Fn fn) {
  const detail::Vertex &v = g.vertices[vi];
  auto cls = g.codelets.classes.find(v.type);
  auto visit = [&](const std::string &field, const Tensor &t) {
    if (!t.valid())
      return;
    detail::FieldDir dir = detail::FieldDir::InOut;
    if (cls != g.codelets.classes.end()) {
      auto f = cls->second.fields.find(field);
      if (f != cls->second.fields.end())
        dir = f->second.dir;
    }
    std::set<unsigned> vars;
    for (const auto &r : t.regions())
      vars.insert(r.var);
    for (unsigned var : vars)
      fn(field, var, dir != detail::FieldDir::Out, dir == detail::FieldDir::Out || dir == detail::FieldDir::InOut);
  };
  for (const auto &e : v.edges)
    visit(e.first, e.second);
  for (const auto &l : v.lists)
    for (const auto &t : l.second)
      visit(l.first, t);
}

void variableNodes(std::ostream &os, const GraphImpl &g, const std::set<unsigned> &used) {
  for (unsigned var : used)
    os << "  var" << var << " [shape=box, label=" << quoted(g.vars[var].name) << "];\n";
}

} // namespace

void Graph::outputVertexGraph(std::ostream &out, const std::vector<program::Program> &) const {
  const GraphImpl &g = *impl_;
  std::ostringstream edges;
  std::set<unsigned> used;
  out << "digraph vertices {\n";
  for (unsigned vi = 0; vi < g.vertices.size(); ++vi) {
    const auto &v = g.vertices[vi];
    std::string tile = v.tile == detail::kUnmapped ? "unmapped" : "tile " + std::to_string(v.tile);
    out << "  v" << vi << " [label=" << quoted(v.type + " (" + tile + ")") << "];\n";
    forEachEdge(g, vi, [&](const std::string &field, unsigned var, bool reads, bool writes) {
      used.insert(var);
      if (reads)
        edges << "  var" << var << " -> v" << vi << " [label=" << quoted(field) << "];\n";
      if (writes)
        edges << "  v" << vi << " -> var" << var << " [label=" << quoted(field) << "];\n";
    });
  }
  variableNodes(out, g, used);
  out << edges.str() << "}\n";
}

void Graph::outputComputeGraph(std::ostream &out, const std::vector<program::Program> &) const {
  const GraphImpl &g = *impl_;
  std::set<std::pair<unsigned, unsigned>> reads, writes; // (compute set, variable)
  std::set<unsigned> used;
  out << "digraph computesets {\n";
  for (unsigned cs = 0; cs < g.computeSets.size(); ++cs) {
    const auto &info = g.computeSets[cs];
    out << "  cs" << cs << " [shape=ellipse, label="
        << quoted((info.name.empty() ? "cs" + std::to_string(cs) : info.name) + " (" +
                  std::to_string(info.vertices.size()) + " vertices)")
        << "];\n";
    for (unsigned vi : info.vertices)
      forEachEdge(g, vi, [&](const std::string &, unsigned var, bool r, bool w) {
        used.insert(var);
        if (r)
          reads.insert({cs, var});
        if (w)
          writes.insert({cs, var});
      });
  }
  variableNodes(out, g, used);
  for (const auto &rw : reads)
    out << "  var" << rw.second << " -> cs" << rw.first << ";\n";
  for (const auto &rw : writes)
    out << "  cs" << rw.first << " -> var" << rw.second << ";\n";
  out << "}\n";
}

} // namespace poplar
