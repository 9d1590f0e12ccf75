// gcl allReduce (ADD, FLOAT) of BYTES (default 8 MiB) across 4 replicas on the ipu2 IPU Model (issue 19):
// simulated cycles, wall time and effective bandwidth (bytes reduced per second of wall time), beside a plain
// MPI_Allreduce of the same bytes measured alternately with it in the same run (bench_stats.hpp: median, min, max).
//
//   bench_gcl [MiB] [board]                       4 replicas in this process
//   poprun --num-instances 2 --num-replicas 4 bench_gcl [MiB] [board]    2 instances x 2 replicas through MPI
//
// In one process the MPI baseline runs on MPI_COMM_SELF (a copy); across instances it is the real reduction
// between the ranks. Only instance 0 prints.
//
// Why 8 MiB: the run simulates 4 x 1472 tiles, so each MiB costs wall time (measured at load 10 on 2 cores: 1 MiB
// 15.6 s for the whole benchmark, 4 MiB 18.9 s, 16 MiB 27 s, in one process and under poprun alike), while 64 MiB,
// the old default, ran past the runtime's 300 s host-sync timeout under load 25 and failed `make bench`. 8 MiB
// stays well under a minute under such load and is large enough that the fixed cost of a run does not hide the
// per-byte cost (effective MiB/s: 0.6 at 1 MiB, 1.4 at 4, 2.9 at 16).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <mpi.h>

#include <gcl/Collectives.hpp>
#include <popdist/popdist_poplar.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>

#include "bench_stats.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv); // gcl uses the program's MPI when it has one
  const double mib = argc > 1 ? std::atof(argv[1]) : 8.0;
  const char *board = argc > 2 ? argv[2] : "ipu2";
  const std::size_t n = std::size_t(mib * 1024 * 1024 / 4);
  const unsigned local = popdist::isPopdistEnvSet() ? popdist::getNumLocalReplicas() : 4;
  const unsigned total = popdist::isPopdistEnvSet() ? popdist::getNumTotalReplicas() : 4;
  const bool print = popdist::getInstanceIndex() == 0;
  const int runs = 3;

  IPUModel model(board);
  model.numIPUs = local;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(local));
  popops::addCodelets(graph);
  Tensor data = graph.addLinearlyMappedVariable(FLOAT, {n}, "data");
  Sequence prog;
  gcl::allReduceInPlace(graph, data, gcl::CollectiveOperator::ADD, prog);
  Clock::time_point t0 = Clock::now();
  Engine engine(graph, prog);
  const double compile = since(t0);
  engine.load(device);

  std::vector<float> send(n, 1.0f), recv(n);
  MPI_Comm comm = popdist::getNumInstances() > 1 ? MPI_COMM_WORLD : MPI_COMM_SELF;
  std::vector<std::uint64_t> cycles;
  bench::Pair p = bench::alternate(
      runs,
      [&] {
        MPI_Barrier(comm);
        Clock::time_point t = Clock::now();
        MPI_Allreduce(send.data(), recv.data(), int(n), MPI_FLOAT, MPI_SUM, comm);
        return since(t);
      },
      [&] {
        MPI_Barrier(comm);
        Clock::time_point t = Clock::now();
        engine.run(0);
        cycles.push_back(engine.getLastRunCycles());
        return since(t);
      });
  if (print) {
    const double bytes = double(n) * 4;
    const bool same = std::all_of(cycles.begin(), cycles.end(), [&](std::uint64_t c) { return c == cycles[0]; });
    std::printf("allReduce ADD of %.0f MiB FLOAT across %u replicas (%u instance(s) x %u) on %s: compile %.1f s\n",
                bytes / (1 << 20), total, popdist::getNumInstances(), local, board, compile);
    std::printf("  gcl allReduce: %s wall, %llu simulated cycles (%s in %d runs), %.3f MiB/s effective\n",
                bench::format(p.subject, 1.0, "s").c_str(), (unsigned long long)cycles.back(),
                same ? "identical" : "DIFFERENT", runs, bytes / p.subject.median() / (1 << 20));
    std::printf("  MPI_Allreduce over %s: %s wall, %.1f MiB/s; gcl / MPI wall-time ratio %.1f (medians)\n",
                comm == MPI_COMM_WORLD ? "the instances" : "one rank (MPI_COMM_SELF)",
                bench::format(p.baseline, 1e3, "ms").c_str(), bytes / p.baseline.median() / (1 << 20), p.ratio());
  }
  MPI_Finalize();
  return 0;
}
