// Internal: the base of the data a poputil::TensorMetaData holds; a library derives its own and clones it.
#pragma once

#include <memory>

namespace poputil {

class TensorMetaDataBase {
public:
  virtual ~TensorMetaDataBase();
  /// A copy of this data (TensorMetaData copies through it).
  virtual std::unique_ptr<TensorMetaDataBase> clone() const = 0;
};

} // namespace poputil
