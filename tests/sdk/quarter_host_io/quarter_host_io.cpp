// Host I/O of QUARTER tensors as Graphcore's PopLibs tests do it: Engine::writeTensor/readTensor with a
// QuarterMetadata move a tensor's 8-bit values and its metadata together; convertToDeviceType takes a vector and a
// NaN-on-overflow flag; Graph::setInitialValue takes an ArrayRef. And the documented refusals.
#include <cmath>
#include <iostream>
#include <limits>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/MetadataCreation.hpp>
#include <poplar/TypeConversion.hpp>

using namespace poplar;

int main() {
  IPUModel model;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  // A QUARTER variable whose metadata starts as (F143, 0); the host then writes (F152, 3) with the values.
  Tensor md = createVariableMetadataTensor(graph, QuarterMetadata::Format::F143, 0, "md");
  Tensor q = graph.addVariable(QUARTER, md, {4}, "q");
  graph.setTileMapping(q, 0);
  graph.createHostWrite("q", q);
  graph.createHostRead("q", q);
  graph.createHostRead("md", md);
  Tensor f = graph.addVariable(FLOAT, {3}, "f");
  graph.setTileMapping(f, 1);
  std::vector<float> init;
  init.push_back(1.5f);
  init.push_back(-2.0f);
  init.push_back(4.0f);
  graph.setInitialValue(f, ArrayRef<float>(init));
  graph.createHostRead("f", f);
  graph.createHostWrite("f", f);

  Engine engine(graph, program::Sequence());
  engine.load(device);
  const QuarterMetadata written(QuarterMetadata::Format::F152, 3);
  std::vector<float> host;
  host.push_back(1.0f);
  host.push_back(-2.0f);
  host.push_back(0.5f);
  host.push_back(24.0f);
  std::vector<unsigned char> bytes(4), back(4);
  convertToDeviceType(QUARTER, written, host, bytes.data());
  engine.writeTensor("q", written, bytes.data(), bytes.data() + bytes.size());
  engine.run(0);

  QuarterMetadata read;
  engine.readTensor("q", read, back.data(), back.data() + back.size());
  std::vector<float> decoded(4);
  convertFromDeviceType(QUARTER, read, back.data(), decoded);
  std::cout << "read metadata: " << read << " same bytes: " << (back == bytes ? "yes" : "no") << "\n";
  std::cout << "decoded: " << decoded[0] << " " << decoded[1] << " " << decoded[2] << " " << decoded[3] << "\n";
  // The device's QUARTER_METADATA tensor holds what the host wrote (bit 7 the format, bits 0-5 the scale).
  unsigned char mdByte = 0;
  engine.readTensor("md", &mdByte, &mdByte + 1);
  std::cout << "device metadata byte: " << unsigned(mdByte) << " = getBinary: "
            << (mdByte == written.getBinary() ? "yes" : "no") << "\n";

  std::vector<float> fv(3);
  engine.readTensor("f", fv.data(), fv.data() + fv.size());
  std::cout << "setInitialValue(ArrayRef): " << fv[0] << " " << fv[1] << " " << fv[2] << "\n";

  // 1000 is past F143's largest value (240): NaN (byte 128) in NaN-on-overflow mode, saturated (127) otherwise;
  // an infinity is NaN either way.
  std::vector<float> big;
  big.push_back(1000.0f);
  big.push_back(std::numeric_limits<float>::infinity());
  big.push_back(244.0f);
  std::vector<unsigned char> nanoo(3), saturate(3);
  const QuarterMetadata f143(QuarterMetadata::Format::F143, 0);
  convertToDeviceType(QUARTER, f143, ArrayRef<float>(big), nanoo.data(), true);
  convertToDeviceType(QUARTER, f143, ArrayRef<float>(big), saturate.data(), false);
  std::cout << "nanoo: " << unsigned(nanoo[0]) << " " << unsigned(nanoo[1]) << " 244 rounds to 240: "
            << unsigned(nanoo[2]) << "\n";
  std::cout << "saturate: " << unsigned(saturate[0]) << " " << unsigned(saturate[1]) << "\n";

  try {
    engine.writeTensor("f", written, fv.data(), fv.data() + fv.size());
    std::cout << "metadata write to a FLOAT tensor accepted\n";
  } catch (const poplar_error &e) {
    std::cout << "refused: " << e.what() << "\n";
  }
  try {
    graph.setInitialValue(f, ArrayRef<float>(host));
    std::cout << "4 values for 3 elements accepted\n";
  } catch (const poplar_error &e) {
    std::cout << "refused: " << e.what() << "\n";
  }
  return 0;
}
