# Tests that run under Open MPI through poprun (hostlib/popdist/poprun).
#
# ipu_add_mpi_test(<name> INSTANCES <n> REPLICAS <r> COMMAND <program> [args...] [LABELS ...])
# registers `poprun --num-instances n --num-replicas r --mpi-global-args=--oversubscribe <program> args` with the
# environment mpirun needs here: root is allowed (containers and CI run as root; Open MPI refuses it otherwise)
# and --oversubscribe lets more instances than cores run (a 2-core machine runs 4 instances). The test is labelled
# "mpi" besides `unit`, which `make test` runs (it excludes only "slow" in the sanitizer build).
function(ipu_add_mpi_test name)
  cmake_parse_arguments(T "" "INSTANCES;REPLICAS" "COMMAND;LABELS" ${ARGN})
  if(NOT T_INSTANCES OR NOT T_REPLICAS OR NOT T_COMMAND)
    message(FATAL_ERROR "ipu_add_mpi_test(${name}): give INSTANCES, REPLICAS and COMMAND")
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_BINARY_DIR}/bin/poprun --num-instances ${T_INSTANCES} --num-replicas ${T_REPLICAS}
                   --mpi-global-args=--oversubscribe ${T_COMMAND})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "IPU_BOARD_PATH=${IPU_SOURCE_DIR}/boards;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
    LABELS "unit;mpi;${T_LABELS}"
    PROCESSORS ${T_INSTANCES})
  if(IPU_SANITIZE)
    # LeakSanitizer reports Open MPI's own process-lifetime allocations (its runtime keeps them until exit).
    set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
endfunction()
