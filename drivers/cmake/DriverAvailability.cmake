# mwbench_driver_unavailable(<name> <reason>): a driver whose middleware this
# machine lacks is not built; the reason is written where `mwbench list` and
# the run's skipped-cells list read it (build/drivers/<name>/unavailable.txt).
# A driver that is built removes a stale reason with mwbench_driver_available().
function(mwbench_driver_unavailable name reason)
  message(STATUS "driver ${name}: not built: ${reason}")
  file(WRITE ${CMAKE_BINARY_DIR}/drivers/${name}/unavailable.txt "${reason}\n")
endfunction()

function(mwbench_driver_available name)
  file(REMOVE ${CMAKE_BINARY_DIR}/drivers/${name}/unavailable.txt)
endfunction()

# mwbench_driver_requires(<name> <found> <reason>): unless the variable named
# <found> (a package's _FOUND, a program or a path found) is true, the driver
# is not built: mwbench_driver_unavailable(<name> <reason>), and the calling
# CMakeLists.txt returns (a macro, so that its return() leaves the caller).
macro(mwbench_driver_requires name found reason)
  if(NOT ${found})
    mwbench_driver_unavailable(${name} "${reason}")
    return()
  endif()
endmacro()
