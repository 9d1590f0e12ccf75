// Extra data a library may attach to a tensor it creates, opaque to users (PopLibs passes it between its own
// functions). The data's type, TensorMetaDataBase, is internal; users only hold, copy and move the handle.
#ifndef POPUTIL_TENSORMETADATA_HPP
#define POPUTIL_TENSORMETADATA_HPP

#include <memory>

namespace poputil {

class TensorMetaDataBase;

/// A handle to a tensor's optional metadata; copies copy the data, a default-constructed handle holds none.
class TensorMetaData {
  std::unique_ptr<TensorMetaDataBase> data;

public:
  TensorMetaData();
  TensorMetaData(const TensorMetaData &other);
  TensorMetaData(TensorMetaData &&other);
  TensorMetaData &operator=(const TensorMetaData &other);
  TensorMetaData &operator=(TensorMetaData &&other);
  /// Internal: a handle owning `data`.
  TensorMetaData(std::unique_ptr<TensorMetaDataBase> data);
  ~TensorMetaData();
  /// The data, or null when there is none.
  const TensorMetaDataBase *getData() const { return data.get(); }
};

} // namespace poputil

#endif // POPUTIL_TENSORMETADATA_HPP
