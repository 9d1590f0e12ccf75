# ipu_board_reader(TARGET): the board reader (and its writer, board_write.c) as a static library TARGET, for every
# build that compiles it (the project, QEMU's corelib, the fuzz targets), so that its sources and its one dependency
# are listed once.
# toml11 (Debian: libtoml11-dev) is header only: nothing of it is linked or installed.
find_package(toml11 3 REQUIRED)
function(ipu_board_reader target)
  add_library(${target} STATIC ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ipu_board.c
                               ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/board_toml.cpp
                               ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/board_text.c
                               ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/board_write.c
                               ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/board_values.c)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_FUNCTION_LIST_DIR}>)
  target_link_libraries(${target} PRIVATE toml11::toml11)
endfunction()
