// Counts heap allocations made while a function runs, through a replaced
// global operator new (alloc_counter.cpp, its own file so the compiler does
// not pair that operator with the frees it sees). Not available under
// AddressSanitizer, which owns operator new.
#pragma once

#include <functional>

namespace mwbench::testing {

int count_allocations(const std::function<void()>& body);

}  // namespace mwbench::testing
