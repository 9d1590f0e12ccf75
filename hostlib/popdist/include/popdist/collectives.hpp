// popdist/collectives.hpp: collectives over host memory between the instances of a distributed run (for example
// to agree on initial weights or to sum host-side statistics), carried by the backend (popdist/backend.hpp; it is
// initialized on first use). Collectives on the IPU's replicas are gcl's (gcl/Collectives.hpp), not these.
//
// Data is host memory holding `numElements` elements of `type` as the host stores it: FLOAT float, HALF IEEE
// binary16 in 16 bits, INT int32, UNSIGNED_INT uint32, SHORT/UNSIGNED_SHORT 16 bits, CHAR/SIGNED_CHAR/
// UNSIGNED_CHAR/BOOL 8 bits, LONG/LONGLONG/UNSIGNED_LONG/UNSIGNED_LONGLONG 64 bits.
//
// The functions in namespace popdist::collectives take a name: every instance must call the same collectives in
// the same order, and the names are compared across instances first, so a program whose instances took different
// paths gets a popdist_error naming both names instead of mixed-up data. The functions in
// popdist::collectives::sequential skip that check (same order, no names).
#ifndef POPDIST_COLLECTIVES_HPP
#define POPDIST_COLLECTIVES_HPP

#include <cstddef>
#include <string>

#include <poplar/Type.hpp>
#include <popdist/backend.hpp>

namespace popdist {
namespace collectives {

/// Replaces `data` on every instance of `comm` with the element-wise sum over the instances (HALF is summed in
/// float and rounded once; integers wrap as their type does). BOOL is refused (use an integer type).
void allReduceSum(void *data, std::size_t numElements, const poplar::Type &type, const std::string &name = "",
                  CommunicatorId comm = defaultCommunicatorId());

/// Every instance's `numElements` elements at `input` are gathered, in instance (rank) order, into `output`
/// (size(comm) x numElements elements) of every instance.
void allGather(const void *input, void *output, std::size_t numElements, const poplar::Type &type,
               const std::string &name = "", CommunicatorId comm = defaultCommunicatorId());

/// Copies `data` of instance `rootRank` (its rank in `comm`) to `data` of every instance.
void broadcast(void *data, std::size_t numElements, const poplar::Type &type, unsigned rootRank = 0,
               const std::string &name = "", CommunicatorId comm = defaultCommunicatorId());

namespace sequential {

/// As popdist::collectives::allReduceSum, without the name check.
void allReduceSum(void *data, std::size_t numElements, const poplar::Type &type,
                  CommunicatorId comm = defaultCommunicatorId());

/// As popdist::collectives::allGather, without the name check.
void allGather(const void *input, void *output, std::size_t numElements, const poplar::Type &type,
               CommunicatorId comm = defaultCommunicatorId());

/// As popdist::collectives::broadcast, without the name check.
void broadcast(void *data, std::size_t numElements, const poplar::Type &type, unsigned rootRank = 0,
               CommunicatorId comm = defaultCommunicatorId());

} // namespace sequential
} // namespace collectives
} // namespace popdist

#endif // POPDIST_COLLECTIVES_HPP
