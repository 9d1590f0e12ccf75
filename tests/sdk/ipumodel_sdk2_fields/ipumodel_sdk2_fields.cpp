// A user's program on the SDK 2.x fields of IPUModel: their Mk2 values; memoryBytesPerTile, tilesPerSuperTile,
// supportsSuperTileSendReceive, atomicStoreGranularity and interleavedMemoryElementIndex shape the target; the
// others are checked and change nothing; a field set under both of its names with different values is refused.
#include <string>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;

int main() {
  IPUModel mk2("ipu2");
  check(mk2.tilesPerSuperTile == 2 && mk2.memoryBytesPerTile == 638976 && mk2.supportsSuperTileSendReceive &&
            mk2.atomicStoreGranularity == 4 && mk2.interleavedMemoryElementIndex == 0,
        "ipu2: 2 tiles per supertile, 638976 bytes per tile, supertile send/receive, 4-byte atomic stores, "
        "interleaved memory from element 0");
  check(mk2.instructionBytes == 4 && mk2.globalExchangePacketBytes == 256 && mk2.tileLocalSyncSyncDelay == 6 &&
            mk2.tileLocalSyncExitDelay == 6 && mk2.supervisorInstrFetchDelay == 8 && mk2.workerInstrFetchDelay == 8,
        "ipu2: 4-byte instructions, 256-byte packets, sync delays of 6 cycles, fetch-ahead of 8 bytes");

  // Fields with an effect on the target.
  IPUModel small("ipu2");
  small.tilesPerIPU = 4;
  small.memoryBytesPerTile = 128 * 1024;
  small.atomicStoreGranularity = 8;
  small.tilesPerSuperTile = 4;
  small.interleavedMemoryElementIndex = 1;
  Target target = small.createTarget();
  check(target.getBytesPerTile() == 128 * 1024, "memoryBytesPerTile sets the tiles' memory (131072 bytes)");
  check(target.getAtomicStoreGranularity() == 8, "atomicStoreGranularity sets Target::getAtomicStoreGranularity");
  check(target.supportsExchangeBusSharing() && target.getTilesPerSharedExchangeBus() == 4,
        "tilesPerSuperTile sets Target::getTilesPerSharedExchangeBus");
  check(target.getInterleavedMemoryElementIndex() == 1, "interleavedMemoryElementIndex sets the target's index");
  IPUModel noSharing("ipu2");
  noSharing.tilesPerIPU = 4;
  noSharing.supportsSuperTileSendReceive = false;
  check(!noSharing.createTarget().supportsExchangeBusSharing(),
        "supportsSuperTileSendReceive = false turns exchange-bus sharing off");

  // A device with the smaller memory refuses a variable that does not fit one tile.
  Device device = small.createDevice();
  Graph graph(device.getTarget());
  Tensor big = graph.addVariable(FLOAT, {40 * 1024}, "big");
  graph.setTileMapping(big, 0);
  std::string oom = refusal<graph_memory_allocation_error>([&] { Engine engine(graph, program::Sequence{}); });
  check(has(oom, "tile 0"), "160 KiB on one 128 KiB tile is refused: " + oom.substr(0, oom.find('\n')));

  // Fields without effect: accepted when in range, refused with the field's name and range otherwise.
  IPUModel timing("ipu2");
  timing.tilesPerIPU = 4;
  timing.instructionBytes = 8;
  timing.globalExchangePacketBytes = 512;
  timing.tileLocalSyncSyncDelay = 20;
  timing.tileLocalSyncExitDelay = 20;
  timing.supervisorInstrFetchDelay = 16;
  timing.workerInstrFetchDelay = 16;
  check(timing.createTarget().getNumTiles() == 4, "changed timing fields are accepted");
  IPUModel zero("ipu2");
  zero.workerInstrFetchDelay = 0;
  check(has(refusal<invalid_option>([&] { zero.createTarget(); }), "IPUModel.workerInstrFetchDelay"),
        "workerInstrFetchDelay = 0 throws invalid_option naming the field");
  IPUModel odd("ipu2");
  odd.atomicStoreGranularity = 3;
  std::string oddWhy = refusal<invalid_option>([&] { odd.createTarget(); });
  check(has(oddWhy, "power of two"), "atomicStoreGranularity = 3 throws invalid_option: " + oddWhy);

  // Both names of one setting, different values: refused; the same value under both: accepted.
  IPUModel clash("ipu2");
  clash.memoryPerTile = 100000;
  clash.memoryBytesPerTile = 200000;
  std::string clashWhy = refusal<invalid_option>([&] { clash.createTarget(); });
  check(has(clashWhy, "memoryPerTile") && has(clashWhy, "memoryBytesPerTile") && has(clashWhy, "set one of them"),
        "memoryPerTile and memoryBytesPerTile disagreeing throws invalid_option: " + clashWhy);
  IPUModel agree("ipu2");
  agree.tilesPerIPU = 4;
  agree.memoryPerTile = agree.memoryBytesPerTile = 200000;
  check(agree.createTarget().getBytesPerTile() == 200000, "the same value under both names is accepted");
  check(small != mk2 && IPUModel("ipu2") == mk2, "operator== compares the SDK 2.x fields too");
  return checksDone("ipumodel_sdk2_fields: all checks passed");
}
