// Name paths, debug contexts and DebugInfo records, and the streamer that writes the records to a file.
#include "poplar/DebugContext.hpp"

#include <atomic>
#include <fstream>
#include <mutex>
#include <vector>

#include "poplar/exceptions.hpp"

namespace poplar {

namespace {
std::string joinPath(const std::string &parent, const std::string &name) {
  if (parent.empty())
    return name;
  if (name.empty())
    return parent;
  return parent + "/" + name;
}
} // namespace

DebugNameAndId::DebugNameAndId(std::string name, DebugId debugId, std::string parentPath)
    : path_(joinPath(parentPath, name)), id_(debugId) {}
DebugNameAndId::DebugNameAndId(const char *name) : path_(name ? name : ""), id_(0) {}
DebugNameAndId::DebugNameAndId(DebugId debugId) : id_(debugId) {}
DebugNameAndId::DebugNameAndId(const DebugNameAndId &parent, std::string name)
    : path_(joinPath(parent.path_, name)), id_(parent.id_) {}
DebugNameAndId::DebugNameAndId(DebugNameAndId &&other) : path_(std::move(other.path_)), id_(other.id_) {}
DebugNameAndId &DebugNameAndId::operator=(const DebugNameAndId &other) = default;
DebugNameAndId &DebugNameAndId::operator=(DebugNameAndId &&other) = default;
DebugNameAndId::~DebugNameAndId() = default;
std::string DebugNameAndId::getPathName() const { return path_; }
DebugId DebugNameAndId::getId() const { return id_; }

DebugContext::DebugContext(SourceLocation loc) : location_(loc) {}
DebugContext::DebugContext(const char *name, SourceLocation loc) : nameAndId_(name), location_(loc) {}
DebugContext::DebugContext(std::string name, SourceLocation loc) : nameAndId_(std::move(name)), location_(loc) {}
DebugContext::DebugContext(const DebugNameAndId &parent, std::string name, SourceLocation loc)
    : nameAndId_(parent, std::move(name)), location_(loc) {}
DebugContext::DebugContext(const DebugInfo &debugInfo, std::string name, SourceLocation loc)
    : nameAndId_(DebugNameAndId(debugInfo), std::move(name)), location_(loc) {}
DebugContext::DebugContext(const DebugContext &parent, std::string name, SourceLocation loc)
    : nameAndId_(parent.nameAndId_, name), location_(name.empty() ? parent.location_ : loc) {}
DebugContext::DebugContext(DebugContext &&other)
    : nameAndId_(std::move(other.nameAndId_)), location_(other.location_) {}
DebugContext::~DebugContext() = default;
std::string DebugContext::getPathName() const { return nameAndId_.getPathName(); }
DebugId DebugContext::getId() const { return nameAndId_.getId(); }
const SourceLocation &DebugContext::getLocation() const { return location_; }

std::ostream &operator<<(std::ostream &os, const DebugNameAndId &dnai) { return os << dnai.getPathName(); }
std::ostream &operator<<(std::ostream &os, const DebugContext &dc) { return os << dc.getPathName(); }

struct DebugInfo::Record {
  DebugId id = 0;
  std::string path;
  ProfileValue::Map values; ///< the record as written: its own fields and setValue's
};

namespace {
// The open streamer: its file, format and every record made since it opened (written by closeStreamer).
struct Streamer {
  std::mutex mutex;
  bool open = false;
  std::string fileName;
  DebugSerializationFormat format = DebugSerializationFormat::CBOR;
  /// Each record's values, sharing the record's ownership (so a record outlives its DebugInfo until written).
  std::vector<std::shared_ptr<const ProfileValue::Map>> records;
};
Streamer &streamer() {
  static Streamer s;
  return s;
}
std::atomic<DebugId> nextDebugId{1};
const char *const kOwnFields[] = {"id", "parentId", "layer", "name", "location"};
} // namespace

DebugInfo::DebugInfo(const DebugContext &debugContext, std::string layer) : record_(std::make_shared<Record>()) {
  record_->id = nextDebugId++;
  record_->path = debugContext.getPathName();
  ProfileValue::Map &v = record_->values;
  v["id"] = ProfileValue(static_cast<unsigned long long>(record_->id));
  v["parentId"] = ProfileValue(static_cast<unsigned long long>(debugContext.getId()));
  v["layer"] = ProfileValue(layer);
  v["name"] = ProfileValue(record_->path);
  const SourceLocation &loc = debugContext.getLocation();
  if (loc.isValid()) {
    ProfileValue::Map where;
    where["fileName"] = ProfileValue(loc.getFileName());
    where["functionName"] = ProfileValue(loc.getFunctionName());
    where["lineNumber"] = ProfileValue(loc.getLineNumber());
    v["location"] = ProfileValue(where);
  }
  Streamer &s = streamer();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.open) {
    s.records.push_back(std::shared_ptr<const ProfileValue::Map>(record_, &record_->values));
  }
}

DebugInfo::~DebugInfo() = default;
DebugId DebugInfo::getId() const { return record_->id; }
std::string DebugInfo::getPathName() const { return record_->path; }
DebugInfo::operator DebugNameAndId() const { return DebugNameAndId(record_->path, record_->id); }

bool DebugInfo::setValue(std::string name, ProfileValue value) {
  for (const char *own : kOwnFields)
    if (name == own)
      return false;
  std::lock_guard<std::mutex> lock(streamer().mutex); // closeStreamer may be reading the record
  return record_->values.emplace(std::move(name), std::move(value)).second;
}

void DebugInfo::initializeStreamer(const std::string &fileName, const DebugSerializationFormat &format) {
  Streamer &s = streamer();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.open)
    return;
  if (fileName.empty())
    throw poplar_error("DebugInfo::initializeStreamer: empty file name; pass the file to write the debug "
                       "information to");
  std::ofstream probe(fileName, std::ios::binary | std::ios::trunc);
  if (!probe)
    throw poplar_error("DebugInfo::initializeStreamer: cannot write '" + fileName +
                       "'; pass a file in a folder that exists and is writable");
  s.open = true;
  s.fileName = fileName;
  s.format = format;
}

void DebugInfo::closeStreamer() {
  Streamer &s = streamer();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.open)
    return;
  ProfileValue::Vector contexts;
  contexts.reserve(s.records.size());
  for (const auto &r : s.records)
    contexts.push_back(ProfileValue(*r));
  ProfileValue::Map doc;
  doc["contexts"] = ProfileValue(contexts);
  std::ofstream out(s.fileName, std::ios::binary | std::ios::trunc);
  if (s.format == DebugSerializationFormat::JSON)
    serializeToJSON(out, ProfileValue(doc));
  else
    serializeToCBOR(out, ProfileValue(doc));
  out.close();
  const std::string name = s.fileName;
  s.open = false;
  s.fileName.clear();
  s.records.clear();
  if (!out)
    throw poplar_error("DebugInfo::closeStreamer: writing '" + name + "' failed (disk full or removed?)");
}

} // namespace poplar
