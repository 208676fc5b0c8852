// A Google Benchmark reporter for the same-run comparison programs (bench_kdl, bench_engines,
// bench_pinocchio): the console output as usual, and the median CPU time of each benchmark kept
// for their tables.
#pragma once

#include <cstdio>
#include <cstdlib>
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

/// Runs the benchmarks registered so far under Google Benchmark's own options (exit 1 on one it
/// does not know) and returns their median CPU ns by name: empty, with a line saying how to get
/// them, when the run had no repetitions.
inline std::map<std::string, double> run_with_medians(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) std::exit(1);
  MedianCollector reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  if (reporter.median_ns.empty()) {
    std::printf("\n(run with --benchmark_repetitions=5 for the table of medians)\n");
  }
  return reporter.median_ns;
}

}  // namespace eom::bench
