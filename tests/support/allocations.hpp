// Counting heap allocations in the unit-test binary (malloc is interposed in
// tests/unit/test_no_allocation.cpp), so any test can assert "allocates nothing".
#pragma once

namespace eom::test {

/// Number of malloc/calloc/realloc calls made while `work()` runs.
template <class Work>
long allocations_during(Work&& work);

// the switch and the count behind allocations_during, defined with the interposed malloc
void count_allocations(bool on);
long counted_allocations();

template <class Work>
long allocations_during(Work&& work) {
  count_allocations(true);
  work();
  count_allocations(false);
  return counted_allocations();
}

}  // namespace eom::test
