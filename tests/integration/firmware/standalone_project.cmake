# Configures and builds a firmware project on its own against an installed tile tree,
# as a firmware developer would. Usage: cmake -DSOURCE= -DBINARY= -DTILE_DIR= -DGENERATOR= -P this
file(REMOVE_RECURSE "${BINARY}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -S "${SOURCE}" -B "${BINARY}" -G "${GENERATOR}"
          -DCMAKE_TOOLCHAIN_FILE=${TILE_DIR}/cmake/riscv-tile.cmake -DIpuTile_DIR=${TILE_DIR}/cmake
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring ${SOURCE} against ${TILE_DIR} failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${BINARY}" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building ${SOURCE} failed")
endif()
file(GLOB elf "${BINARY}/*.elf")
if(NOT elf)
  message(FATAL_ERROR "no ELF in ${BINARY}")
endif()
message(STATUS "built ${elf}")
