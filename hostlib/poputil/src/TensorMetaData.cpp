// poputil/TensorMetaData.hpp: a handle that copies its data through TensorMetaDataBase::clone.
#include "poputil/TensorMetaData.hpp"

#include "tensor_metadata.hpp"

namespace poputil {

TensorMetaDataBase::~TensorMetaDataBase() = default;

TensorMetaData::TensorMetaData() = default;
TensorMetaData::TensorMetaData(const TensorMetaData &other) : data(other.data ? other.data->clone() : nullptr) {}
TensorMetaData::TensorMetaData(TensorMetaData &&other) = default;
TensorMetaData &TensorMetaData::operator=(const TensorMetaData &other) {
  if (this != &other)
    data = other.data ? other.data->clone() : nullptr;
  return *this;
}
TensorMetaData &TensorMetaData::operator=(TensorMetaData &&other) = default;
TensorMetaData::TensorMetaData(std::unique_ptr<TensorMetaDataBase> d) : data(std::move(d)) {}
TensorMetaData::~TensorMetaData() = default;

} // namespace poputil
