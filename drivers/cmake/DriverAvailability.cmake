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
