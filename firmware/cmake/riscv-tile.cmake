# CMake toolchain file for tile code: riscv64-unknown-elf-gcc with the newlib that `make deps` builds.
#
# Inputs (cache variables, pass with -D):
#   IPU_TILE_ISA   -march of the board (default rv32imf)
#   IPU_TILE_ABI   -mabi of the board (default ilp32f)
#   NEWLIB_PREFIX  newlib install prefix (the folder holding riscv64-unknown-elf/{include,lib});
#                  default: $IPU_EMU_CACHE (or ~/.cache/ipu-emu)/newlib-<version>-<isa>-<abi>
# C is C11 on newlib; C++ is freestanding (no libstdc++ for the target): no
# exceptions, no RTTI. Executables link without gcc's startfiles: crt0.o and
# libipurt.a (firmware/cmake/IpuTile.cmake adds them) provide the start-up.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

set(IPU_TILE_ISA rv32imf CACHE STRING "Tile -march")
set(IPU_TILE_ABI ilp32f CACHE STRING "Tile -mabi")
set(NEWLIB_PREFIX "" CACHE PATH "newlib install prefix for the tile ISA/ABI")
# try_compile projects re-read this file; give them the same inputs.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES IPU_TILE_ISA IPU_TILE_ABI NEWLIB_PREFIX)

if(NOT NEWLIB_PREFIX)
  if(DEFINED ENV{IPU_EMU_CACHE})
    set(_ipu_cache "$ENV{IPU_EMU_CACHE}")
  else()
    set(_ipu_cache "$ENV{HOME}/.cache/ipu-emu")
  endif()
  file(GLOB _ipu_newlib LIST_DIRECTORIES true "${_ipu_cache}/newlib-*-${IPU_TILE_ISA}-${IPU_TILE_ABI}")
  list(SORT _ipu_newlib)
  list(POP_BACK _ipu_newlib NEWLIB_PREFIX)
  set(NEWLIB_PREFIX "${NEWLIB_PREFIX}" CACHE PATH "newlib install prefix for the tile ISA/ABI" FORCE)
endif()
if(NOT EXISTS "${NEWLIB_PREFIX}/riscv64-unknown-elf/include/stdio.h")
  message(FATAL_ERROR "riscv-tile.cmake: no newlib for ${IPU_TILE_ISA}/${IPU_TILE_ABI} at '${NEWLIB_PREFIX}'; run `make deps`")
endif()

find_program(IPU_TILE_GCC riscv64-unknown-elf-gcc REQUIRED)
find_program(IPU_TILE_GXX riscv64-unknown-elf-g++ REQUIRED)
set(CMAKE_C_COMPILER ${IPU_TILE_GCC})
set(CMAKE_CXX_COMPILER ${IPU_TILE_GXX})
set(CMAKE_ASM_COMPILER ${IPU_TILE_GCC})
set(CMAKE_AR riscv64-unknown-elf-ar CACHE FILEPATH "")
set(CMAKE_RANLIB riscv64-unknown-elf-ranlib CACHE FILEPATH "")
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy CACHE FILEPATH "")
set(CMAKE_OBJDUMP riscv64-unknown-elf-objdump CACHE FILEPATH "")
set(CMAKE_SIZE riscv64-unknown-elf-size CACHE FILEPATH "")
# Compiler checks cannot link a tile program before libipurt exists.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# gcc's own freestanding headers (stdint.h, stdbool.h ...) after newlib's.
execute_process(COMMAND ${IPU_TILE_GCC} -march=${IPU_TILE_ISA} -mabi=${IPU_TILE_ABI} -print-file-name=include
                OUTPUT_VARIABLE _ipu_gcc_include OUTPUT_STRIP_TRAILING_WHITESPACE)

# All tile control is through CSRs. gcc 12 follows ISA spec 20191213, where
# only F implies Zicsr, so compile with an explicit _zicsr; link with the
# board's plain ISA string, which is what gcc's multilib table (libgcc) matches.
set(_ipu_compile_isa ${IPU_TILE_ISA})
if(NOT IPU_TILE_ISA MATCHES "zicsr")
  string(APPEND _ipu_compile_isa "_zicsr")
endif()
set(_ipu_arch "-march=${_ipu_compile_isa} -mabi=${IPU_TILE_ABI} -mcmodel=medlow")
set(_ipu_inc "-nostdinc -isystem ${NEWLIB_PREFIX}/riscv64-unknown-elf/include -isystem ${_ipu_gcc_include}")
set(CMAKE_C_FLAGS_INIT "${_ipu_arch} ${_ipu_inc} -ffunction-sections -fdata-sections")
set(CMAKE_CXX_FLAGS_INIT "${_ipu_arch} ${_ipu_inc} -ffunction-sections -fdata-sections -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-asynchronous-unwind-tables")
set(CMAKE_ASM_FLAGS_INIT "${_ipu_arch} ${_ipu_inc}")
# The link line repeats the compile flags first; these later -march/-mabi
# win and make gcc pick its rv32imf/ilp32f (or rv32im/ilp32) libgcc.
# -nostdlib because IpuTile.cmake names crt0.o, libipurt, libc, libm and libgcc.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-march=${IPU_TILE_ISA} -mabi=${IPU_TILE_ABI} -nostdlib -L${NEWLIB_PREFIX}/riscv64-unknown-elf/lib -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH ${NEWLIB_PREFIX}/riscv64-unknown-elf)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
