# The layer check (cmake -DROOT=<repo> -P scripts/check_layers.cmake; a ctest test runs it).
# Each target must link exactly the layers its files include, so the build states the real
# dependency graph. It fails when a file under src/<layer>/ includes:
#   - a header of a rainet layer that its target does not link (a higher layer, or a sibling such
#     as store from protocol), or a folder that is no layer;
#   - a third-party header (Boost, nlohmann, SQLite, libpq, libsodium) its target does not link;
#   - Boost or a network header in core, ai or tournament, whatever the link lines say (STYLE.md);
# and when a target links a rainet layer that none of its files includes (a chain, not a graph).
# The link lines are read from src/CMakeLists.txt (rainet_layer) and src/cli/CMakeLists.txt.
# *_test.cpp files may also include the test support folder (support/).
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<repository> -P scripts/check_layers.cmake")
endif()

set(layers core ai tournament protocol store bus wsclient client loadgen server cli)
set(problems "")

# The link list of each target, as one string.
file(READ "${ROOT}/src/CMakeLists.txt" top)
string(REGEX MATCHALL "rainet_layer\\([^)]*\\)" calls "${top}")
foreach(call IN LISTS calls)
  string(REGEX REPLACE "^rainet_layer\\(([a-z]+)(.*)\\)$" "\\1" name "${call}")
  string(REGEX REPLACE "^rainet_layer\\(([a-z]+)(.*)\\)$" "\\2" deps "${call}")
  set(links_${name} "${deps}")
endforeach()
file(READ "${ROOT}/src/cli/CMakeLists.txt" cli)
string(REGEX MATCH "target_link_libraries\\(rainet PRIVATE[^)]*\\)" rainet_line "${cli}")
set(links_cli "${rainet_line}")

# Third-party headers and the link target each one needs.
set(third_party "boost/=Boost::headers" "nlohmann/=nlohmann_json" "sqlite3.h=SQLite::SQLite3"
                "libpq-fe.h=PkgConfig::PQ" "hiredis/=PkgConfig::HIREDIS" "sodium.h=PkgConfig::SODIUM" "sodium/=PkgConfig::SODIUM"
                "CLI/=CLI11::CLI11")

# Checks one file of a target whose link line is `links`; `self` is the file's own layer.
function(check_file file self links)
  file(STRINGS "${file}" includes REGEX "^#include [<\"]")
  file(RELATIVE_PATH rel "${ROOT}" "${file}")
  foreach(line IN LISTS includes)
    if(line MATCHES "^#include \"([a-z_]+)/")
      set(dir "${CMAKE_MATCH_1}")
      if(dir STREQUAL self)
        continue()
      endif()
      if(dir STREQUAL "support" AND rel MATCHES "_test\\.cpp$")
        continue()
      endif()
      if(NOT dir IN_LIST layers)
        list(APPEND problems "${rel}: includes \"${dir}/\", which is no layer")
      elseif(NOT links MATCHES "rainet_${dir}( |\\)|$)")
        list(APPEND problems "${rel}: includes layer ${dir}, which its target does not link")
      else()
        set_property(GLOBAL APPEND PROPERTY used_${self} "${dir}")
      endif()
    elseif(line MATCHES "^#include <([^>]+)>")
      set(header "${CMAKE_MATCH_1}")
      if(self STREQUAL "core" OR self STREQUAL "ai" OR self STREQUAL "tournament")
        if(header MATCHES "^(boost/|sys/socket\\.h|netinet/|arpa/|netdb\\.h)")
          list(APPEND problems "${rel}: <${header}>: no Boost or network in ${self}")
        endif()
      endif()
      foreach(pair IN LISTS third_party)
        string(REPLACE "=" ";" pair "${pair}")
        list(GET pair 0 prefix)
        list(GET pair 1 target)
        string(FIND "${header}" "${prefix}" at)
        if(at EQUAL 0 AND NOT links MATCHES "${target}")
          list(APPEND problems "${rel}: <${header}> needs ${target}, which its target does not link")
        endif()
      endforeach()
    endif()
  endforeach()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

foreach(layer IN LISTS layers)
  file(GLOB files "${ROOT}/src/${layer}/*.h" "${ROOT}/src/${layer}/*.cpp" "${ROOT}/src/${layer}/*.inc")
  foreach(file IN LISTS files)
    get_filename_component(base "${file}" NAME)
    set(links "${links_${layer}}")
    if(base MATCHES "_test\\.cpp$")
      # A layer's tests link the layer itself (and the test support library).
      set(links "${links} rainet_${layer}")
    endif()
    check_file("${file}" "${layer}" "${links}")
  endforeach()
  # No chain: every rainet layer a target links is included by at least one of its files.
  get_property(used GLOBAL PROPERTY used_${layer})
  string(REGEX MATCHALL "rainet_[a-z]+" linked "${links_${layer}}")
  list(REMOVE_DUPLICATES linked)
  foreach(dep IN LISTS linked)
    string(REPLACE "rainet_" "" dep "${dep}")
    if(NOT dep IN_LIST used)
      list(APPEND problems "src/${layer}: links layer ${dep}, which none of its files includes")
    endif()
  endforeach()
endforeach()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "layer check failed:\n  ${text}")
endif()
message(STATUS "layer check: every file includes only the layers its target links")
