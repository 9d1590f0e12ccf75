// Internal: the program tree that program::* classes build and the compiler lowers.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "poplar/Program.hpp"

namespace poplar::program::detail {

enum class Kind { Sequence, Execute, Copy, StreamIn, StreamOut, Repeat, WhileTrue, WhileFalse, If, Switch, Print, Sync, Abort };

struct Node {
  Kind kind = Kind::Sequence;
  std::string name;
  std::vector<std::shared_ptr<Node>> children; ///< Sequence items; Repeat/While: {body} / {cond, body}; If: {then, else}
  ComputeSet cs;                               ///< Execute
  Tensor src, dst;                             ///< Copy; Print: src; If/While/Switch: src is the predicate
  DataStream stream;                           ///< StreamIn (stream to dst), StreamOut (src to stream)
  unsigned count = 0;                          ///< Repeat
  std::vector<std::int32_t> caseValues;        ///< Switch: children[i] for caseValues[i], last child the default
  std::map<unsigned, unsigned> replicaMap;     ///< Copy between replicas (CrossReplicaCopy): source -> destination
  bool crossReplica = false;                   ///< Copy: a CrossReplicaCopy
  std::string message;                         ///< Abort: what Engine::run's exception says
  std::shared_ptr<const PrintTensorFmt> fmt;   ///< Print: the layout asked for (null: the default one)
};

} // namespace poplar::program::detail
