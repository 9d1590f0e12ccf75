# cmake -P: copies the profiles in FROM to TO under the names gcc gives the variant's objects.
# gcc names a profile after its object's absolute path, '/' written '#': the training copy's
# objects were compiled from wrappers in the build's COPY/X.cpp, the variant's from VARIANT/X.cpp (ipu_rtl_pgo.cmake).
string(REPLACE "/" "#" copy "#${COPY}#")
string(REPLACE "/" "#" variant "${VARIANT}")
file(GLOB profiles RELATIVE ${FROM} ${FROM}/*.gcda)
file(MAKE_DIRECTORY ${TO})
set(found FALSE)
foreach(p ${profiles})
  string(FIND "${p}" "${copy}" at)
  if(at GREATER_EQUAL 0)
    string(REGEX REPLACE ".*#" "" base "${p}")
    file(COPY_FILE ${FROM}/${p} "${TO}/${variant}#${base}")
    set(found TRUE)
  endif()
endforeach()
if(NOT found)
  message(FATAL_ERROR "the RTL training run wrote no profile of ${COPY} into ${FROM}: "
                      "was its model built with -fprofile-generate?")
endif()
