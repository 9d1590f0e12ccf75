// A user's program on the constructors and members of poplar/exceptions.hpp that build their message from parts:
// graph_object_load_error(path, reason), no_size_specified(field, vertex), unknown_field(field, vertexType),
// profiling_disabled(), link_error from C strings, recoverable_runtime_error from a C string, and
// poplar_error::attachSourceLocation with a DebugContext. Each is thrown and caught as its own class and as
// poplar_error, and its what(), `type` and members are checked.
#include <cstdio>
#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/exceptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;

// Throws `e` and catches it as T and as poplar_error; returns what() and `type` from the T catch.
template <typename T> static void caught(const T &e, const std::string &wantType, std::string &what) {
  bool asBase = false;
  try {
    throw e;
  } catch (const poplar_error &) {
    asBase = true;
  }
  try {
    throw e;
  } catch (const T &x) {
    what = x.what();
    check(x.type == wantType && asBase, wantType + " is caught as itself and as poplar_error, type '" + x.type + "'");
  }
}

int main() {
  std::string w;
  caught(graph_object_load_error("codelets.gp", "not an ELF file"), "graph_object_load_error", w);
  check(has(w, "codelets.gp") && has(w, "not an ELF file"), "graph_object_load_error names path and reason: " + w);

  caught(no_size_specified("partials", "ReduceAdd"), "no_size_specified", w);
  check(has(w, "partials") && has(w, "ReduceAdd") && has(w, "setFieldSize"),
        "no_size_specified names field and vertex and the fix: " + w);

  caught(unknown_field("outs", "MyVertex"), "unknown_field", w);
  check(has(w, "outs") && has(w, "MyVertex"), "unknown_field names field and vertex type: " + w);

  caught(profiling_disabled(), "profiling_disabled", w);
  check(has(w, "autoReport.all"), "profiling_disabled() says which option turns profiling on: " + w);

  const char *linkerOutput = "undefined reference to `foo'";
  link_error le("linking tile 3 failed", linkerOutput);
  caught(le, "link_error", w);
  check(le.output == linkerOutput && w == "linking tile 3 failed", "link_error from C strings keeps the output");

  recoverable_runtime_error re(RecoveryAction::IPU_RESET, "tile 5 faulted");
  caught(re, "recoverable_runtime_error", w);
  check(re.getRecoveryAction() == RecoveryAction::IPU_RESET && w == "tile 5 faulted",
        "recoverable_runtime_error from a C string keeps message and action");

  // attachSourceLocation: the message gains the context's location, or stays as it is when it has none.
  poplar_error pe("bad shape");
  DebugContext here(SourceLocation("buildModel", "model.cpp", 42));
  pe.attachSourceLocation(here);
  check(std::string(pe.what()) == "bad shape (at buildModel, model.cpp:42)",
        std::string("attachSourceLocation appends the location: ") + pe.what());
  poplar_error plain("bad shape");
  plain.attachSourceLocation(DebugContext(SourceLocation()));
  check(std::string(plain.what()) == "bad shape", "a context without a location leaves what() unchanged");
  type_error te("wrong type");
  te.attachSourceLocation(here);
  check(te.type == "type_error" && has(te.what(), "model.cpp:42"), "a derived error keeps its type when located");

  return checksDone("all exception member checks passed");
}
