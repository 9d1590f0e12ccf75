// popdist's host collectives (popdist/collectives.hpp), built on the backend's gather and broadcast. Before the
// data moves, every instance's call (element count, type, root, and for the named forms the name) is gathered and
// compared, so instances that disagree get an error naming the difference instead of memory overruns or mixed-up
// data. The sum gathers every contribution and adds them in rank order on each instance: every instance gets
// the same bits, whatever the transport's reduction order would have been.
#include "popdist/collectives.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

#include "backends.hpp"

namespace popdist::collectives {

namespace {

/// Host bytes of one element of `type`, as the header documents them.
std::size_t elementBytes(const poplar::Type &type, const char *what) {
  using namespace poplar;
  if (type == FLOAT || type == INT || type == UNSIGNED_INT)
    return 4;
  if (type == HALF || type == SHORT || type == UNSIGNED_SHORT)
    return 2;
  if (type == CHAR || type == SIGNED_CHAR || type == UNSIGNED_CHAR || type == BOOL)
    return 1;
  if (type == LONG || type == UNSIGNED_LONG || type == LONGLONG || type == UNSIGNED_LONGLONG)
    return 8;
  throw popdist_error(std::string("popdist::collectives::") + what + ": type " +
                      (type.isValid() ? type.toString() : std::string("(invalid)")) +
                      " is not supported; use FLOAT, HALF or an integer type");
}

/// What one instance asked for: gathered from all before any data moves.
struct Call {
  std::uint64_t numElements = 0;
  std::uint32_t type = 0;
  std::uint32_t root = 0;
  char name[112] = {};
};

std::string describe(const Call &c) {
  return "'" + std::string(c.name, strnlen(c.name, sizeof c.name)) + "' with " + std::to_string(c.numElements) +
         " element(s) of type " + poplar::Type(c.type).toString() + " (root " + std::to_string(c.root) + ")";
}

/// Gathers every instance's Call and throws unless they all equal this one (names compared when `named`).
void agree(Backend &b, CommunicatorId comm, const char *what, std::size_t numElements, const poplar::Type &type,
           unsigned root, const std::string *name) {
  Call mine;
  mine.numElements = numElements;
  mine.type = type.id();
  mine.root = root;
  if (name)
    std::strncpy(mine.name, name->c_str(), sizeof mine.name - 1);
  const unsigned n = b.size(comm), me = b.rank(comm);
  std::vector<Call> all(n);
  b.allGatherBytes(&mine, all.data(), sizeof(Call), comm);
  for (unsigned i = 0; i < n; ++i)
    if (all[i].numElements != mine.numElements || all[i].type != mine.type || all[i].root != mine.root ||
        std::memcmp(all[i].name, mine.name, sizeof mine.name) != 0)
      throw popdist_error(std::string("popdist::collectives::") + what + ": instances disagree: rank " +
                          std::to_string(me) + " called " + describe(mine) + ", rank " + std::to_string(i) +
                          " called " + describe(all[i]) +
                          "; every instance must call the same collectives, in the same order");
}

float halfToFloat(std::uint16_t h) {
  _Float16 f;
  std::memcpy(&f, &h, 2);
  return float(f);
}

std::uint16_t floatToHalf(float v) {
  const _Float16 f = _Float16(v);
  std::uint16_t h;
  std::memcpy(&h, &f, 2);
  return h;
}

/// out[i] += in[i] for `n` elements of the host type T (unsigned arithmetic for integers: wrap, never UB).
template <typename T, typename Acc = T> void addInto(void *out, const void *in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, static_cast<const char *>(out) + i * sizeof(T), sizeof(T));
    std::memcpy(&b, static_cast<const char *>(in) + i * sizeof(T), sizeof(T));
    const T s = T(Acc(a) + Acc(b));
    std::memcpy(static_cast<char *>(out) + i * sizeof(T), &s, sizeof(T));
  }
}

void sumRows(void *data, const std::vector<char> &rows, unsigned instances, std::size_t numElements,
             const poplar::Type &type, std::size_t bytes) {
  using namespace poplar;
  const std::size_t rowBytes = numElements * bytes;
  if (type == HALF) {
    // Summed in float and rounded once, so the result does not depend on half rounding at every step.
    std::vector<float> acc(numElements, 0.0f);
    for (unsigned r = 0; r < instances; ++r)
      for (std::size_t i = 0; i < numElements; ++i) {
        std::uint16_t h;
        std::memcpy(&h, rows.data() + r * rowBytes + i * 2, 2);
        acc[i] += halfToFloat(h);
      }
    for (std::size_t i = 0; i < numElements; ++i) {
      const std::uint16_t h = floatToHalf(acc[i]);
      std::memcpy(static_cast<char *>(data) + i * 2, &h, 2);
    }
    return;
  }
  std::vector<char> out(rows.begin(), rows.begin() + std::ptrdiff_t(rowBytes));
  for (unsigned r = 1; r < instances; ++r) {
    const char *in = rows.data() + r * rowBytes;
    if (type == FLOAT)
      addInto<float>(out.data(), in, numElements);
    else if (bytes == 1)
      addInto<std::uint8_t, unsigned>(out.data(), in, numElements);
    else if (bytes == 2)
      addInto<std::uint16_t, unsigned>(out.data(), in, numElements);
    else if (bytes == 4)
      addInto<std::uint32_t>(out.data(), in, numElements);
    else
      addInto<std::uint64_t>(out.data(), in, numElements);
  }
  if (rowBytes)
    std::memcpy(data, out.data(), rowBytes);
}

void checkPointer(const void *p, std::size_t numElements, const char *what, const char *arg) {
  if (!p && numElements)
    throw popdist_error(std::string("popdist::collectives::") + what + ": " + arg + " is null for " +
                        std::to_string(numElements) + " element(s); pass host memory of that size");
}

void doAllReduceSum(void *data, std::size_t numElements, const poplar::Type &type, const std::string *name,
                    CommunicatorId comm) {
  const std::size_t bytes = elementBytes(type, "allReduceSum");
  if (type == poplar::BOOL)
    throw popdist_error("popdist::collectives::allReduceSum: BOOL cannot be summed; use an integer type");
  checkPointer(data, numElements, "allReduceSum", "data");
  Backend &b = detail::backend();
  agree(b, comm, "allReduceSum", numElements, type, 0, name);
  const unsigned n = b.size(comm);
  std::vector<char> rows(n * numElements * bytes);
  b.allGatherBytes(data, rows.data(), numElements * bytes, comm);
  sumRows(data, rows, n, numElements, type, bytes);
}

void doAllGather(const void *input, void *output, std::size_t numElements, const poplar::Type &type,
                 const std::string *name, CommunicatorId comm) {
  const std::size_t bytes = elementBytes(type, "allGather");
  checkPointer(input, numElements, "allGather", "input");
  checkPointer(output, numElements, "allGather", "output");
  Backend &b = detail::backend();
  agree(b, comm, "allGather", numElements, type, 0, name);
  b.allGatherBytes(input, output, numElements * bytes, comm);
}

void doBroadcast(void *data, std::size_t numElements, const poplar::Type &type, unsigned root,
                 const std::string *name, CommunicatorId comm) {
  const std::size_t bytes = elementBytes(type, "broadcast");
  checkPointer(data, numElements, "broadcast", "data");
  Backend &b = detail::backend();
  if (root >= b.size(comm))
    throw popdist_error("popdist::collectives::broadcast: root rank " + std::to_string(root) +
                        " does not exist; the communicator has " + std::to_string(b.size(comm)) + " instance(s)");
  agree(b, comm, "broadcast", numElements, type, root, name);
  b.broadcastBytes(data, numElements * bytes, root, comm);
}

} // namespace

void allReduceSum(void *data, std::size_t numElements, const poplar::Type &type, const std::string &name,
                  CommunicatorId comm) {
  doAllReduceSum(data, numElements, type, &name, comm);
}

void allGather(const void *input, void *output, std::size_t numElements, const poplar::Type &type,
               const std::string &name, CommunicatorId comm) {
  doAllGather(input, output, numElements, type, &name, comm);
}

void broadcast(void *data, std::size_t numElements, const poplar::Type &type, unsigned rootRank,
               const std::string &name, CommunicatorId comm) {
  doBroadcast(data, numElements, type, rootRank, &name, comm);
}

namespace sequential {

void allReduceSum(void *data, std::size_t numElements, const poplar::Type &type, CommunicatorId comm) {
  doAllReduceSum(data, numElements, type, nullptr, comm);
}

void allGather(const void *input, void *output, std::size_t numElements, const poplar::Type &type,
               CommunicatorId comm) {
  doAllGather(input, output, numElements, type, nullptr, comm);
}

void broadcast(void *data, std::size_t numElements, const poplar::Type &type, unsigned rootRank,
               CommunicatorId comm) {
  doBroadcast(data, numElements, type, rootRank, nullptr, comm);
}

} // namespace sequential
} // namespace popdist::collectives
