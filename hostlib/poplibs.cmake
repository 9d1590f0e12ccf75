# Shared rules of the PopLibs libraries (hostlib/poputil, popops, poprand, poplin, popnn, gcl, popdist): the
# library target itself (poplibs_library), the tile codelets built by popc, install of the library and its headers,
# a pkg-config file, and a check that each public header compiles alone as C++11.

# poplibs_library(<lib> [CODELETS] [DEPENDS <target>...] [PRIVATE <item>...] DESCRIPTION <text>)
# Defines lib<lib>.so (version PROJECT_VERSION, soname lib<lib>.so.0) in the calling folder, hostlib/<lib>:
#   - sources: every src/*.cpp of the folder;
#   - public headers include/<lib>/*.hpp; private include paths: the folder's src/ and poputil's src/ (log.hpp,
#     profile_info.hpp), and it links the static poplibs_support (hostlib/poplibs_support: work splitting and
#     codelet loading): what the PopLibs libraries share without making it public;
#   - DEPENDS: the libraries it links publicly (its headers use theirs), in link order; PRIVATE: what only its
#     sources use (dl, MPI, ...);
#   - CODELETS: its tile code, codelets/<lib>_codelets.cpp, compiled by popc (poplibs_codelets below);
#   - installed with its headers and a pkg-config file whose Description is DESCRIPTION (poplibs_library_install).
# The library needs libpoplar and libpoputil (the header check compiles against them) and every DEPENDS target. If
# one is not built, ipu_component_missing() names it (an error under IPU_REQUIRE_ALL) and no target <lib> is
# defined: a caller with more to do after this call checks `if(TARGET <lib>)`.
function(poplibs_library lib)
  cmake_parse_arguments(L "CODELETS" "DESCRIPTION" "DEPENDS;PRIVATE" ${ARGN})
  if(L_UNPARSED_ARGUMENTS OR NOT L_DESCRIPTION)
    message(FATAL_ERROR "poplibs_library(${lib}): unexpected arguments '${L_UNPARSED_ARGUMENTS}' or no DESCRIPTION; "
                        "usage: poplibs_library(<lib> [CODELETS] [DEPENDS ...] [PRIVATE ...] "
                        "DESCRIPTION <text>)")
  endif()
  set(missing)
  foreach(dep ${L_DEPENDS} poplar poputil)
    if(NOT dep STREQUAL lib AND NOT TARGET ${dep} AND NOT "lib${dep}" IN_LIST missing)
      list(APPEND missing lib${dep})
    endif()
  endforeach()
  if(missing)
    list(JOIN missing " or " names)
    ipu_component_missing(lib${lib} "${names} is not built")
    return()
  endif()
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/src/*.cpp)
  add_library(${lib} SHARED ${sources})
  set_target_properties(${lib} PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION 0)
  target_include_directories(${lib}
    PUBLIC $<BUILD_INTERFACE:${dir}/include> $<INSTALL_INTERFACE:include>
    PRIVATE ${dir}/src ${IPU_SOURCE_DIR}/hostlib/poputil/src)
  target_link_libraries(${lib} PUBLIC ${L_DEPENDS} PRIVATE poplibs_support ${L_PRIVATE})
  if(L_CODELETS)
    poplibs_codelets(${lib})
  endif()
  poplibs_library_install(${lib} "${L_DESCRIPTION}")
endfunction()

# The library's tile codelets (codelets/<lib>_codelets.cpp and what it includes), compiled by popc at build time
# into <lib>.gp for the tile ISA of the default board (ipu2: rv32imf). The .gp is staged in the build tree and
# installed at the same path relative to the library (<libdir>/../share/poplibs/codelets/<isa>/<lib>.gp), which the
# library finds through <LIB>_DATA_RELDIR (addCodelets).
function(poplibs_codelets lib)
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  set(data_dir ${CMAKE_INSTALL_DATADIR}/poplibs)
  set(isa rv32imf)
  file(RELATIVE_PATH reldir /${CMAKE_INSTALL_LIBDIR} /${data_dir})
  string(TOUPPER ${lib} upper)
  target_compile_definitions(${lib} PRIVATE ${upper}_DATA_RELDIR="${reldir}")
  set(gp ${CMAKE_BINARY_DIR}/${data_dir}/codelets/${isa}/${lib}.gp)
  # Tile headers every library's codelets may share (poplibs_support/codelets: float_bits.h).
  set(shared_dir ${IPU_SOURCE_DIR}/hostlib/poplibs_support/codelets)
  file(GLOB codelet_sources ${dir}/codelets/* ${shared_dir}/*)
  file(GLOB public_headers ${dir}/include/${lib}/*.hpp)
  add_custom_command(OUTPUT ${gp}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/${data_dir}/codelets/${isa}
    COMMAND ${CMAKE_COMMAND} -E env IPU_EMU_CACHE=${IPU_EMU_CACHE} IPU_BOARD_PATH=${IPU_SOURCE_DIR}/boards
            $<TARGET_FILE:popc> --target ipu2 -I${dir}/include -I${dir}/codelets -I${shared_dir}
            ${dir}/codelets/${lib}_codelets.cpp
            -o ${gp}
    DEPENDS popc ${codelet_sources} ${public_headers} ${IPU_SOURCE_DIR}/hostlib/poplar/device/include/poplar/Vertex.hpp
    COMMENT "popc: ${lib} codelets for ${isa}" VERBATIM)
  add_custom_target(${lib}_codelets ALL DEPENDS ${gp})
  add_dependencies(${lib} ${lib}_codelets)
  install(FILES ${gp} DESTINATION ${data_dir}/codelets/${isa})
endfunction()
function(poplibs_library_install lib description)
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  ipu_install_shared_library(${lib})
  install(DIRECTORY ${dir}/include/${lib} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set(POPLIBS_NAME ${lib})
  set(POPLIBS_DESCRIPTION "${description}")
  configure_file(${IPU_SOURCE_DIR}/hostlib/poplibs.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${lib}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${lib}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  # Headers in subfolders too (popfloat's are all under popfloat/experimental/).
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${dir}/include/${lib}/*.hpp)
  set(checks)
  foreach(h ${headers})
    file(RELATIVE_PATH rel ${dir}/include ${h})
    string(REGEX REPLACE "\\.hpp$" "" stem ${rel})
    string(REPLACE "/" "_" stem ${stem})
    set(src ${CMAKE_CURRENT_BINARY_DIR}/header_check/${stem}.cpp)
    file(WRITE ${src}.in "// Generated: checks that ${rel} compiles alone as C++11.\n#include \"${rel}\"\n")
    configure_file(${src}.in ${src} COPYONLY)
    list(APPEND checks ${src})
  endforeach()
  add_library(${lib}_header_check OBJECT ${checks})
  set_target_properties(${lib}_header_check PROPERTIES CXX_STANDARD 11 CXX_EXTENSIONS OFF)
  foreach(dep ${lib} poputil poplar ipu_runtime)
    target_include_directories(${lib}_header_check PRIVATE $<TARGET_PROPERTY:${dep},INTERFACE_INCLUDE_DIRECTORIES>)
  endforeach()
  add_dependencies(${lib} ${lib}_header_check)
endfunction()
