// Probe points of the generated glue: where a facet call enters the glue
// servant, where it calls the executor and where the executor returns. They
// time the glue's extra call, the cost CCMPerf measures white-box.
//
// MWCCM_PROBE(point) compiles to nothing unless MWCCM_PROBES is defined
// (mwccm_generate(... PROBES) defines it for one generated library); then it
// calls the hook a measuring program installs, or nothing while none is.
#pragma once

namespace mwccm_glue {

enum class ProbePoint { glue_entry, executor_call, executor_return };

using ProbeHook = void (*)(ProbePoint point) noexcept;

// Set before the calls to probe (not synchronised: a hook is installed once,
// before the measured loop starts).
inline ProbeHook probe_hook = nullptr;

}  // namespace mwccm_glue

#ifdef MWCCM_PROBES
#define MWCCM_PROBE(point)                                          \
  do {                                                              \
    if (::mwccm_glue::ProbeHook hook_ = ::mwccm_glue::probe_hook) { \
      hook_(::mwccm_glue::ProbePoint::point);                       \
    }                                                               \
  } while (false)
#else
#define MWCCM_PROBE(point) \
  do {                     \
  } while (false)
#endif
