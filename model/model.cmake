# The card model library (included from CMakeLists.txt once the sources exist).
add_library(ipu_model STATIC
  src/card_memory.cpp src/card_regs.cpp src/card_dma.cpp src/card_run.cpp src/card_state.cpp
  src/iss.cpp src/iss_blocks.cpp src/iss_shared_code.cpp src/iss_fast.cpp src/iss_jit.cpp src/iss_native.cpp src/tile_csr.cpp src/tile_runner.cpp src/thread_pool.cpp src/model.cpp src/card_inject.cpp)
target_include_directories(ipu_model PUBLIC
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>
  PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_link_libraries(ipu_model PUBLIC ipu_contract ipu_board PRIVATE ipu_fpu Threads::Threads ${CMAKE_DL_LIBS})
target_compile_options(ipu_model PRIVATE $<$<CONFIG:RelWithDebInfo>:-O3>)
install(DIRECTORY include/ipu_model DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# xbyak (libxbyak-dev, header-only) generates the JIT tier's x86-64 code.
find_path(XBYAK_INCLUDE_DIR xbyak/xbyak.h REQUIRED)
target_include_directories(ipu_model SYSTEM PRIVATE ${XBYAK_INCLUDE_DIR})
