# Profile-guided optimization of the Verilated card (issue 38), inside the one build: for a
# variant NAME, the model Verilator generated for it is compiled a second time with
# -fprofile-generate (ipu_rtl_NAME_train), a training program runs a tile program on that copy
# to its end (sim/rtl_pgo_train.cpp), and the variant's own objects are then compiled with
# -fprofile-use on the profile. The model is a few huge functions whose branches depend on
# which blocks are active in a cycle; the profile tells the compiler which paths are hot
# (rtl/README.md has the figures). GCC only; the sanitizer build leaves it out. Included by
# rtl/CMakeLists.txt after ipu_rtl.cmake (the QEMU device's copy of the card stays unprofiled).

# ipu_rtl_pgo(NAME TILES ELF ELF_TARGET): profile variant NAME (rtl-tiny's shape with TILES
# tiles) on ELF, the rv32im program that the target ELF_TARGET builds; OBJCOPY and READELF are
# the tile toolchain's (ipu_rtl_pgo_run.cmake makes a raw image of ELF with them).
function(ipu_rtl_pgo name tiles elf elf_target)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/pgo/${name})
  set(variant ipu_rtl_${name})
  set(model ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${variant}.dir/Vipu_card_${name}.dir)
  # gcc checks a profile against the source path of each function, so the copy compiles the
  # same files: a one-line wrapper per generated file includes it by its own path.
  get_target_property(sources ${variant} SOURCES)
  set(wrappers)
  foreach(src ${sources})
    if(src MATCHES "^${model}/.*\\.cpp$")
      get_filename_component(base ${src} NAME)
      file(CONFIGURE OUTPUT ${dir}/src/${base} CONTENT "#include \"${src}\"\n")
      list(APPEND wrappers ${dir}/src/${base})
      set_property(SOURCE ${dir}/src/${base} APPEND PROPERTY OBJECT_DEPENDS ${src})
    elseif(NOT src MATCHES "/variant_${name}\\.cpp$")
      list(APPEND wrappers ${src}) # Verilator's run-time library, not profiled
    endif()
  endforeach()
  set(IPU_RTL_VARIANT ${name}_train)
  set(IPU_RTL_PREFIX ipu_card_${name})
  set(IPU_RTL_ONE_EVAL true)
  configure_file(${IPU_RTL_DIR}/sim/variant.cpp.in ${dir}/variant_${name}_train.cpp @ONLY)
  add_library(${variant}_train STATIC ${wrappers} ${dir}/variant_${name}_train.cpp)
  foreach(prop INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    get_target_property(value ${variant} ${prop})
    if(value)
      set_property(TARGET ${variant}_train PROPERTY ${prop} ${value})
    endif()
  endforeach()
  # -fprofile-update=single: the model runs on one thread.
  target_compile_options(${variant}_train PRIVATE -fprofile-generate=${dir}/raw -fprofile-update=single)
  target_link_libraries(${variant}_train PRIVATE gcov)
  # (each wrapper depends on its generated file, which orders the copy after Verilator's run)

  set(train ipu_rtl_pgo_train_${name})
  add_executable(${train} ${IPU_RTL_DIR}/sim/rtl_pgo_train.cpp ${IPU_RTL_DIR}/sim/rtl_card.cpp)
  target_include_directories(${train} PRIVATE ${IPU_RTL_DIR}/sim ${IPU_RTL_DIR}/sim/include)
  target_compile_definitions(${train} PRIVATE IPU_RTL_TRAIN_MAKE=make_${name}_train IPU_RTL_TRAIN_TILES=${tiles})
  target_link_libraries(${train} PRIVATE ${variant}_train ipu_board ipu_contract)

  # gcc names each profile after its object's path: the copy's are renamed to the variant's.
  set(stamp ${dir}/profile.stamp)
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${dir}/raw ${dir}/use
    COMMAND ${CMAKE_COMMAND} -DELF=${elf} -DOBJCOPY=${IPU_RTL_TILE_OBJCOPY} -DREADELF=${IPU_RTL_TILE_READELF}
            -DIMAGE=${dir}/program.bin -DTRAIN=$<TARGET_FILE:${train}> -DITERATIONS=5000
            -P ${IPU_RTL_DIR}/cmake/ipu_rtl_pgo_run.cmake
    COMMAND ${CMAKE_COMMAND} -DFROM=${dir}/raw -DTO=${dir}/use -DCOPY=pgo/${name}/src
            -DVARIANT=${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${variant}.dir/CMakeFiles/${variant}.dir/Vipu_card_${name}.dir
            -P ${IPU_RTL_DIR}/cmake/ipu_rtl_pgo_rename.cmake
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${train} ${elf} ${elf_target} ${IPU_RTL_DIR}/cmake/ipu_rtl_pgo_rename.cmake
            ${IPU_RTL_DIR}/cmake/ipu_rtl_pgo_run.cmake
    COMMENT "training run of the RTL card ${name} for profile-guided optimization")
  add_custom_target(${variant}_profile DEPENDS ${stamp})
  # A profile that does not match its source (not expected: both builds read the same files)
  # costs the optimization only, not the build.
  target_compile_options(${variant} PRIVATE -fprofile-use=${dir}/use -fprofile-partial-training
                         -Wno-missing-profile -Wno-error=coverage-mismatch)
  foreach(src ${sources})
    if(src MATCHES "^${model}/.*\\.cpp$")
      set_property(SOURCE ${src} APPEND PROPERTY OBJECT_DEPENDS ${stamp})
    endif()
  endforeach()
endfunction()
