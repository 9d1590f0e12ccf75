// A two-stage pipeline on the first free 2-IPU device the DeviceManager lists: a virtual graph per IPU, the data
// crossing from IPU 0's tiles to IPU 1's between the stages. In the QEMU guest that device is a link group of two
// ipu-card devices (scripts/qemu/group-test.sh); on the host an in-process tiny2 card gives the reference output.
// The codelets are a precompiled .gp (argv[1], made by popc), since the guest has no RISC-V compiler.
#include <iostream>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>

using namespace poplar;
using namespace poplar::program;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " two_ipu_codelets.gp\n";
    return 2;
  }
  const unsigned numIPUs = 2;
  const std::size_t n = 32;
  const float gain[numIPUs] = {1.5f, -0.75f}, bias[numIPUs] = {0.25f, 3.0f};

  DeviceManager manager = DeviceManager::createDeviceManager();
  Device device;
  bool attached = false;
  for (auto &candidate : manager.getDevices(TargetType::IPU, numIPUs)) {
    device = std::move(candidate);
    if ((attached = device.attach()))
      break;
  }
  if (!attached) {
    std::cerr << "no free device with " << numIPUs << " IPUs (gc-info -l lists them)\n";
    return 1;
  }
  const Target &target = device.getTarget();
  const unsigned tilesPerIPU = target.getTilesPerIPU();
  std::cout << "device with " << target.getNumIPUs() << " IPUs of " << tilesPerIPU << " tiles\n";

  Graph graph(target);
  graph.addCodelets(argv[1]);
  DataStream input = graph.addHostToDeviceFIFO("input", FLOAT, n);
  DataStream output = graph.addDeviceToHostFIFO("output", FLOAT, n);
  Sequence prog;
  Tensor carried;
  for (unsigned ipu = 0; ipu < numIPUs; ++ipu) {
    Graph stage = graph.createVirtualGraph(ipu * tilesPerIPU, (ipu + 1) * tilesPerIPU);
    Tensor in = stage.addVariable(FLOAT, {n}, "stage_in");
    Tensor out = stage.addVariable(FLOAT, {n}, "stage_out");
    ComputeSet cs = stage.addComputeSet("stage");
    const std::size_t chunk = n / tilesPerIPU;
    for (unsigned tile = 0; tile < tilesPerIPU; ++tile) {
      Tensor inChunk = in.slice(tile * chunk, (tile + 1) * chunk);
      Tensor outChunk = out.slice(tile * chunk, (tile + 1) * chunk);
      stage.setTileMapping(inChunk, tile);
      stage.setTileMapping(outChunk, tile);
      VertexRef v = stage.addVertex(cs, "AffineStage", {{"in", inChunk}, {"out", outChunk}});
      stage.setInitialValue(v["gain"], gain[ipu]);
      stage.setInitialValue(v["bias"], bias[ipu]);
      stage.setTileMapping(v, tile);
    }
    prog.add(ipu == 0 ? Copy(input, in) : Copy(carried, in)); // IPU 1 takes IPU 0's result over the link
    prog.add(Execute(cs));
    carried = out;
  }
  prog.add(Copy(carried, output));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> in(n), out(n, 0.0f);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = float(i) * 0.5f - 7.0f;
  engine.connectStream("input", in.data());
  engine.connectStream("output", out.data());
  engine.run(0);

  std::size_t same = 0;
  for (std::size_t i = 0; i < n; ++i) {
    float want = in[i];
    for (unsigned ipu = 0; ipu < numIPUs; ++ipu)
      want = want * gain[ipu] + bias[ipu];
    same += out[i] == want;
    std::cout << out[i] << (i + 1 == n ? "\n" : " ");
  }
  std::cout << same << " of " << n << " values equal the host reference\n";
  return same == n ? 0 : 1;
}
