// White-box probes of the probe build (mwbench-driver-ccm-probes): the time
// at each point of a call's functional path, from the client's call to its
// return, through the stub, the POA's upcall, the glue and the executor.
//
// CCM_PROBE(point) compiles to nothing unless MWCCM_PROBES is defined, which
// only the probe build's generated library exports: the normal driver has no
// probe code at all. In the probe build a probe is one clock read and one
// store into its thread's buffer, preallocated and touched before anything
// is timed: no allocation, lock or I/O on the path. CLOCK_MONOTONIC is one
// clock for every process of the machine, so the server's points and the
// client's line up (benchmarks/ccm_whitebox/run.py joins them).
#pragma once

#include <cstdint>
#include <string>

namespace ccm_driver {

// In path order. glue_entry, executor_call and executor_return are the
// generated glue's points (mwccm_glue/probe.hpp); a plain servant records
// glue_entry where the POA's upcall reaches it and executor_return where its
// work is done (omniorb_servant.cpp).
enum class ProbePoint : std::uint8_t {
  client_call,      // the measuring thread starts the call
  stub_call,        // a component client's executor calls the receptacle's stub
  glue_entry,       // the POA's upcall reaches the (glue or plain) servant
  executor_call,    // the glue calls the executor
  executor_return,  // the executor (or plain servant's work) returns
  stub_return,      // the stub returns to the component client's executor
  client_return,    // the call returns to the measuring thread
};

#ifdef MWCCM_PROBES
void probe(ProbePoint point) noexcept;
// Allocates and touches the buffers, and hooks the glue's probes; before ORB_init.
void start_probes();
// Writes every thread's records to `path`: lines "thread point ns", in the
// order they were taken.
void write_probes(const std::string& path);
#define CCM_PROBE(point) ::ccm_driver::probe(::ccm_driver::ProbePoint::point)
#else
#define CCM_PROBE(point) \
  do {                   \
  } while (false)
#endif

}  // namespace ccm_driver
