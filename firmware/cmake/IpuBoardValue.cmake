# ipu_board_value(GEN_LDSCRIPT BOARD_FILE KEY OUT [KEY OUT]...): each OUT = the value of its KEY in a board file.
#
# The CMake of the build (the host's firmware/CMakeLists.txt, libpoplar's per-ISA runtimes, the tile project,
# IpuTile.cmake) asks gen-ldscript.py, which already reads the whole board through the board reader's rules
# (boards/lib/board_rules.py) to size the linker script, instead of matching `key = "value"` lines with its own
# regular expression: one reader for the tooling that runs before any host code is built. Several keys are read in
# one run, since each run starts Python. An unreadable board or a missing key stops the configure with the reason.
include_guard(GLOBAL)
find_package(Python3 3.11 REQUIRED COMPONENTS Interpreter)

function(ipu_board_value gen_ldscript board_file)
  set(pairs ${ARGN})
  list(LENGTH pairs n)
  math(EXPR odd "${n} % 2")
  if(n EQUAL 0 OR odd)
    message(FATAL_ERROR "ipu_board_value(${board_file}): give KEY OUT pairs after the board file, got '${pairs}'")
  endif()
  set(args)
  set(outs)
  while(pairs)
    list(POP_FRONT pairs key out)
    list(APPEND args --get "${key}")
    list(APPEND outs "${out}")
  endwhile()
  execute_process(COMMAND ${Python3_EXECUTABLE} "${gen_ldscript}" "${board_file}" ${args}
                  OUTPUT_VARIABLE values ERROR_VARIABLE why RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    string(STRIP "${why}" why)
    message(FATAL_ERROR "${why}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${board_file}")
  # One value a line; a board string holds no line end (the reader refuses control characters). A `;` in a value
  # would split it as a CMake list: the keys the build reads (isa, abi, transport, numbers) never hold one.
  string(REPLACE "\n" ";" values "${values}")
  foreach(out IN LISTS outs)
    list(POP_FRONT values value)
    set(${out} "${value}" PARENT_SCOPE)
  endforeach()
endfunction()
