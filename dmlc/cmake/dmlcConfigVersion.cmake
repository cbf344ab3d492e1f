# find_package(dmlc X.Y) accepts this package when X.Y is not newer and, as semantic
# versioning has it, names the same major version (and, while the major version is 0, the
# same minor version).
set(PACKAGE_VERSION "0.1.0")
set(PACKAGE_VERSION_COMPATIBLE TRUE)
if(PACKAGE_FIND_VERSION)
  string(REPLACE "." ";" _dmlc_parts "${PACKAGE_VERSION}")
  list(GET _dmlc_parts 0 _dmlc_major)
  list(GET _dmlc_parts 1 _dmlc_minor)
  if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION
     OR NOT PACKAGE_FIND_VERSION_MAJOR EQUAL _dmlc_major
     OR (_dmlc_major EQUAL 0 AND NOT PACKAGE_FIND_VERSION_MINOR EQUAL _dmlc_minor))
    set(PACKAGE_VERSION_COMPATIBLE FALSE)
  elseif(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
  unset(_dmlc_parts)
  unset(_dmlc_major)
  unset(_dmlc_minor)
endif()
