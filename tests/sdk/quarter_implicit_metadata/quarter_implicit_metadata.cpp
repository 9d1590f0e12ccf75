// QUARTER tensors made without explicit metadata, as Graphcore's PopLibs tests make them: Graph::addVariable
// gives such a variable a metadata variable of its own, which the host writes with the values, casts read, and the
// slicing functions pass on to their results. And the NaN-on-overflow (nanoo) field of setFloatingPointBehaviour,
// which chooses between NaN and saturation for a value too large for QUARTER, in program order.
#include <cmath>
#include <string>
#include <vector>

#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/MetadataCreation.hpp>
#include <poplar/TypeConversion.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {
const unsigned char kNaN = 0x80;     // QUARTER's one NaN
const unsigned char kLargest = 0x7f; // F143's largest positive value (240 at scale 0)

// A FLOAT -> QUARTER cast of `in` with metadata (F143, 0), read back as "name" (bytes).
Tensor castToQuarter(Graph &graph, const Tensor &in, Sequence &prog, const std::string &name) {
  Tensor md = createVariableMetadataTensor(graph, QuarterMetadata::Format::F143, 0, name + "/md");
  Tensor out = popops::cast(graph, in, QUARTER, md, prog, name);
  graph.createHostRead(name, out);
  return out;
}
} // namespace

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  // 1. addVariable(QUARTER, shape) has metadata; other types have none.
  Tensor q = graph.addVariable(QUARTER, {6}, "q");
  poputil::mapTensorLinearly(graph, q);
  check(q.hasMetadata(), "a QUARTER variable made without metadata has metadata");
  Tensor qmd = q.getMetadata();
  check(qmd.elementType() == QUARTER_METADATA && qmd.numElements() == 1, "its metadata is one QUARTER_METADATA");
  check(graph.getTileMapping(qmd)[0].size() == 1, "its metadata is mapped (tile 0)");
  Tensor q2 = graph.addVariable(QUARTER, {2}, "q2");
  check(q2.getMetadata().getVarRegions() != qmd.getVarRegions(), "each QUARTER variable has its own metadata");
  Tensor f = graph.addVariable(FLOAT, {2}, "f");
  graph.setTileMapping(f, 1);
  check(!f.hasMetadata(), "a FLOAT variable has no metadata");
  graph.setTileMapping(q2, 1);

  // 2. The host writes values and metadata together; a cast reads the values with that metadata.
  graph.createHostWrite("q", q);
  Sequence prog;
  Tensor asFloat = popops::cast(graph, q, FLOAT, prog, "fromQuarter");
  graph.createHostRead("asFloat", asFloat);

  // 3. Slices of a sliceable QUARTER tensor carry its metadata's value; an update leaves the base's alone.
  popops::SlicePlan plan;
  Tensor table = popops::createSliceableTensor(graph, QUARTER, {8, 2}, {0}, {1}, plan, {}, "table");
  prog.add(Copy(createConstantMetadataTensor(graph, QuarterMetadata::Format::F152, -3), table.getMetadata()));
  Tensor ids = graph.addConstant(UNSIGNED_INT, {2, 1}, 1u, "ids");
  graph.setTileMapping(ids, 0);
  Tensor rows = popops::multiSlice(graph, table, ids, {0}, {1}, prog, plan, {}, "rows");
  Tensor one = graph.addConstant(UNSIGNED_INT, {1}, 3u, "one");
  graph.setTileMapping(one, 0);
  Tensor row = popops::dynamicSlice(graph, table, one, {0}, {1}, prog, "row");
  Tensor rows2 = popops::multiSlice(graph, table, ids, {0}, {1}, prog, plan, {}, "rows2");
  prog.add(Copy(createConstantMetadataTensor(graph, QuarterMetadata::Format::F143, 5), rows.getMetadata()));
  popops::multiUpdate(graph, table, rows, ids, {0}, {1}, prog, plan, {}, "update");
  popops::SlicePlan groupedPlan = popops::embedding::plan(graph, QUARTER, 2, 8, 2, {1}, {});
  Tensor grouped =
      popops::createGroupedSliceableTensor(graph, QUARTER, 2, {8, 2}, {0}, {1}, groupedPlan, {}, "grouped");
  Tensor groupedOut = popops::createGroupedSliceTensor(graph, QUARTER, 2, {8, 2}, {0}, {1}, 3, groupedPlan, {}, "go");
  check(grouped.hasMetadata() && grouped.getMetadata().numElements() == 1 &&
            groupedOut.hasMetadata() && groupedOut.getMetadata().numElements() == 1,
        "a grouped QUARTER tensor (sliceable, slice) has one metadata for all its groups");
  graph.createHostRead("tableMd", table.getMetadata());
  graph.createHostRead("rowMd", row.getMetadata());
  graph.createHostRead("rows2Md", rows2.getMetadata());

  // 4. nanoo: 1000 is past F143's largest (240). Saturation before any setting and with nanoo off, NaN with it
  // on; getAndModifyFloatingPointBehaviour saves the state and setFloatingPointBehaviour restores it.
  Tensor big = graph.addConstant(FLOAT, {2}, 1000.0f, "big");
  graph.setTileMapping(big, 2);
  castToQuarter(graph, big, prog, "byDefault");
  setFloatingPointBehaviour(graph, prog, FloatingPointBehaviour(false, false, false, false, true), "nanooOn");
  castToQuarter(graph, big, prog, "nanooOn");
  setFloatingPointBehaviour(graph, prog, FloatingPointBehaviour(false, false, false, false, false), "nanooOff");
  castToQuarter(graph, big, prog, "nanooOff");
  const FloatingPointBehaviour none(false, false, false, false, false), nanoo(false, false, false, false, true);
  Tensor saved = getAndModifyFloatingPointBehaviour(graph, prog, none, nanoo, "save");
  castToQuarter(graph, big, prog, "modified");
  setFloatingPointBehaviour(graph, prog, saved, "restore");
  castToQuarter(graph, big, prog, "restored");

  Engine engine(graph, prog);
  engine.load(device);
  const QuarterMetadata md(QuarterMetadata::Format::F143, 2);
  std::vector<float> host;
  for (int i = 0; i < 6; ++i)
    host.push_back(float(i) - 2.5f);
  std::vector<unsigned char> bytes(6);
  convertToDeviceType(QUARTER, md, host, bytes.data());
  engine.writeTensor("q", md, bytes.data(), bytes.data() + bytes.size());
  engine.run(0);

  std::vector<float> got(6);
  engine.readTensor("asFloat", got.data(), got.data() + got.size());
  check(got == host, "a cast of the implicit-metadata QUARTER reads it with the metadata the host wrote");
  unsigned char tableMd = 0, rowMd = 0, rows2Md = 0;
  engine.readTensor("tableMd", &tableMd, &tableMd + 1);
  engine.readTensor("rowMd", &rowMd, &rowMd + 1);
  engine.readTensor("rows2Md", &rows2Md, &rows2Md + 1);
  const unsigned char want = QuarterMetadata(QuarterMetadata::Format::F152, -3).getBinary();
  check(tableMd == want, "multiUpdate leaves the sliceable tensor's metadata as it was");
  check(rowMd == want, "dynamicSlice's result has the sliced tensor's metadata");
  check(rows2Md == want, "multiSlice's result has the sliced tensor's metadata");
  const char *names[] = {"byDefault", "nanooOn", "nanooOff", "modified", "restored"};
  const unsigned char expect[] = {kLargest, kNaN, kLargest, kNaN, kLargest};
  const char *what[] = {"saturates before any setFloatingPointBehaviour",
                        "is NaN after setFloatingPointBehaviour with nanoo",
                        "saturates after setFloatingPointBehaviour without nanoo",
                        "is NaN after getAndModifyFloatingPointBehaviour sets nanoo",
                        "saturates again once setFloatingPointBehaviour restores the saved state"};
  for (int i = 0; i < 5; ++i) {
    unsigned char out[2] = {0, 0};
    engine.readTensor(names[i], out, out + 2);
    check(out[0] == expect[i] && out[1] == expect[i],
          std::string("a cast to QUARTER past the largest value ") + what[i]);
  }
  return checksDone("quarter implicit metadata: all checks passed");
}
