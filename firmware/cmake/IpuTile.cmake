# ipu_tile_executable(): build a bare-metal tile program for a board (crt0, libipurt, newlib, a generated linker script).
#
# Usage (in a project configured with firmware/cmake/riscv-tile.cmake):
#   find_package(IpuTile REQUIRED)      # from <build>/tile/<board>/cmake, or in-tree
#   ipu_tile_executable(NAME hello SOURCES hello.c
#                       [BOARD tiny] [LIBRARIES ...] [INSTALL]
#                       [SUPERVISOR_STACK bytes] [WORKER_STACK bytes] [HEAP bytes])
# The result is NAME.elf. BOARD defaults to the board the runtime was built for;
# another board must have the same ISA/ABI. Stack sizes default to the
# board's; HEAP defaults to everything between bss and the stacks (a fixed
# HEAP leaves the rest free for host-placed tensors). A program that defines
# main() is a plain program; one without main() runs the control program the
# host passes in TILE_BOOT_ARG.
include_guard(GLOBAL)

if(NOT TARGET ipu::rt)
  # Installed layout (<prefix>/cmake/IpuTile.cmake): import the runtime.
  get_filename_component(_ipu_prefix "${CMAKE_CURRENT_LIST_DIR}" DIRECTORY)
  add_library(ipu::rt STATIC IMPORTED)
  set_target_properties(ipu::rt PROPERTIES
    IMPORTED_LOCATION "${_ipu_prefix}/lib/libipurt.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_ipu_prefix}/include")
  set(IPU_TILE_CRT0 "${_ipu_prefix}/lib/crt0.o")
  set(IPU_TILE_GEN_LDSCRIPT "${_ipu_prefix}/share/gen-ldscript.py")
  set(IPU_TILE_BOARDS_DIR "${_ipu_prefix}/share/boards")
endif()
find_package(Python3 3.11 REQUIRED COMPONENTS Interpreter)

include(${CMAKE_CURRENT_LIST_DIR}/IpuBoardValue.cmake)

function(ipu_tile_executable)
  cmake_parse_arguments(A "INSTALL" "NAME;BOARD;SUPERVISOR_STACK;WORKER_STACK;HEAP" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT A_NAME OR NOT A_SOURCES)
    message(FATAL_ERROR "ipu_tile_executable: NAME and SOURCES are required")
  endif()
  if(NOT A_BOARD)
    set(A_BOARD ${IPU_TILE_BOARD})
  endif()
  set(board_file "${IPU_TILE_BOARDS_DIR}/${A_BOARD}.toml")
  if(NOT EXISTS "${board_file}")
    message(FATAL_ERROR "ipu_tile_executable(${A_NAME}): no board '${A_BOARD}' in ${IPU_TILE_BOARDS_DIR}")
  endif()
  ipu_board_value("${IPU_TILE_GEN_LDSCRIPT}" "${board_file}" isa isa abi abi)
  if(NOT isa STREQUAL IPU_TILE_ISA OR NOT abi STREQUAL IPU_TILE_ABI)
    message(FATAL_ERROR "ipu_tile_executable(${A_NAME}): board ${A_BOARD} is ${isa}/${abi} but this "
                        "runtime is built for ${IPU_TILE_ISA}/${IPU_TILE_ABI}")
  endif()

  set(gen_args "${A_BOARD}" --boards-dir "${IPU_TILE_BOARDS_DIR}")
  foreach(opt SUPERVISOR_STACK WORKER_STACK HEAP)
    if(DEFINED A_${opt})
      string(TOLOWER "${opt}" flag)
      string(REPLACE "_" "-" flag "${flag}")
      list(APPEND gen_args --${flag} ${A_${opt}})
    endif()
  endforeach()
  set(ldscript "${CMAKE_CURRENT_BINARY_DIR}/${A_NAME}.ld")
  add_custom_command(OUTPUT "${ldscript}"
    COMMAND ${Python3_EXECUTABLE} "${IPU_TILE_GEN_LDSCRIPT}" ${gen_args} -o "${ldscript}"
    DEPENDS "${IPU_TILE_GEN_LDSCRIPT}" "${board_file}"
    COMMENT "Linker script for ${A_NAME} on ${A_BOARD}" VERBATIM)

  if(TARGET ipu_crt0)
    set(crt0 $<TARGET_OBJECTS:ipu_crt0>)
  else()
    set(crt0 "${IPU_TILE_CRT0}")
  endif()
  add_executable(${A_NAME} ${A_SOURCES} ${crt0} "${ldscript}")
  set_source_files_properties("${ldscript}" PROPERTIES HEADER_FILE_ONLY ON)
  set_target_properties(${A_NAME} PROPERTIES SUFFIX ".elf" LINK_DEPENDS "${ldscript}")
  # One SRAM holds code and data, so the single RWX segment is intended.
  target_link_options(${A_NAME} PRIVATE "-T${ldscript}" "-Wl,-Map=$<TARGET_FILE:${A_NAME}>.map"
                      -Wl,--no-warn-rwx-segments)
  # A group: libc calls the syscalls in libipurt, which calls back into libc.
  target_link_libraries(${A_NAME} PRIVATE ${A_LIBRARIES} -Wl,--start-group ipu::rt c m gcc -Wl,--end-group)
  if(A_INSTALL)
    install(TARGETS ${A_NAME} RUNTIME DESTINATION bin)
  endif()
endfunction()
