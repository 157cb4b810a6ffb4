// --memory-limit-mb: a cap on the process's address space (internal).
//
// RLIMIT_AS rather than a cgroup: it needs no privileges and no setup, and
// it makes an allocation beyond the cap fail at once (std::bad_alloc, or a
// middleware's own out-of-memory error) instead of letting the machine swap,
// which is what a sweep to 100,000 servants would otherwise do. It caps
// address space, not resident memory: thread stacks and malloc arenas count
// in full, so give a driver with many threads room for them.
#pragma once

#include <cstdint>
#include <string>

namespace mwbench::detail {

// Sets the soft RLIMIT_AS of this process to `mib` MiB. Throws UsageError
// when the hard limit is lower, or in a build with AddressSanitizer or
// ThreadSanitizer, whose shadow memory alone takes terabytes of address space.
void limit_address_space(std::uint64_t mib);

// Restores the soft RLIMIT_AS that limit_address_space() replaced. The
// harness calls it when a stop is requested: the cap is for setting up and
// measuring, and stopping may need room (omniORB starts a thread to shut
// its ORB down, which a process at its cap cannot). Safe from any thread.
void lift_address_space_limit() noexcept;

// From now on, an operator new that fails, on any thread, prints
// "<prog>: error: out of memory (--memory-limit-mb <mib>)" and ends the
// process with status 1 (a std::new_handler). Not an exception: a middleware
// may catch that on a thread of its own and go on in a broken state (omniORB
// then keeps a lock held, and never shuts down).
void exit_on_failed_allocation(const std::string& prog, std::uint64_t mib);

}  // namespace mwbench::detail
