// A user's program on the Poplar headers that hold a few names each, included by the SDK's paths:
// CodeletFileType.hpp (the kinds, getCodeletFileType, getExtensionFromFileType, getLanguageOption, and
// Graph::addCodelets refusing the kinds this emulator cannot compile), DataStreamType.hpp, IpuLinkTopology.hpp,
// replication_factor.hpp, GraphElements.hpp, SerializationFormat.hpp, VectorLayout.hpp (with the layouts a perf
// estimator's FieldData reports), Error.hpp (ErrorCode names both ways) and OptionFlags.hpp's readJSONFromEnv and
// getAsProfileValue, TensorRearranger.hpp (Graph::getSimplifyingRearranger), Function::getId and
// TypeTraits::requiresMetadata.
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>

#include <poplar/CodeletFileType.hpp>
#include <poplar/DataStreamType.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Error.hpp>
#include <poplar/Graph.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/IpuLinkTopology.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/SerializationFormat.hpp>
#include <poplar/TensorRearranger.hpp>
#include <poplar/TypeTraits.hpp>
#include <poplar/VectorLayout.hpp>
#include <poplar/VertexIntrospector.hpp>
#include <poplar/replication_factor.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

// Whether two tensors name the same variable elements in the same order (compared one element at a time, so
// however their runs are split).
static bool sameElements(const Tensor &a, const Tensor &b) {
  if (a.numElements() != b.numElements())
    return false;
  Tensor fa = a.flatten(), fb = b.flatten();
  for (std::size_t i = 0; i < fa.numElements(); ++i)
    if (!(fa.slice(i, i + 1) == fb.slice(i, i + 1)))
      return false;
  return true;
}

int main() {
  // CodeletFileType.hpp
  check(getCodeletFileType("dir.v2/codelets.cpp") == CodeletFileType::CppSource &&
            getCodeletFileType("a.cc") == CodeletFileType::CppSource &&
            getCodeletFileType("a.c") == CodeletFileType::CSource &&
            getCodeletFileType("a.S") == CodeletFileType::AsmSource &&
            getCodeletFileType("a.s") == CodeletFileType::PreprocessedAsmSource &&
            getCodeletFileType("a.ll") == CodeletFileType::IrSource &&
            getCodeletFileType("a.gp") == CodeletFileType::Object,
        "getCodeletFileType reads the kind from the extension");
  check(getExtensionFromFileType(CodeletFileType::CppSource) == ".cpp" &&
            getExtensionFromFileType(CodeletFileType::AsmSource) == ".S" &&
            getExtensionFromFileType(CodeletFileType::Object) == ".gp",
        "getExtensionFromFileType gives .cpp, .S, .gp");
  check(getLanguageOption(CodeletFileType::CppSource) == "c++" && getLanguageOption(CodeletFileType::CSource) == "c" &&
            getLanguageOption(CodeletFileType::AsmSource) == "assembler-with-cpp",
        "getLanguageOption gives c++, c, assembler-with-cpp");
  std::string noKind = refusal<poplar_error>([] { getCodeletFileType("codelets.txt"); });
  check(has(noKind, "codelets.txt") && has(noKind, ".cpp"), "an unknown extension is refused naming the file: " +
                                                                 noKind);
  std::string noDir = refusal<poplar_error>([] { getCodeletFileType("dir.cpp/codelets"); });
  check(has(noDir, "dir.cpp/codelets"), "a dot in a folder name is not an extension");
  check(has(refusal<poplar_error>([] { getExtensionFromFileType(CodeletFileType::Auto); }), "Auto"),
        "getExtensionFromFileType(Auto) is refused");
  check(has(refusal<poplar_error>([] { getLanguageOption(CodeletFileType::Object); }), "Object"),
        "getLanguageOption(Object) is refused");

  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  std::string cKind = refusal<graph_object_load_error>(
      [&] { graph.addCodelets("layout_codelet.cpp", CodeletFileType::CSource); });
  check(has(cKind, "C++") && has(cKind, "popc"), "addCodelets refuses a C source kind, saying what it takes: " +
                                                     cKind);
  check(graph.addCodelets("layout_codelet.cpp", CodeletFileType::CppSource),
        "addCodelets compiles a CppSource codelet");

  // DataStreamType.hpp
  check(isHostToDevice(DataStreamType::HostToDeviceFIFO) && isDeviceToHost(DataStreamType::DeviceToHostFIFO) &&
            !isHostToDevice(DataStreamType::DeviceToHostBuffer) && isRemoteBuffer(DataStreamType::RemoteBuffer),
        "DataStreamType's predicates classify the kinds");
  // IpuLinkTopology.hpp
  IpuLinkTopology topology = IpuLinkTopology::Torus;
  check(topology != IpuLinkTopology::Mesh && IpuLinkTopology::Line != IpuLinkTopology::Torus,
        "IpuLinkTopology names Mesh, Torus and Line");
  // replication_factor.hpp
  replication_factor two(2);
  replication_factor three = two;
  ++three;
  check(three.value == 3 && two < three && two != three, "replication_factor compares and increments");
  // SerializationFormat.hpp
  SerializationFormat format = SerializationFormat::JSON;
  check(format != SerializationFormat::Binary, "SerializationFormat names Binary and JSON");

  // GraphElements.hpp and VectorLayout.hpp: a vertex with a Vector, a VectorList and a plain field; its perf
  // estimator reads each field's layout.
  Tensor in = graph.addConstant<float>(FLOAT, {3}, 1.0f, "in");
  Tensor a = graph.addConstant<float>(FLOAT, {2}, 2.0f, "a");
  Tensor out = graph.addVariable(FLOAT, {}, "out");
  for (Tensor t : {in, a, out})
    graph.setTileMapping(t, 0);
  ComputeSet cs = graph.addComputeSet("layouts");
  VertexRef v = graph.addVertex(cs, "Layouts", {{"in", in}, {"out", out}});
  FieldRef lists = v["lists"];
  graph.setFieldSize(lists, 1);
  graph.connect(lists[0], a);
  graph.setInitialValue(v["count"], 10u);
  graph.setTileMapping(v, 0);
  std::string seen, badLevel;
  graph.registerPerfEstimator("Layouts", [&seen, &badLevel](const VertexIntrospector &vertex, const Target &) {
    FieldData inField = vertex.getFieldInfo("in"), listField = vertex.getFieldInfo("lists");
    FieldData countField = vertex.getFieldInfo("count");
    std::ostringstream os;
    os << inField.getProfilerVectorLayout(0) << " " << layout::to_string(listField.getProfilerVectorListLayout())
       << " " << listField.getProfilerVectorLayout(1) << " " << countField.getProfilerVectorLayout(0) << " "
       << inField.getProfilerVectorListLayout();
    seen = os.str();
    try {
      inField.getProfilerVectorLayout(1);
    } catch (const poplar_error &e) {
      badLevel = e.what();
    }
    return VertexPerfEstimate(50, 0);
  });
  graph.createHostRead("out", out);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.run(0);
  float result = 0;
  engine.readTensor("out", &result);
  check(result == 17.0f, "the vertex ran: 10 + 3 x 1 + 2 x 2 = " + std::to_string(result));
  check(seen == "Span DeltaNElements Span NotAVector NotAVector",
        "FieldData layouts: Vector Span, VectorList DeltaNElements of Spans, plain NotAVector: " + seen);
  check(has(badLevel, "nestingLevel"), "a nesting level past the field's is refused: " + badLevel);
  check(layout::to_string(layout::Vector::ScaledPtr64) == "ScaledPtr64" &&
            layout::to_string(layout::VectorList::DeltaN) == "DeltaN",
        "layout::to_string names every enumerator");

  // TensorRearranger.hpp: a tensor made of four runs of two variables, out of order.
  Tensor va = graph.addVariable(INT, {4}, "va"), vb = graph.addVariable(INT, {4}, "vb");
  graph.setTileMapping(va, 1);
  graph.setTileMapping(vb, 2);
  Tensor mixed = concat({vb.slice(2, 4), va.slice(0, 2), vb.slice(0, 2), va.slice(2, 4)});
  TensorRearranger rearranger = graph.getSimplifyingRearranger(mixed);
  Tensor simple = rearranger.rearrange(mixed);
  check(rearranger.valid() && sameElements(simple, concat(va, vb)), "getSimplifyingRearranger orders the runs: va then vb");
  check(sameElements(rearranger.undoRearrangement(simple), mixed), "undoRearrangement gives the original order back");
  std::vector<Interval> moved = rearranger.rearrange(ArrayRef<Interval>(std::vector<Interval>{Interval(0, 3)}));
  check(moved.size() == 2 && moved[0] == Interval(0, 1) && moved[1] == Interval(6, 8),
        "rearrange(intervals): elements 0..2 of the original are 0 and 6..7 of the simple order");
  std::vector<Interval> back = rearranger.undoRearrangement(ArrayRef<Interval>(moved));
  check(back.size() == 1 && back[0] == Interval(0, 3), "undoRearrangement(intervals) maps them back to 0..2");
  TensorRearranger none;
  check(!none.valid() && has(refusal<poplar_error>([&] { none.rearrange(mixed); }), "getSimplifyingRearranger"),
        "a default TensorRearranger is not valid and says where to get one");
  check(has(refusal<poplar_error>([&] { rearranger.rearrange(va); }), "4 elements"),
        "a tensor of another size is refused");
  // Function::getId: functions are numbered in the order they are added.
  Function f0 = graph.addFunction(Sequence()), f1 = graph.addFunction(Sequence());
  check(f0.getId() == 0 && f1.getId() == 1, "Function::getId numbers functions 0, 1");
  check(!TypeTraits::requiresMetadata<float>() && TypeTraits::isSimpleType<int>(),
        "TypeTraits: float needs no metadata; int is a simple type");

  // Error.hpp
  check(errorCodeToString(ErrorCode::FLOATING_POINT_OVERFLOW) == "FLOATING_POINT_OVERFLOW" &&
            errorCodeFromString("HOST_SYNC_TIMEOUT") == ErrorCode::HOST_SYNC_TIMEOUT &&
            static_cast<unsigned>(ErrorCode::NONE) == 0,
        "ErrorCode names convert both ways; NONE is 0");
  bool roundTrip = true;
  for (unsigned c = 0; c <= static_cast<unsigned>(ErrorCode::IPU_MEMORY_FAILURE); ++c)
    roundTrip = roundTrip && errorCodeFromString(errorCodeToString(static_cast<ErrorCode>(c))) == ErrorCode(c);
  check(roundTrip, "every ErrorCode survives toString and fromString");
  std::string badName = refusal<poplar_error>([] { errorCodeFromString("OVERFLOW"); });
  check(has(badName, "'OVERFLOW'") && has(badName, "FLOATING_POINT_OVERFLOW"),
        "an unknown name is refused, listing the names: " + badName.substr(0, 60));
  check(has(refusal<poplar_error>([] { errorCodeToString(static_cast<ErrorCode>(99)); }), "99"),
        "a value outside the enum is refused");

  // OptionFlags.hpp: readJSONFromEnv and getAsProfileValue.
  OptionFlags flags{{"debug.instrument", "false"}};
  setenv("HEADER_PATHS_OPTIONS", "{\"debug.instrument\": \"true\", \"opt.maxCompilationThreads\": 2}", 1);
  readJSONFromEnv("HEADER_PATHS_OPTIONS", flags);
  check(flags.at("debug.instrument") == "true" && flags.at("opt.maxCompilationThreads") == "2",
        "readJSONFromEnv reads the variable's options over those set");
  unsetenv("HEADER_PATHS_UNSET");
  OptionFlags before = flags;
  readJSONFromEnv("HEADER_PATHS_UNSET", flags);
  check(flags == before, "an unset variable leaves the options alone");
  setenv("HEADER_PATHS_BAD", "[1, 2]", 1);
  std::string badJson = refusal<invalid_option>([&] { readJSONFromEnv("HEADER_PATHS_BAD", flags); });
  check(has(badJson, "HEADER_PATHS_BAD"), "a variable that is not a JSON object is refused naming it: " + badJson);
  ProfileValue asValue = getAsProfileValue(flags);
  check(asValue.isMap() && asValue.asMap().size() == 2 && asValue["opt.maxCompilationThreads"].asString() == "2",
        "getAsProfileValue maps each option name to its value");

  return checksDone("all header path checks passed");
}
