// QUARTER without explicit metadata, as a user of Graphcore's SDK writes it (C++11, -lpopops -lpoputil -lpoplar),
// on a one-tile and an ipu2-shaped IPU Model, each result checked against Poplar's own host conversions:
// - popops::cast's forms without a metadata argument: a cast to QUARTER is written with its destination's
//   metadata (the returning forms make the QUARTER result and its metadata; the forms given a QUARTER dst use
//   dst's); a QUARTER to QUARTER cast without metadata is a copy read with the source's metadata;
// - popops::groupedMultiSlice of a grouped QUARTER table gives one tensor with one metadata (the table's).
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/MetadataCreation.hpp>
#include <poplar/TypeConversion.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <string>
#include <vector>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t kN = 40;

// QUARTER bytes of `v` with metadata `md`, as the host converts them.
std::vector<unsigned char> toQuarter(const std::vector<float> &v, const QuarterMetadata &md) {
  std::vector<unsigned char> out(v.size());
  convertToDeviceType(QUARTER, md, v, out.data());
  return out;
}

void run(unsigned tiles, const std::string &label) {
  IPUModel model("ipu2");
  if (tiles != 0)
    model.tilesPerIPU = tiles;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Sequence prog;

  std::vector<float> host(kN);
  for (std::size_t i = 0; i < kN; ++i)
    host[i] = (float(i) - 17.0f) * 0.375f;
  Tensor x = graph.addVariable(FLOAT, {kN}, "x");
  poputil::mapTensorLinearly(graph, x);
  graph.createHostWrite("x", x);

  // 1. The returning forms: the result is QUARTER with a metadata of its own (F143, scale 0 unless rewritten).
  Tensor q1 = popops::cast(graph, x, QUARTER, prog, "q1");
  check(q1.elementType() == QUARTER && q1.hasMetadata(), label + ": cast(src, QUARTER, prog) makes a QUARTER "
                                                                  "result with metadata");
  ComputeSet cs = graph.addComputeSet("q2");
  Tensor q2 = popops::cast(graph, x, QUARTER, cs, "q2");
  prog.add(Execute(cs));
  check(q2.hasMetadata() && q2.getMetadata().getVarRegions() != q1.getMetadata().getVarRegions(),
        label + ": cast(src, QUARTER, cs) makes a QUARTER result with a metadata of its own");
  graph.createHostRead("q1", q1);
  graph.createHostRead("q2", q2);
  // The second result's metadata is rewritten before the program runs: the cast uses it.
  graph.createHostWrite("q2md", q2.getMetadata());

  // 2. Forms given a QUARTER destination: written with the destination's metadata.
  Tensor d1 = graph.addVariable(QUARTER, createConstantMetadataTensor(graph, QuarterMetadata::Format::F152, -2),
                                {kN}, "d1");
  poputil::mapTensorLinearly(graph, d1);
  popops::cast(graph, x, d1, prog, "d1");
  Tensor d2 = graph.addVariable(QUARTER, {kN}, "d2"); // implicit metadata, written by the host
  poputil::mapTensorLinearly(graph, d2);
  graph.createHostWrite("d2md", d2.getMetadata());
  prog.add(popops::cast(graph, x, d2, "d2"));
  graph.createHostRead("d1", d1);
  graph.createHostRead("d2", d2);

  // 3. QUARTER to QUARTER without metadata: a copy, read with the source's metadata.
  Tensor back = popops::cast(graph, popops::cast(graph, d1, QUARTER, prog, "qq"), FLOAT, prog, "back");
  graph.createHostRead("back", back);

  // 4. groupedMultiSlice of a grouped QUARTER table: one result, one metadata.
  const std::size_t groups = 2, rows = 6, cols = 4, ids = 3;
  popops::SlicePlan plan = popops::embedding::plan(graph, QUARTER, groups, rows, cols, {ids}, {});
  Tensor table = popops::createGroupedSliceableTensor(graph, QUARTER, groups, {rows, cols}, {0}, {1}, plan, {},
                                                      "table");
  graph.createHostWrite("table", table);
  Tensor offsets = popops::createGroupedIndicesTensor(graph, groups, {0}, ids, plan, {}, "offsets");
  graph.createHostWrite("offsets", offsets);
  Tensor sliced = popops::groupedMultiSlice(graph, table, offsets, {0}, {1}, prog, plan, {}, "sliced");
  bool one = false;
  try {
    one = sliced.getMetadata().numElements() == 1;
  } catch (const std::exception &e) {
    std::printf("  getMetadata: %s\n", e.what());
  }
  check(one, label + ": groupedMultiSlice's QUARTER result has one metadata");
  Tensor slicedF = popops::cast(graph, sliced, FLOAT, prog, "slicedF");
  graph.createHostRead("slicedF", slicedF);
  graph.createHostRead("slicedMd", sliced.getMetadata());

  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("x", host.data(), host.data() + kN);
  const QuarterMetadata q2md(QuarterMetadata::Format::F152, 3), d2md(QuarterMetadata::Format::F143, -1);
  const unsigned char q2byte = q2md.getBinary(), d2byte = d2md.getBinary();
  engine.writeTensor("q2md", &q2byte, &q2byte + 1);
  engine.writeTensor("d2md", &d2byte, &d2byte + 1);
  const QuarterMetadata tmd(QuarterMetadata::Format::F143, 1);
  std::vector<float> tableHost(groups * rows * cols);
  for (std::size_t i = 0; i < tableHost.size(); ++i)
    tableHost[i] = float(int(i % 13) - 6) * 0.5f;
  const std::vector<unsigned char> tableBytes = toQuarter(tableHost, tmd);
  engine.writeTensor("table", tmd, tableBytes.data(), tableBytes.data() + tableBytes.size());
  const unsigned offs[groups * ids] = {5, 0, 2, 1, 1, 4};
  engine.writeTensor("offsets", offs, offs + groups * ids);
  engine.run(0);

  std::vector<unsigned char> got(kN);
  engine.readTensor("q1", got.data(), got.data() + kN);
  check(got == toQuarter(host, QuarterMetadata()), label + ": the returning program form writes with its new "
                                                           "metadata (F143, scale 0)");
  engine.readTensor("q2", got.data(), got.data() + kN);
  check(got == toQuarter(host, q2md), label + ": the compute-set form writes with its metadata as the host set it "
                                              "(F152, 3)");
  const QuarterMetadata d1md(QuarterMetadata::Format::F152, -2);
  engine.readTensor("d1", got.data(), got.data() + kN);
  check(got == toQuarter(host, d1md), label + ": cast into a QUARTER dst uses dst's metadata (F152, -2)");
  engine.readTensor("d2", got.data(), got.data() + kN);
  check(got == toQuarter(host, d2md), label + ": cast into a dst with implicit metadata uses it (F143, -1)");
  std::vector<float> backGot(kN), backWant(kN);
  engine.readTensor("back", backGot.data(), backGot.data() + kN);
  const std::vector<unsigned char> d1bytes = toQuarter(host, d1md);
  convertFromDeviceType(QUARTER, d1md, d1bytes.data(), ArrayRef<float>(backWant));
  check(backGot == backWant, label + ": QUARTER to QUARTER without metadata is a copy read with the source's");
  // The table as QUARTER holds it (its values read back with its metadata).
  std::vector<float> tableRead(tableHost.size());
  convertFromDeviceType(QUARTER, tmd, tableBytes.data(), ArrayRef<float>(tableRead));
  std::vector<float> sliceGot(groups * ids * cols), sliceWant;
  engine.readTensor("slicedF", sliceGot.data(), sliceGot.data() + sliceGot.size());
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t k = 0; k < ids; ++k)
      for (std::size_t c = 0; c < cols; ++c)
        sliceWant.push_back(tableRead[(g * rows + offs[g * ids + k]) * cols + c]);
  check(sliceGot == sliceWant, label + ": groupedMultiSlice's rows match the host table");
  unsigned char mdByte = 0;
  engine.readTensor("slicedMd", &mdByte, &mdByte + 1);
  check(mdByte == tmd.getBinary(), label + ": its metadata is the table's");
}

} // namespace

int main() {
  run(1, "one tile");
  run(0, "ipu2");
  return checksDone("all QUARTER cast and grouped-slice checks passed");
}
