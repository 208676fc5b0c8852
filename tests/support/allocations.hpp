// Counting heap allocations in the unit-test binary (malloc is interposed in
// tests/unit/test_no_allocation.cpp), so any test can assert "allocates nothing".
#pragma once

// AddressSanitizer owns malloc: the interposed counter cannot stand beside it (memory from
// __libc_malloc freed by ASan's free is an error). Under ASan the allocation tests carry the
// hidden tag [.], so neither Catch's default run nor ctest (catch_discover_tests) lists them, and
// counted_allocations() is -1, so running one by name fails instead of passing without counting.
#if defined(__SANITIZE_ADDRESS__)
#define EOM_ALLOCATIONS_UNCOUNTED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EOM_ALLOCATIONS_UNCOUNTED 1
#endif
#endif

/// The tag of every test that counts allocations: "[allocation]", hidden under ASan.
#if defined(EOM_ALLOCATIONS_UNCOUNTED)
#define EOM_ALLOCATION_TAG "[allocation][.]"
#else
#define EOM_ALLOCATION_TAG "[allocation]"
#endif

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
