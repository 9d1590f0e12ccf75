# The Verilated RTL card as libraries: one Verilated configuration of ipu_card per
# RTL board shape, and ipu_rtl (the harness behind the device backend interface,
# rtl/sim). Included by rtl/CMakeLists.txt (the project build) and by
# qemu-device/corelib (the archives linked into QEMU), so that both build the
# same card. Needs the targets ipu_board and ipu_contract. Sets
# IPU_RTL_FOUND; without Verilator it defines nothing else.
find_package(verilator QUIET HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)
if(NOT verilator_FOUND)
  set(IPU_RTL_FOUND FALSE)
  return()
endif()
set(IPU_RTL_FOUND TRUE)

option(IPU_RTL_TRACE "Build the RTL card with FST waveforms (written to $IPU_RTL_FST)" OFF)
# For rtl/sim/rtl_profile.py: Verilator's --prof-cfuncs splits the generated code into a
# function per always block or assignment, named after its module and source line, so
# that perf's samples say which RTL costs the time (the normal build's profile is a few
# huge functions). The baseline variants of the benchmark stay as they are.
option(IPU_RTL_PROFILE "Build the RTL card split by RTL source line for perf (rtl/sim/rtl_profile.py)" OFF)
# No Verilator threads: on the 2-core machines this runs on, 2 threads ran the
# 4-tile card at a small fraction of one thread's speed (rtl/README.md).

get_filename_component(IPU_RTL_DIR ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(IPU_RTL_WAIVERS ${IPU_RTL_DIR}/lint/waivers.vlt)
# rtl/sources.txt: the file list yosys reads too.
file(STRINGS ${IPU_RTL_DIR}/sources.txt ipu_rtl_source_lines REGEX "^[^#]")
set(IPU_RTL_SOURCES)
foreach(f ${ipu_rtl_source_lines})
  list(APPEND IPU_RTL_SOURCES ${IPU_RTL_DIR}/${f})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${IPU_RTL_DIR}/sources.txt)

# One Verilated configuration of ipu_card per RTL board shape; the harness
# (sim/rtl_card_impl.hpp) is instantiated for each. host_service 1 builds the
# card the iCE40 board has (HostService = 1, DmaChains = 0: the host driver
# services the tiles' requests); the backend picks a variant by the board's
# exact shape (tiles, memory, workers), so give it only the iCE40 board's shape.
# IPU_RTL_BASELINE set (bench/ only) builds the card as main had it before the falling-edge
# input stage (ipu_card as the Verilated top, every input-fed block run at each eval), for
# `make bench` to compare in the same run.
# In a sanitizer build (IPU_SANITIZE), Verilator's generated model code is compiled without
# instrumentation: it is the tool's output, not the project's code, and ASan and UBSan made each
# generated file about 4x slower to compile (45 s against 10 s in CI's build tree). The harness around
# it (rtl/sim, the board simulation's main) stays instrumented. Pass ${IPU_VERILATED_OPTS} to verilate().
set(IPU_VERILATED_OPTS)
if(IPU_SANITIZE)
  set(IPU_VERILATED_OPTS OPT_SLOW -fno-sanitize=all OPT_FAST -fno-sanitize=all OPT_GLOBAL -fno-sanitize=all)
endif()

set(IPU_RTL_VARIANT_NAMES)
set(IPU_RTL_VARIANT_LIST)
set(IPU_RTL_VARIANT_DECLS)
function(ipu_rtl_variant name tiles bytes workers host_service)
  set(IPU_RTL_VARIANT ${name})
  set(IPU_RTL_PREFIX ipu_card_${name})
  set(IPU_RTL_ONE_EVAL true)
  # The harness's top: ipu_card behind the falling-edge input stage (sim/ipu_card_sim.sv);
  # the benchmark's baseline keeps ipu_card itself as the top, as main had it before.
  set(top ipu_card_sim)
  set(top_sources ${IPU_RTL_SOURCES} ${IPU_RTL_DIR}/sim/ipu_card_sim.sv)
  if(IPU_RTL_BASELINE)
    set(top ipu_card)
    set(top_sources ${IPU_RTL_SOURCES})
  endif()
  configure_file(${IPU_RTL_DIR}/sim/variant.cpp.in ${CMAKE_CURRENT_BINARY_DIR}/variant_${name}.cpp @ONLY)
  add_library(ipu_rtl_${name} STATIC ${CMAKE_CURRENT_BINARY_DIR}/variant_${name}.cpp)
  target_include_directories(ipu_rtl_${name} PRIVATE ${IPU_RTL_DIR}/sim ${IPU_RTL_DIR}/sim/include)
  target_link_libraries(ipu_rtl_${name} PRIVATE ipu_board ipu_contract)
  set(service -GHostService=1'b0)
  if(host_service)
    set(service -GDmaChains=1'b0 -GHostService=1'b1)
  endif()
  set(trace)
  set(prof)
  if(IPU_RTL_PROFILE AND NOT IPU_RTL_BASELINE)
    set(prof --prof-cfuncs)
  endif()
  if(IPU_RTL_TRACE)
    set(trace TRACE_FST)
  endif()
  verilate(ipu_rtl_${name} SOURCES ${top_sources} TOP_MODULE ${top} PREFIX Vipu_card_${name}
    ${trace} ${IPU_VERILATED_OPTS}
    VERILATOR_ARGS -Wall ${IPU_RTL_WAIVERS} ${prof} -GNumTiles=${tiles} -GSramBytes=${bytes} -GNumWorkers=${workers}
                   ${service} -O3 --x-assign fast --x-initial fast --assert)
  # Verilator's generated C++ is not held to the project's warning flags. -O2: -O3
  # ran it about 20% slower (measured with ipu_rtl_bench, issue 38); no -march
  # (CI machines vary).
  target_compile_options(ipu_rtl_${name} PRIVATE -w -O2)
  set(IPU_RTL_VARIANT_LIST "${IPU_RTL_VARIANT_LIST}    {${tiles}, ${bytes}, ${workers}, ${host_service}, make_${name}},\n" PARENT_SCOPE)
  set(IPU_RTL_VARIANT_DECLS "${IPU_RTL_VARIANT_DECLS}std::unique_ptr<CardIf> make_${name}(const ipu_board &, const ipu_backend_host &, const ipu_backend_options &);\n" PARENT_SCOPE)
  set(IPU_RTL_VARIANT_NAMES ${IPU_RTL_VARIANT_NAMES} ${name} PARENT_SCOPE)
endfunction()

# rtl-tiny: 4 tiles x 64 KiB, 6 workers.
ipu_rtl_variant(tiny4 4 65536 6 0)
# One tile of the same shape, for single-tile runs and benchmarks.
ipu_rtl_variant(one 1 65536 6 0)
# The iCE40 board's card (boards/icebreaker.toml): 1 tile x 64 KiB, 2 workers,
# host-serviced (rtl/fpga/ipu_board_top.sv's defaults).
ipu_rtl_variant(ice1 1 65536 2 1)

file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/variants.cpp.tmp
  "// Generated by rtl/cmake/ipu_rtl.cmake: the Verilated configurations of this build.\n"
  "#include \"rtl_card.hpp\"\n\nnamespace ipu::rtl {\n\n${IPU_RTL_VARIANT_DECLS}\n"
  "const Variant kVariants[] = {\n${IPU_RTL_VARIANT_LIST}};\n"
  "const unsigned kNumVariants = sizeof kVariants / sizeof kVariants[0];\n\n} // namespace ipu::rtl\n")
configure_file(${CMAKE_CURRENT_BINARY_DIR}/variants.cpp.tmp ${CMAKE_CURRENT_BINARY_DIR}/variants.cpp COPYONLY)

add_library(ipu_rtl STATIC ${IPU_RTL_DIR}/sim/rtl_card.cpp
  ${CMAKE_CURRENT_BINARY_DIR}/variants.cpp)
target_include_directories(ipu_rtl PUBLIC ${IPU_RTL_DIR}/sim/include PRIVATE ${IPU_RTL_DIR}/sim)
target_link_libraries(ipu_rtl PUBLIC ipu_board ipu_contract)
foreach(name ${IPU_RTL_VARIANT_NAMES})
  target_link_libraries(ipu_rtl PRIVATE ipu_rtl_${name})
endforeach()
