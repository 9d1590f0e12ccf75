// Debug context of graph operations: where in the user's source a tensor, compute set or program was created
// (SourceLocation), the path of names it was created under (DebugNameAndId, DebugContext), and the per-operation
// record that can be written to a file for the profile tools (DebugInfo).
//
// Poplar and PopLibs functions take `const DebugContext &debugContext = {}`: callers pass nothing, a name
// ("x", std::string), a parent with a name ({dnai, "x"}, {debugInfo, "x"}), or a DebugContext. The default
// argument records the caller's file, function and line because SourceLocation::Current() is evaluated there.
#ifndef POPLAR_DEBUGCONTEXT_HPP
#define POPLAR_DEBUGCONTEXT_HPP

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "poplar/ProfileValue.hpp"

// 1 when the compiler has __builtin_FUNCTION, __builtin_FILE and __builtin_LINE (GCC 7 and later, clang with
// them): SourceLocation::Current() then names its caller; without them it returns an invalid location.
#ifndef SUPPORTS_LOCATION_BUILTINS
#if defined(__clang__)
#if defined(__has_builtin)
#if __has_builtin(__builtin_FUNCTION) && __has_builtin(__builtin_FILE) && __has_builtin(__builtin_LINE)
#define SUPPORTS_LOCATION_BUILTINS 1
#endif
#endif
#elif defined(__GNUC__) && __GNUC__ >= 7
#define SUPPORTS_LOCATION_BUILTINS 1
#endif
#ifndef SUPPORTS_LOCATION_BUILTINS
#define SUPPORTS_LOCATION_BUILTINS 0
#endif
#endif

namespace poplar {

/// Identifies one DebugInfo (0: none).
typedef std::uint64_t DebugId;

/// The file format DebugInfo::initializeStreamer writes.
enum class DebugSerializationFormat { JSON, CBOR };

/// A place in the source: function, file and line. A default-constructed location is invalid.
class SourceLocation {
public:
  constexpr SourceLocation() : function_(""), file_(""), line_(0), valid_(false) {}
  constexpr SourceLocation(const char *functionName, const char *fileName, unsigned lineNumber)
      : function_(functionName ? functionName : ""), file_(fileName ? fileName : ""), line_(lineNumber),
        valid_(true) {}
  /// The function name ("" for an invalid location).
  constexpr const char *getFunctionName() const { return function_; }
  /// The file name ("" for an invalid location).
  constexpr const char *getFileName() const { return file_; }
  /// The line (0 for an invalid location).
  constexpr unsigned getLineNumber() const { return line_; }
  constexpr bool isValid() const { return valid_; }
#if SUPPORTS_LOCATION_BUILTINS
  /// The location of the expression that calls Current() (through default arguments: the caller's caller).
  static constexpr SourceLocation Current(const char *functionName = __builtin_FUNCTION(),
                                          const char *fileName = __builtin_FILE(),
                                          unsigned lineNumber = __builtin_LINE()) {
    return SourceLocation(functionName, fileName, lineNumber);
  }
#else
  /// Without the compiler's location builtins: an invalid location.
  static constexpr SourceLocation Current() { return SourceLocation(); }
#endif

private:
  const char *function_;
  const char *file_;
  unsigned line_;
  bool valid_;
};

class DebugInfo;

/// A name path ("parent/child") and the DebugId of the operation it belongs to, to pass down function calls.
class DebugNameAndId {
public:
  /// `name` under `parentPath` ("" for none), belonging to `debugId` (0 for none).
  DebugNameAndId(std::string name = "", DebugId debugId = 0, std::string parentPath = "");
  DebugNameAndId(const char *name);
  DebugNameAndId(DebugId debugId);
  /// `name` below `parent` (the parent itself when `name` is empty), with the parent's id.
  DebugNameAndId(const DebugNameAndId &parent, std::string name = "");
  DebugNameAndId(DebugNameAndId &&other);
  DebugNameAndId &operator=(const DebugNameAndId &other);
  DebugNameAndId &operator=(DebugNameAndId &&other);
  ~DebugNameAndId();

  /// The names from the outermost to this one, joined by '/'.
  std::string getPathName() const;
  /// The id of the operation (DebugInfo) this name belongs to, 0 for none.
  DebugId getId() const;

private:
  std::string path_;
  DebugId id_;
};

/// What an operation is told about its caller: a name path, the id of the caller's DebugInfo, and the source
/// location of the call. Construct it in the call expression (`foo({dnai, "x"})`) or let a default argument do it
/// (`void foo(const DebugContext &dc = {})`), so that the location is the caller's.
class DebugContext {
public:
  DebugContext(SourceLocation loc = SourceLocation::Current());
  DebugContext(const char *name, SourceLocation loc = SourceLocation::Current());
  DebugContext(std::string name, SourceLocation loc = SourceLocation::Current());
  /// `name` below `parent`, with the parent's id.
  DebugContext(const DebugNameAndId &parent, std::string name = "", SourceLocation loc = SourceLocation::Current());
  /// `name` below the path of `debugInfo`, with its id as the parent id.
  DebugContext(const DebugInfo &debugInfo, std::string name = "", SourceLocation loc = SourceLocation::Current());
  /// `name` below `parent` (a copy of it when `name` is empty); the location is `parent`'s.
  DebugContext(const DebugContext &parent, std::string name = "", SourceLocation loc = SourceLocation::Current());
  DebugContext(DebugContext &&other);
  ~DebugContext();

  /// The name path ("" when nothing was named).
  std::string getPathName() const;
  /// The id of the DebugInfo this context came from (0 for none).
  DebugId getId() const;
  /// Where the context was made.
  const SourceLocation &getLocation() const;

private:
  DebugContext &operator=(const DebugContext &);
  DebugNameAndId nameAndId_;
  SourceLocation location_;
};

/// Prints getPathName().
std::ostream &operator<<(std::ostream &os, const DebugNameAndId &dnai);
/// Prints getPathName().
std::ostream &operator<<(std::ostream &os, const DebugContext &dc);

/// The record of one operation: its layer ("poplar", "popops", a framework), name path, source location, the
/// DebugId of its parent and values the operation adds with setValue. Each gets a new DebugId. While a streamer
/// is open (initializeStreamer) every DebugInfo is written to its file when destroyed or when the streamer closes.
/// Not copyable; meant to be derived from by each layer.
class DebugInfo {
public:
  DebugInfo(const DebugContext &debugContext, std::string layer);
  virtual ~DebugInfo();

  /// This record's id (never 0).
  DebugId getId() const;
  /// The path name of the DebugContext it was made from.
  std::string getPathName() const;
  /// Adds `value` under `name` unless a value of that name exists (then returns false and keeps the old one).
  /// The names "id", "parentId", "layer", "name", "location" are the record's own and are refused too.
  bool setValue(std::string name, ProfileValue value);
  /// This record's path and id, to pass to the operations it calls.
  operator DebugNameAndId() const;

  /// Opens `fileName` for the records (JSON or CBOR; a JSON document {"contexts": [...]}), unless a streamer is
  /// already open. Throws poplar_error when the file cannot be written.
  static void initializeStreamer(const std::string &fileName,
                                 const DebugSerializationFormat &format = DebugSerializationFormat::CBOR);
  /// Writes the records made so far (including those still alive) and closes the file; does nothing when none is
  /// open.
  static void closeStreamer();

private:
  DebugInfo(const DebugInfo &);
  DebugInfo &operator=(const DebugInfo &);
  struct Record;
  std::shared_ptr<Record> record_;
};

} // namespace poplar

#endif // POPLAR_DEBUGCONTEXT_HPP
