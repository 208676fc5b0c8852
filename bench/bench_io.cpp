// Table I/O throughput (rows/s and bytes/s) on a trajectory of 22 columns: t, 7 q, 7 v, 7 a.
// Files live in the system's temporary directory; writes go through the temporary-and-rename
// path eom uses for -o.

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <eom/io/table.hpp>

namespace {

constexpr int kJoints = 7;

eom::Table make_trajectory(int rows) {
  eom::Table table;
  table.header.names.push_back("t");
  for (const char* kind : {"q.", "v.", "a."}) {
    for (int j = 1; j <= kJoints; ++j) table.header.names.push_back(kind + std::to_string(j));
  }
  table.values.reserve(static_cast<size_t>(rows) * table.header.names.size());
  for (int r = 0; r < rows; ++r) {
    const double t = r * 1e-3;
    table.values.push_back(t);
    for (int j = 1; j <= kJoints; ++j) table.values.push_back(0.3 * j * std::sin(j * t));
    for (int j = 1; j <= kJoints; ++j) table.values.push_back(0.3 * j * j * std::cos(j * t));
    for (int j = 1; j <= kJoints; ++j) table.values.push_back(-0.3 * j * j * j * std::sin(j * t));
  }
  return table;
}

const char* extension(eom::Format format) {
  return format == eom::Format::ndjson ? ".ndjson" : format == eom::Format::json ? ".json" : ".csv";
}

// The benchmark's files, written once per format and size, removed at exit.
class Files {
 public:
  ~Files() {
    std::error_code ignored;
    for (const auto& [key, path] : paths_) std::filesystem::remove(path, ignored);
  }
  std::string file_name(eom::Format format, int rows, const char* role) {
    return (std::filesystem::temp_directory_path() /
            ("eom_bench_io_" + std::to_string(::getpid()) + "_" + role + "_" +
             std::to_string(rows) + extension(format)))
        .string();
  }
  // A file of `rows` rows in `format`, written on first use.
  const std::string& input(eom::Format format, int rows) {
    std::string& path = paths_[{static_cast<int>(format), rows}];
    if (path.empty()) {
      path = file_name(format, rows, "in");
      eom::write_table(make_trajectory(rows), path, format);
    }
    return path;
  }

 private:
  std::map<std::pair<int, int>, std::string> paths_;
};

Files files;

void report(benchmark::State& state, int rows, const std::string& path) {
  state.SetItemsProcessed(state.iterations() * rows);
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(std::filesystem::file_size(path)));
}

void BM_read(benchmark::State& state, eom::Format format) {
  const int rows = static_cast<int>(state.range(0));
  const std::string& path = files.input(format, rows);
  std::vector<double> row;
  for (auto _ : state) {
    const auto reader = eom::TableReader::open(path, format);
    while (reader->next(row)) benchmark::DoNotOptimize(row.data());
    benchmark::ClobberMemory();
  }
  report(state, rows, path);
}

void BM_write(benchmark::State& state, eom::Format format) {
  const int rows = static_cast<int>(state.range(0));
  const eom::Table table = make_trajectory(rows);
  const std::string path = files.file_name(format, rows, "out");
  const size_t columns = table.header.names.size();
  for (auto _ : state) {
    const auto writer = eom::TableWriter::open(path, format, table.header);
    for (int r = 0; r < rows; ++r) writer->write_row(&table.values[r * columns]);
    writer->commit();
  }
  report(state, rows, path);
  std::filesystem::remove(path);
}

}  // namespace

constexpr int kRows = 100000;
BENCHMARK_CAPTURE(BM_read, csv, eom::Format::csv)->Arg(kRows)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_write, csv, eom::Format::csv)->Arg(kRows)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_read, ndjson, eom::Format::ndjson)->Arg(kRows)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_write, ndjson, eom::Format::ndjson)->Arg(kRows)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_read, json, eom::Format::json)->Arg(kRows)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_write, json, eom::Format::json)->Arg(kRows)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
