# CMake package of libdirectml_py, installed inside the dmlc Python package:
#
#   cmake -S . -B build -Ddmlc_DIR="$(dmlc config --cmakedir)"
#
#   find_package(dmlc 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE dmlc::directml_py)
#
# (or put the directory holding the dmlc package, site-packages, on CMAKE_PREFIX_PATH).
# Paths are found relative to this file, so the package may be installed anywhere.  CMake
# gives programs in the build tree an rpath to the library; installed programs need
# INSTALL_RPATH pointing at `dmlc config --libdir`, inside the Python environment.
get_filename_component(_dmlc_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

if(WIN32)
  set(_dmlc_library "${_dmlc_root}/directml_py.dll")
elseif(APPLE)
  set(_dmlc_library "${_dmlc_root}/libdirectml_py.dylib")
else()
  set(_dmlc_library "${_dmlc_root}/libdirectml_py.so")
endif()

if(NOT EXISTS "${_dmlc_library}" OR NOT EXISTS "${_dmlc_root}/include/directml_py.h")
  set(dmlc_FOUND FALSE)
  set(dmlc_NOT_FOUND_MESSAGE
      "the dmlc package in ${_dmlc_root} has no built library or header: reinstall it (pip install . in dmlc's checkout)")
  return()
endif()

if(NOT TARGET dmlc::directml_py)
  add_library(dmlc::directml_py SHARED IMPORTED)
  set_target_properties(dmlc::directml_py PROPERTIES
    IMPORTED_LOCATION "${_dmlc_library}"
    INTERFACE_INCLUDE_DIRECTORIES "${_dmlc_root}/include")
  if(WIN32)
    set_target_properties(dmlc::directml_py PROPERTIES IMPORTED_IMPLIB "${_dmlc_root}/directml_py.lib")
  endif()
endif()

set(dmlc_INCLUDE_DIRS "${_dmlc_root}/include")
set(dmlc_LIBRARIES dmlc::directml_py)
unset(_dmlc_library)
unset(_dmlc_root)
