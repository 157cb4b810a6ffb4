// --option invocation=: how the client calls, after Open CORBA Benchmarking's
// three client mechanisms. static: the stubs (omniorb_calls.hpp); dii: a
// CORBA::Request built and invoked per call (the DII); ami_callback: the
// sendc_ stubs and a ReplyHandler (omniorb_ami.hpp); ami_poller: the sendp_
// stubs and the poller's blocking get; oneway: ping_oneway, which has no
// reply, timed by its delivery to the servant (the server's delivery board).
#pragma once

#include <omniORB4/CORBA.h>

#include "RoundTrip.hh"
#include "common/delivery_board.hpp"
#include "mwbench/measurement.hpp"
#include "mwbench/name_table.hpp"
#include "mwbench/options.hpp"
#include "omniorb_ami.hpp"
#include "omniorb_delivery.hpp"

namespace omniorb_driver {

enum class Invocation { static_stub, dii, ami_callback, ami_poller, oneway };
inline constexpr mwbench::NameTable<Invocation, 5> kInvocations{
    {{{Invocation::static_stub, "static"},
      {Invocation::dii, "dii"},
      {Invocation::ami_callback, "ami_callback"},
      {Invocation::ami_poller, "ami_poller"},
      {Invocation::oneway, "oneway"}}}};

// --option invocation= (static when absent).
Invocation invocation_of(const mwbench::DriverOptions& options);

// --option client_pool_size=N: the threads of omniORB's client pool
// (maxClientThreadPoolSize) that make invocation=ami_callback's calls, each
// as a synchronous call of its own. 1 (the default): one call at a time,
// replies in the order of the calls, every operation. Above 1 (omniORB's own
// default is 100): up to N calls in flight, on a GIOP connection each
// (connections=own) or interleaved on one (shared), replies in any order, so
// operation roundtrip only, each reply matched by the call number it echoes.
// Throws UsageError (exit 2) for a bad value or one that cannot apply.
extern const char* const kClientPoolHelp;
unsigned client_pool_size(const mwbench::DriverOptions& options);

// Throws UsageError (exit 2) for what this invocation cannot measure: an
// operation a oneway call cannot carry, more than one thread or random
// targets outside static invocation.
void check_invocation(Invocation invocation, const mwbench::DriverOptions& options);

// Measures --operation through `invocation` (not static) on one thread, on
// `target`. `board` is the server's delivery board (needed by oneway);
// `delivery` times each call's delivery when delivery_time=1; `handler` is the
// ReplyHandler of ami_callback (declared by the caller before its ORB, which
// must not outlive it).
void measure_invocation(Invocation invocation, const mwbench::DriverOptions& options,
                        mwbench::Measurement& m, CORBA::ORB_ptr orb, Test::RoundTrip_ptr target,
                        mwbench::common::DeliveryBoard* board, const DeliveryTimer& delivery,
                        ReplyHandler* handler);

// Whether an open loop ended with calls unanswered (a server that stopped
// answering): their AMI calls are still in flight on the ORB's threads.
inline bool lost_calls(const mwbench::Measurement& m) noexcept {
  const mwbench::OpenLoopSummary* load = m.open_loop_summary();
  return load != nullptr && load->lost > 0;
}

}  // namespace omniorb_driver
