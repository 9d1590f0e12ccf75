# Shared rules of the PopLibs libraries (hostlib/poputil, popops, poprand, poplin, popnn, gcl): the tile codelets
# built by popc, install of the library and its headers, a pkg-config file, and a check that each public header
# compiles alone as C++11.

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
  file(GLOB codelet_sources ${dir}/codelets/*)
  file(GLOB public_headers ${dir}/include/${lib}/*.hpp)
  add_custom_command(OUTPUT ${gp}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/${data_dir}/codelets/${isa}
    COMMAND ${CMAKE_COMMAND} -E env IPU_EMU_CACHE=${IPU_EMU_CACHE} IPU_BOARD_PATH=${IPU_SOURCE_DIR}/boards
            $<TARGET_FILE:popc> --target ipu2 -I${dir}/include -I${dir}/codelets ${dir}/codelets/${lib}_codelets.cpp
            -o ${gp}
    DEPENDS popc ${codelet_sources} ${public_headers} ${IPU_SOURCE_DIR}/hostlib/poplar/device/include/poplar/Vertex.hpp
    COMMENT "popc: ${lib} codelets for ${isa}" VERBATIM)
  add_custom_target(${lib}_codelets ALL DEPENDS ${gp})
  add_dependencies(${lib} ${lib}_codelets)
  install(FILES ${gp} DESTINATION ${data_dir}/codelets/${isa})
endfunction()
function(poplibs_library_install lib description)
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  install(TARGETS ${lib} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${dir}/include/${lib} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set(POPLIBS_NAME ${lib})
  set(POPLIBS_DESCRIPTION "${description}")
  configure_file(${IPU_SOURCE_DIR}/hostlib/poplibs.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${lib}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${lib}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  file(GLOB headers CONFIGURE_DEPENDS ${dir}/include/${lib}/*.hpp)
  set(checks)
  foreach(h ${headers})
    get_filename_component(stem ${h} NAME_WE)
    set(src ${CMAKE_CURRENT_BINARY_DIR}/header_check/${stem}.cpp)
    file(WRITE ${src}.in "// Generated: checks that ${lib}/${stem}.hpp compiles alone as C++11.\n#include \"${lib}/${stem}.hpp\"\n")
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
