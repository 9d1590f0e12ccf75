# ipu_board_value(GEN_LDSCRIPT BOARD_FILE KEY OUT): OUT = the value of KEY in a board file.
#
# The tile build's CMake (the host's firmware/CMakeLists.txt, the tile project, IpuTile.cmake) asks
# gen-ldscript.py, which already reads the whole board with a TOML library to size the linker script, instead of
# matching `key = "value"` lines with its own regular expression: one reader for the tile tooling, which runs
# before any host code is built. An unreadable board or a missing key stops the configure with the reason.
include_guard(GLOBAL)
find_package(Python3 3.11 REQUIRED COMPONENTS Interpreter)

function(ipu_board_value gen_ldscript board_file key out)
  execute_process(COMMAND ${Python3_EXECUTABLE} "${gen_ldscript}" "${board_file}" --get "${key}"
                  OUTPUT_VARIABLE value ERROR_VARIABLE why RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    string(STRIP "${why}" why)
    message(FATAL_ERROR "${why}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${board_file}")
  set(${out} "${value}" PARENT_SCOPE)
endfunction()
