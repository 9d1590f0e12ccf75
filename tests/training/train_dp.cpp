// Data-parallel training (issue 19): a two-layer perceptron, p = softmax(relu(x W1 + b1) W2 + b2), trained with
// SGD on a synthetic, deterministic data set, its global batch split into kShards shards of kShardBatch examples.
//
// With R replicas (one IPU each), replica r takes kShards / R of the shards of every global batch, computes their
// gradients, and gcl::allReduceWithOutput sums them over the replicas; every replica applies the same update. The
// run must give the same weights, bit for bit, for R = 1 and R = kShards, so the sums are ordered alike:
//   - gcl's all-reduce gathers every replica's tensor into rows (replica 0 first, each row mapped like the tensor)
//     and folds them in replica order, ((row 0 + row 1) + row 2) + ..., one element-wise addition per row;
//   - with one replica, each shard's gradient is computed by the same graph code as a replica's, and the shards'
//     gradients are folded in shard order by gcl::foldInReplicaOrder (gcl/FoldOrder.hpp, an ipu-emu extension):
//     the very fold gcl's all-reduce applies to the replicas' rows, so the two orders cannot drift apart.
// Each shard's own gradient is thus the same computation on the same per-replica target (one IPU of `tiles`
// tiles), and the sum over shards adds the same numbers in the same order, so the weights are bit-identical. The
// program prints a hash of the final parameters; the test compares the hash of R = 1 with that of R = kShards.
//
// Which shards this process trains is one function, replicaSpan(): today every replica is local (offset 0, total
// = local replicas) when run alone; under poprun it returns this instance's first replica and the total (popdist).
//
// Usage: train_dp <local replicas: 1 or kShards; under poprun, this instance's share> [tiles per IPU, default 8]
//        poprun --num-instances 2 --num-replicas 4 train_dp 2   (2 instances x 2 replicas, same weights)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#define XXH_INLINE_ALL // header-only: no library to link (libxxhash-dev)
#include <xxhash.h>

#include <gcl/Collectives.hpp>
#include <gcl/FoldOrder.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popdist/popdist_poplar.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned kFeatures = 16, kHidden = 16, kClasses = 4;
const unsigned kShards = 4, kShardBatch = 8, kGlobalBatch = kShards * kShardBatch;
const unsigned kStepsPerEpoch = 8, kEpochs = 2;
const float kLearningRate = 0.5f;

// ---- Which replicas this process runs ---------------------------------------------------------------------------

// The replicas of this process within the whole run: the global index of its first replica and the number of
// replicas over all processes.
struct ReplicaSpan {
  unsigned offset, total;
};

// Under poprun (popdist's environment set) this instance runs replicas offset .. offset + local - 1 of all of them;
// run alone, every replica is local.
ReplicaSpan replicaSpan(unsigned localReplicas) {
  ReplicaSpan s;
  s.offset = 0;
  s.total = localReplicas;
  if (popdist::isPopdistEnvSet()) {
    if (popdist::getNumLocalReplicas() != localReplicas) {
      std::cerr << "train_dp: poprun gives this instance " << popdist::getNumLocalReplicas()
                << " replica(s) but the command line asks for " << localReplicas
                << "; pass the local replica count (--num-replicas / --num-instances)\n";
      std::exit(1);
    }
    s.offset = popdist::getReplicaIndexOffset();
    s.total = popdist::getNumTotalReplicas();
  }
  return s;
}

// ---- The data set -----------------------------------------------------------------------------------------------

// A linear congruential generator: the same numbers on every host. Uniform in [-1, 1).
struct Random {
  std::uint32_t state;
  explicit Random(std::uint32_t seed) : state(seed) {}
  float next() {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / 8388608.0f - 1.0f;
  }
};

// Example i of class i % kClasses: that class's random +-0.5 prototype plus uniform noise of +-1.
struct DataSet {
  std::vector<float> x;         // [examples, kFeatures]
  std::vector<unsigned> labels; // [examples]
};

DataSet makeData(unsigned examples) {
  Random r(19);
  std::vector<float> prototypes(kClasses * kFeatures);
  for (std::size_t i = 0; i < prototypes.size(); ++i)
    prototypes[i] = r.next() < 0 ? -0.5f : 0.5f;
  DataSet d;
  for (unsigned i = 0; i < examples; ++i) {
    const unsigned c = (i * 3 + i / kClasses) % kClasses;
    d.labels.push_back(c);
    for (unsigned f = 0; f < kFeatures; ++f)
      d.x.push_back(prototypes[c * kFeatures + f] + r.next());
  }
  return d;
}

// ---- The model on the device ------------------------------------------------------------------------------------

struct Params {
  Tensor w1, b1, w2, b2;
};

// The gradients of one shard of kShardBatch examples, in the order of Params.
std::vector<Tensor> shardGradients(Graph &graph, const Params &p, const Tensor &x, const Tensor &labels,
                                   Sequence &prog, const std::string &name) {
  Tensor h = poplin::matMul(graph, x, p.w1, prog, FLOAT, name + "/fwd1");
  popops::addInPlace(graph, h, p.b1, prog, name + "/bias1");
  popnn::reluInPlace(graph, h, prog, name + "/relu");
  Tensor logits = poplin::matMul(graph, h, p.w2, prog, FLOAT, name + "/fwd2");
  popops::addInPlace(graph, logits, p.b2, prog, name + "/bias2");
  Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX_STABLE, logits, prog, name + "/softmax");
  Tensor loss = graph.addVariable(FLOAT, {kShardBatch}, name + "/loss");
  Tensor deltas = graph.addVariable(FLOAT, {kShardBatch, kClasses}, name + "/deltas");
  poputil::mapTensorLinearly(graph, loss);
  poputil::mapTensorLinearly(graph, deltas);
  prog.add(popnn::calcLoss(graph, probs, labels, loss, deltas, popnn::CROSS_ENTROPY_LOSS, name + "/loss"));
  std::vector<Tensor> g(4);
  g[2] = poplin::matMul(graph, h.transpose(), deltas, prog, FLOAT, name + "/gradW2");
  g[3] = popops::reduce(graph, deltas, {0}, popops::Operation::ADD, prog, name + "/gradB2");
  Tensor dh = poplin::matMul(graph, deltas, p.w2.transpose(), prog, FLOAT, name + "/gradH");
  dh = popnn::nonLinearityInputGradient(graph, popnn::NonLinearityType::RELU, h, dh, prog, name + "/reluGrad");
  g[0] = poplin::matMul(graph, x.transpose(), dh, prog, FLOAT, name + "/gradW1");
  g[1] = popops::reduce(graph, dh, {0}, popops::Operation::ADD, prog, name + "/gradB1");
  return g;
}

// ---- The host -----------------------------------------------------------------------------------------------------

// The mean cross-entropy of `d` under parameters {w1, b1, w2, b2} (host float).
double hostLoss(const std::vector<std::vector<float> > &p, const DataSet &d) {
  const std::size_t n = d.labels.size();
  double sum = 0;
  for (std::size_t e = 0; e < n; ++e) {
    std::vector<float> h(kHidden), z(kClasses);
    for (unsigned o = 0; o < kHidden; ++o) {
      float s = p[1][o];
      for (unsigned i = 0; i < kFeatures; ++i)
        s += d.x[e * kFeatures + i] * p[0][i * kHidden + o];
      h[o] = std::max(s, 0.0f);
    }
    for (unsigned c = 0; c < kClasses; ++c) {
      float s = p[3][c];
      for (unsigned o = 0; o < kHidden; ++o)
        s += h[o] * p[2][o * kClasses + c];
      z[c] = s;
    }
    const float mx = *std::max_element(z.begin(), z.end());
    double total = 0;
    for (unsigned c = 0; c < kClasses; ++c)
      total += std::exp(double(z[c] - mx));
    sum += std::log(total) - double(z[d.labels[e]] - mx);
  }
  return sum / double(n);
}

// XXH3 over the bytes of every parameter, in order.
std::uint64_t hashOf(const std::vector<std::vector<float> > &p) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  for (std::size_t i = 0; i < p.size(); ++i)
    XXH3_64bits_update(&state, p[i].data(), p[i].size() * sizeof(float));
  return XXH3_64bits_digest(&state);
}

} // namespace

int main(int argc, char **argv) {
  const unsigned replicas = argc > 1 ? unsigned(std::atoi(argv[1])) : 0;
  const unsigned tiles = argc > 2 ? unsigned(std::atoi(argv[2])) : 8;
  const ReplicaSpan span = replicaSpan(replicas);
  if (replicas == 0 || (span.total != 1 && span.total != kShards) || tiles == 0) {
    std::cerr << "usage: " << argv[0] << " <local replicas: 1 or " << kShards
              << ", or under poprun the instance's share of " << kShards << "> [tiles per IPU]\n";
    return 1;
  }
  // Shards per replica: all of them with one replica, else one each (a replica's own gradient is then its shard's).
  const unsigned shardsPerReplica = kShards / span.total;
  const DataSet train = makeData(kStepsPerEpoch * kGlobalBatch);

  IPUModel ipuModel("ipu2");
  ipuModel.numIPUs = replicas;
  ipuModel.tilesPerIPU = tiles;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  const char *names[4] = {"w1", "b1", "w2", "b2"};
  Params p;
  p.w1 = graph.addVariable(FLOAT, {kFeatures, kHidden}, names[0]);
  p.b1 = graph.addVariable(FLOAT, {kHidden}, names[1]);
  p.w2 = graph.addVariable(FLOAT, {kHidden, kClasses}, names[2]);
  p.b2 = graph.addVariable(FLOAT, {kClasses}, names[3]);
  const Tensor params[4] = {p.w1, p.b1, p.w2, p.b2};
  Graph top = graph.getTopLevelGraph();
  for (unsigned i = 0; i < 4; ++i) {
    poputil::mapTensorLinearly(graph, params[i]);
    graph.createHostWrite(names[i], params[i]);
    // Every replica's copy, to check that they agree (a replicated graph's own handle would read replica 0).
    if (replicas > 1)
      top.createHostRead(std::string(names[i]) + ".all", top.getNonReplicatedTensor(params[i]));
    else
      graph.createHostRead(std::string(names[i]) + ".all", params[i]);
  }

  // This replica's shards of one global batch: one variable per shard, mapped alike, filled by one stream.
  std::vector<Tensor> xs, ys;
  for (unsigned s = 0; s < shardsPerReplica; ++s) {
    xs.push_back(graph.addVariable(FLOAT, {kShardBatch, kFeatures}, "x" + std::to_string(s)));
    ys.push_back(graph.addVariable(UNSIGNED_INT, {kShardBatch}, "labels" + std::to_string(s)));
    poputil::mapTensorLinearly(graph, xs.back(), kFeatures, kFeatures);
    poputil::mapTensorLinearly(graph, ys.back(), 1, 1);
  }
  DataStream xIn = graph.addHostToDeviceFIFO("x", FLOAT, shardsPerReplica * kShardBatch * kFeatures);
  DataStream yIn = graph.addHostToDeviceFIFO("labels", UNSIGNED_INT, shardsPerReplica * kShardBatch);

  Sequence step;
  step.add(Copy(xIn, concat(xs, 0)));
  step.add(Copy(yIn, concat(ys, 0)));
  std::vector<std::vector<Tensor> > partials(4);
  for (unsigned s = 0; s < shardsPerReplica; ++s) {
    std::vector<Tensor> g = shardGradients(graph, p, xs[s], ys[s], step, "shard" + std::to_string(s));
    for (unsigned i = 0; i < 4; ++i)
      partials[i].push_back(g[i]);
  }
  for (unsigned i = 0; i < 4; ++i) {
    const std::string name = std::string("sum/") + names[i];
    Tensor sum = span.total > 1
                     ? gcl::allReduceWithOutput(graph, partials[i][0], gcl::CollectiveOperator::ADD, step, name)
                     : gcl::foldInReplicaOrder(graph, partials[i], gcl::CollectiveOperator::ADD, step, name);
    popops::scaledSubtractFrom(graph, params[i], sum, kLearningRate / kGlobalBatch, step, name + "/update");
  }
  Sequence epoch(Repeat(kStepsPerEpoch, step));

  Engine engine(graph, epoch);
  engine.load(device);

  // Local replica r trains global replica (offset + r)'s shards of every global batch, one batch per Copy.
  std::vector<unsigned> xStep(replicas, 0), yStep(replicas, 0);
  for (unsigned r = 0; r < replicas; ++r) {
    const unsigned firstShard = (span.offset + r) * shardsPerReplica;
    engine.connectStreamToCallback("x", r, [&train, &xStep, r, firstShard, shardsPerReplica](void *out) {
      const unsigned batch = xStep[r]++ % kStepsPerEpoch;
      const std::size_t first = (std::size_t(batch) * kShards + firstShard) * kShardBatch;
      const std::size_t n = std::size_t(shardsPerReplica) * kShardBatch * kFeatures;
      std::memcpy(out, &train.x[first * kFeatures], n * sizeof(float));
    });
    engine.connectStreamToCallback("labels", r, [&train, &yStep, r, firstShard, shardsPerReplica](void *out) {
      const unsigned batch = yStep[r]++ % kStepsPerEpoch;
      const std::size_t first = (std::size_t(batch) * kShards + firstShard) * kShardBatch;
      std::memcpy(out, &train.labels[first], std::size_t(shardsPerReplica) * kShardBatch * sizeof(unsigned));
    });
  }

  // Initial weights uniform in +-sqrt(6 / (in + out)), biases zero; the same in every replica.
  std::vector<std::vector<float> > initial(4);
  const std::size_t sizes[4] = {kFeatures * kHidden, kHidden, kHidden * kClasses, kClasses};
  for (unsigned i = 0; i < 4; ++i) {
    initial[i].assign(sizes[i], 0.0f);
    if (i % 2 == 0) {
      Random r(100 + i);
      const float a = std::sqrt(6.0f / float(params[i].dim(0) + params[i].dim(1)));
      for (std::size_t j = 0; j < sizes[i]; ++j)
        initial[i][j] = a * r.next();
    }
    engine.writeTensor(names[i], initial[i].data(), initial[i].data() + sizes[i]);
  }

  std::printf("Data-parallel MLP: %u replica(s) of %u, %u shard(s) of %u examples each per replica, %u steps\n",
              replicas, span.total, shardsPerReplica, kShardBatch, kStepsPerEpoch * kEpochs);
  for (unsigned e = 0; e < kEpochs; ++e)
    engine.run(0);

  std::vector<std::vector<float> > trained(4);
  bool agree = true;
  for (unsigned i = 0; i < 4; ++i) {
    std::vector<float> all(sizes[i] * replicas);
    engine.readTensor(std::string(names[i]) + ".all", all.data(), all.data() + all.size());
    trained[i].assign(all.begin(), all.begin() + sizes[i]);
    for (unsigned r = 1; r < replicas; ++r)
      agree = agree && std::memcmp(&all[r * sizes[i]], trained[i].data(), sizes[i] * sizeof(float)) == 0;
  }
  const double before = hostLoss(initial, train), after = hostLoss(trained, train);
  std::printf("Mean training loss: %.4f before, %.4f after\n", before, after);
  std::printf("Weights hash: %016llx\n", static_cast<unsigned long long>(hashOf(trained)));
  std::printf("Replicas agree: %s\n", agree ? "yes" : "no");
  std::printf("Loss decreased: %s\n", after < before ? "yes" : "no");
  return 0;
}
