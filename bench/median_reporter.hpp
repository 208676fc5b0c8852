// A Google Benchmark reporter for the same-run comparison programs (bench_kdl, bench_engines):
// the console output as usual, and the median CPU time of each benchmark kept for their tables.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace eom::bench {

class MedianCollector : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> median_ns;  // by benchmark name
  void ReportRuns(const std::vector<Run>& reports) override {
    for (const Run& r : reports) {
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median") {
        median_ns[r.run_name.function_name] = r.GetAdjustedCPUTime();
      }
    }
    ConsoleReporter::ReportRuns(reports);
  }
};

}  // namespace eom::bench
