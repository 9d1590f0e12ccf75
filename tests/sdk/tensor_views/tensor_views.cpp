// Tensor views as operands of copies, checked on the device: each view of a 4x6 INT variable is copied to its own
// variable on another tile, read back, and compared with the same view computed on the host.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Tensor.hpp>

#include <cstdio>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned R = 4, C = 6;

// The host's copy of the source: element (r, c) holds 100 * r + c.
int src(unsigned r, unsigned c) { return int(100 * r + c); }

struct Check {
  std::string name;
  Tensor dst;
  std::vector<int> want;
};

} // namespace

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());

  Tensor a = graph.addVariable(INT, {R, C}, "a");
  graph.setTileMapping(a, 0);
  graph.createHostWrite("a", a);
  Sequence prog;
  std::vector<Check> checks;

  // Adds a destination with the view's shape on tile 1, a copy into it, and the host's expected elements.
  auto add = [&](const std::string &name, const Tensor &view, const std::vector<int> &want) {
    Tensor dst = graph.addVariable(view.elementType(), view.shape(), name);
    graph.setTileMapping(dst, 1);
    prog.add(Copy(view, dst));
    graph.createHostRead(name, dst);
    Check c = {name, dst, want};
    checks.push_back(c);
  };

  std::vector<int> w;
  for (unsigned c = 0; c < C; ++c)
    for (unsigned r = 0; r < R; ++r)
      w.push_back(src(r, c));
  add("transpose", a.transpose(), w);

  w.clear();
  for (unsigned r = 0; r < R; ++r)
    for (unsigned c = 0; c < C; c += 2)
      w.push_back(src(r, c));
  add("subSample", a.subSample(2, 1), w);

  w.clear();
  for (unsigned c = 0; c < C; ++c)
    for (unsigned k = 0; k < 3; ++k)
      w.push_back(src(2, c));
  add("upsample", a[2].upsample(3, 0, UpsampleMethod::REPEAT), w);

  w.clear();
  for (unsigned k = 0; k < 3; ++k)
    for (unsigned c = 0; c < C; ++c)
      w.push_back(src(1, c));
  add("broadcast", a.slice(1, 2, 0).broadcast(3, 0), w);

  w.clear();
  for (unsigned r = R; r-- > 0;)
    for (unsigned c = 1; c < 4; ++c)
      w.push_back(src(r, c));
  add("reverse_slice", a.reverse(0).slice(Interval(1, 4), 1), w);

  w.clear();
  w.push_back(src(3, 5));
  add("index", a.index({3, 5}).reshape({1}), w);

  w.clear();
  for (unsigned c = 0; c < C; ++c)
    for (unsigned r = 0; r < R; ++r)
      w.push_back(src(r, c));
  add("dimRoll_flatten", a.expand({0}).dimRoll(2, 0).flatten(), w);

  w.clear();
  for (unsigned c = 0; c < C; ++c)
    w.push_back(src(0, c));
  for (unsigned c = 0; c < C; ++c)
    w.push_back(src(3, c));
  for (unsigned c = 0; c < C; ++c)
    w.push_back(src(0, c));
  add("concat_append", append(concat(a[0].expand({0}), a[3].expand({0})), a[0], 0), w);

  w.clear();
  for (unsigned r = 0; r < R; ++r)
    for (unsigned c = 0; c < C; ++c)
      w.push_back(src(r, c));
  add("reinterpret", a.reinterpret(UNSIGNED_INT).reshapePartial(1, 2, {2, 3}), w);

  std::vector<Tensor> cols = a.slices(std::vector<unsigned>{5, 0}, 1);
  w.clear();
  for (unsigned r = 0; r < R; ++r)
    w.push_back(src(r, 5));
  for (unsigned r = 0; r < R; ++r)
    w.push_back(src(r, 0));
  add("slices", concat(cols, 0), w);

  // A view as the destination: row 2 of `a` written reversed into `back`.
  Tensor back = graph.addVariable(INT, {C}, "back");
  graph.setTileMapping(back, 2);
  prog.add(Copy(a[2], back.reverse(0)));
  graph.createHostRead("back", back);
  w.clear();
  for (unsigned c = C; c-- > 0;)
    w.push_back(src(2, c));
  Check b = {"dst_reverse", back, w};
  checks.push_back(b);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<int> host(R * C);
  for (unsigned r = 0; r < R; ++r)
    for (unsigned c = 0; c < C; ++c)
      host[r * C + c] = src(r, c);
  engine.writeTensor("a", host.data(), host.data() + host.size());
  engine.run(0);

  int failures = 0;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Check &c = checks[i];
    std::vector<int> got(c.dst.numElements());
    engine.readTensor(c.name == "dst_reverse" ? "back" : c.name, got.data(), got.data() + got.size());
    bool ok = got == c.want;
    std::printf("%s %s: %s\n", c.name.c_str(), c.dst.shapeToString().c_str(), ok ? "ok" : "MISMATCH");
    if (!ok) {
      ++failures;
      for (std::size_t k = 0; k < got.size(); ++k)
        std::printf("  [%zu] got %d want %d\n", k, got[k], c.want[k]);
    }
  }
  std::printf("aliases: broadcast %d, upsample %d, transpose %d\n", int(a.broadcast(2, 0).containsAliases()),
              int(a.upsample(2, 1).containsAliases()), int(a.transpose().containsAliases()));
  std::printf("regions of a column: %zu\n", a.slice(2, 3, 1).getContiguousRegions().size());
  std::printf("%s\n", failures ? "FAILED" : "all views match");
  return failures ? 1 : 0;
}
