#include "row_output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>

#include <eom/core/errors.hpp>

#include <nlohmann/json.hpp>

namespace eom::cli {

void add_output_options(CLI::App& cmd, OutputOptions& opt) {
  cmd.add_option("-o,--output", opt.path, "Output file; - writes stdout")->default_str("-");
  cmd.add_option("--format", opt.format, "Output format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
}

std::optional<Format> forced_format(const OutputOptions& opt) {
  if (opt.format.empty()) return std::nullopt;
  return parse_format(opt.format);
}

std::unique_ptr<TableWriter> open_output(const OutputOptions& opt, Header header) {
  return TableWriter::open(opt.path, format_for(opt.path, forced_format(opt)), std::move(header));
}

namespace {

struct FileId {
  dev_t device = 0;
  ino_t inode = 0;
};

std::optional<FileId> file_id(const std::string& path) {
  struct stat s;
  if (path == "-" || ::stat(path.c_str(), &s) != 0 || !S_ISREG(s.st_mode)) return std::nullopt;
  return FileId{s.st_dev, s.st_ino};
}

void refuse_to_replace_inputs(const std::vector<std::string>& tables, const std::string& robot,
                              const std::vector<std::string>& outputs) {
  std::vector<std::pair<FileId, std::string>> inputs;
  for (const auto& path : tables) {
    if (auto id = file_id(path)) inputs.emplace_back(*id, path);
  }
  if (auto id = file_id(robot)) inputs.emplace_back(*id, robot);
  for (const auto& out : outputs) {
    const auto id = file_id(out);
    if (!id) continue;
    for (const auto& [input, path] : inputs) {
      if (input.device == id->device && input.inode == id->inode) {
        throw InputError("the output " + out + " is the input " + path +
                         ": refusing to replace an input (choose another output)");
      }
    }
  }
}

void check_summary_destination(const std::string& summary,
                               const std::vector<std::string>& outputs) {
  if (summary.empty()) return;
  const std::filesystem::path directory = std::filesystem::path(summary).parent_path();
  std::error_code error;
  if (summary != "-" && !directory.empty() && !std::filesystem::is_directory(directory, error)) {
    throw InputError("--summary-json " + summary + ": no directory " + directory.string());
  }
  if (summary != "-" && std::filesystem::is_directory(summary, error)) {
    throw InputError("--summary-json " + summary + ": is a directory");
  }
  for (const auto& output : outputs) {
    if (summary == "-" && output == "-") {
      throw InputError(
          "--summary-json -: the table goes to stdout; give -o FILE or write the "
          "summary to a file");
    }
    if (summary != "-" && std::filesystem::path(summary).lexically_normal() ==
                              std::filesystem::path(output).lexically_normal()) {
      throw InputError("--summary-json " + summary + ": the table is written there too");
    }
  }
}

}  // namespace

void check_destinations(const std::vector<std::string>& inputs, const std::string& robot,
                        const std::vector<std::string>& tables, const std::string& summary,
                        const std::vector<std::string>& others) {
  check_summary_destination(summary, tables);
  std::vector<std::string> outputs = tables;
  outputs.insert(outputs.end(), others.begin(), others.end());
  outputs.push_back(summary);
  refuse_to_replace_inputs(inputs, robot, outputs);
}

std::vector<std::string> batch_outputs(const std::vector<std::string>& inputs,
                                       const std::string& dir, const OutputOptions& output) {
  if (output.path != "-") throw InputError("-o and --output-dir exclude each other");
  const size_t n = inputs.size();
  std::vector<std::string> outputs(n);
  for (size_t i = 0; i < n; ++i) {
    if (inputs[i] == "-") throw InputError("batch mode reads files, not stdin");
    const std::filesystem::path in(inputs[i]);
    const std::string extension =
        output.format.empty() ? in.extension().string() : "." + output.format;
    outputs[i] = (std::filesystem::path(dir) / in.stem()).string() + extension;
    for (size_t k = 0; k < i; ++k) {
      if (std::filesystem::path(outputs[k]).lexically_normal() ==
          std::filesystem::path(outputs[i]).lexically_normal()) {
        throw InputError(inputs[k] + " and " + inputs[i] + " would both be written to " +
                         outputs[i] + ": give them different names or separate runs");
      }
    }
  }
  std::error_code error;
  if (std::filesystem::exists(dir, error) && !std::filesystem::is_directory(dir, error)) {
    throw InputError("--output-dir " + dir + ": exists and is not a directory");
  }
  std::filesystem::create_directories(dir, error);
  if (error) throw InputError("--output-dir " + dir + ": " + error.message());
  return outputs;
}

std::string truncated_path(const std::string& path) {
  std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + ".truncated" + p.extension().string())).string();
}

ResultTable::ResultTable(const OutputOptions& opt, Header header, bool keep_truncated)
    : final_path_(opt.path),
      path_(keep_truncated ? truncated_path(opt.path) : opt.path),
      keep_truncated_(keep_truncated) {
  OutputOptions output = opt;
  output.path = path_;
  writer_ = open_output(output, std::move(header));
}

void ResultTable::commit() {
  writer_->commit();
  if (keep_truncated_) std::filesystem::rename(path_, final_path_);
}

std::string ResultTable::keep_truncated() {
  if (!keep_truncated_) return "";
  writer_->commit();
  return path_;
}

struct Progress::State {
  using Clock = std::chrono::steady_clock;
  State(const std::string& command, bool enabled, size_t files, double total)
      : command(command), enabled(enabled), files(files), total(total) {}
  std::string command;
  bool enabled;
  size_t files;
  double total;
  Clock::time_point start = Clock::now();
  std::atomic<Clock::time_point> next{start + std::chrono::seconds(1)};
  std::atomic<long> rows{0};
  std::atomic<size_t> files_done{0};
  std::atomic<double> done{0};
  std::mutex mutex;
  bool shown = false;
};

Progress::Progress(const std::string& command, bool enabled, size_t files, double total)
    : state_(std::make_unique<State>(command, enabled && ::isatty(2), files, total)) {}

Progress::~Progress() {
  if (state_->shown) std::fprintf(stderr, "\r\033[K");
}

void Progress::add_rows(long n) {
  state_->rows += n;
  tick();
}

void Progress::file_done() {
  ++state_->files_done;
  tick();
}

void Progress::done_to(double units) { state_->done = units; }

void Progress::tick() {
  State& s = *state_;
  if (!s.enabled) return;
  const auto now = State::Clock::now();
  if (now < s.next.load()) return;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.next = now + std::chrono::milliseconds(250);
  const double seconds = std::chrono::duration<double>(now - s.start).count();
  std::fprintf(stderr, "\r\033[Keom %s: %ld rows, %.0f rows/s", s.command.c_str(), s.rows.load(),
               s.rows / seconds);
  if (s.files > 1) {
    const size_t done = s.files_done;
    std::fprintf(stderr, ", %zu/%zu files", done, s.files);
    if (done > 0) std::fprintf(stderr, ", %.0f s left", seconds / done * (s.files - done));
  } else if (s.total > 0 && s.done > 0) {
    const double done = s.done;
    std::fprintf(stderr, ", %.0f%%, %.0f s left", 100 * done / s.total,
                 seconds * (s.total - done) / done);
  }
  std::fflush(stderr);
  s.shown = true;
}

void add_summary_option(CLI::App& cmd, std::string& path) {
  cmd.add_option("--summary-json", path,
                 "Write the run's summary as JSON to FILE: an array with one object per table "
                 "(rows, exit code, warnings and the command's figures); - writes stdout when "
                 "the table goes to a file");
}

nlohmann::json summary_object(const std::string& command, const nlohmann::json& file,
                              const std::string& output, bool written, long rows, int exit_code,
                              const MessageLog& log) {
  return {{"command", command},       {"file", file},        {"output", output},
          {"written", written},       {"rows", rows},        {"exit_code", exit_code},
          {"warnings", log.warnings}, {"errors", log.errors}};
}

void write_summary(const std::string& path, const nlohmann::json& tables) {
  write_file(path, tables.dump(2) + "\n");
}

}  // namespace eom::cli
