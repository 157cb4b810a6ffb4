// SIGINT/SIGTERM handling for driver processes (internal): the helper mwccm's
// programs share (stop_signals/), under the names the harness uses, and the
// signal's name for the harness's messages.
#pragma once

#include <mwbench/stop_signals.hpp>

namespace mwbench::detail {

using BlockStopSignals = mwbench::BlockStopSignals;
using SignalThread = mwbench::StopSignalThread;

// "SIGTERM", "SIGINT", or "a signal".
const char* signal_name(int signo) noexcept;

}  // namespace mwbench::detail
