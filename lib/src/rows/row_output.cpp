#include "eom/rows/row_output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/output_file.hpp>

#include <nlohmann/json.hpp>

namespace eom::rows {

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
  bool operator==(const FileId& o) const { return device == o.device && inode == o.inode; }
};

// The file a path names now, `-` being the descriptor `standard` (stdin 0, stdout 1); none for a
// file that does not exist, and for character devices and sockets: reading and writing a
// terminal, /dev/null or a socket never replaces anything.
std::optional<FileId> file_id(const std::string& path, int standard) {
  struct stat s;
  const int descriptor = path == "-" ? standard : descriptor_named(path);
  const int rc = descriptor >= 0 ? ::fstat(descriptor, &s) : ::stat(path.c_str(), &s);
  if (rc != 0 || S_ISCHR(s.st_mode) || S_ISSOCK(s.st_mode)) return std::nullopt;
  return FileId{s.st_dev, s.st_ino};
}

// Where an output goes, for outputs that do not exist yet: a descriptor, or the path of the file
// it will replace (links followed, made absolute).
std::string destination_key(const std::string& path) {
  const int descriptor = path == "-" ? 1 : descriptor_named(path);
  if (descriptor >= 0) return "descriptor " + std::to_string(descriptor);
  std::error_code error;
  const auto absolute = std::filesystem::absolute(link_target(path), error);
  const auto key = std::filesystem::weakly_canonical(absolute, error);
  return error ? absolute.lexically_normal().string() : key.string();
}

std::string named(const std::string& path, const char* stream) {
  return path == "-" ? std::string("- (") + stream + ")" : path;
}

void check_summary_directory(const std::string& summary) {
  if (summary.empty() || summary == "-") return;
  const std::filesystem::path directory = std::filesystem::path(summary).parent_path();
  std::error_code error;
  if (!directory.empty() && !std::filesystem::is_directory(directory, error)) {
    throw InputError(Setting::summary + (" " + summary + ": no directory " + directory.string()));
  }
  if (std::filesystem::is_directory(summary, error)) {
    throw InputError(Setting::summary + (" " + summary + ": is a directory"));
  }
}

}  // namespace

void check_destinations(const std::vector<std::string>& inputs,
                        const std::vector<std::string>& tables, const std::string& summary,
                        const std::vector<std::string>& others) {
  check_summary_directory(summary);
  struct Output {
    std::string path, key;
    std::optional<FileId> id;
  };
  std::vector<Output> outputs;
  auto add = [&](const std::string& path) {
    if (!path.empty()) outputs.push_back({path, destination_key(path), file_id(path, 1)});
  };
  for (const auto& path : tables) add(path);
  for (const auto& path : others) add(path);
  add(summary);

  std::vector<std::pair<FileId, std::string>> input_ids;
  for (const std::string& path : inputs) {
    if (auto id = file_id(path, 0)) input_ids.emplace_back(*id, path);
  }
  for (const Output& out : outputs) {
    if (!out.id) continue;
    for (const auto& [input, path] : input_ids) {
      if (input == *out.id) {
        throw InputError("the output " + named(out.path, "stdout") + " is the input " +
                         named(path, "stdin") +
                         ": refusing to replace an input (choose another output)");
      }
    }
  }
  // two outputs in one place: the second would replace the first (batch outputs are compared by
  // name in batch_outputs, with their inputs in the message); maps keep a large batch fast
  std::map<std::string, const Output*> by_key;
  std::map<std::pair<dev_t, ino_t>, const Output*> by_id;
  for (const Output& out : outputs) {
    const Output* other = by_key.emplace(out.key, &out).first->second;
    if (other == &out && out.id) {
      other = by_id.emplace(std::pair(out.id->device, out.id->inode), &out).first->second;
    }
    if (other == &out) continue;
    if (&out == &outputs.back() && !summary.empty()) {
      if (summary == "-" && other->path == "-") {
        throw InputError(Setting::summary + " -: the table goes to stdout; give " +
                         Setting::output + " FILE or write the summary to a file");
      }
      throw InputError(Setting::summary + (" " + summary + ": the table is written there too (" +
                                           named(other->path, "stdout") + ")"));
    }
    throw InputError("the outputs " + named(other->path, "stdout") + " and " +
                     named(out.path, "stdout") + " are the same file");
  }
}

std::vector<std::string> batch_outputs(const std::vector<std::string>& inputs,
                                       const std::string& dir, const OutputOptions& output) {
  if (output.path != "-") {
    throw InputError(Setting::output + " and " + Setting::output_dir + " exclude each other");
  }
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
    throw InputError(Setting::output_dir + (" " + dir + ": exists and is not a directory"));
  }
  std::filesystem::create_directories(dir, error);
  if (error) throw InputError(Setting::output_dir + (" " + dir + ": " + error.message()));
  return outputs;
}

std::string truncated_path(const std::string& output) {
  const std::string target = link_target(output);
  struct stat s;
  if (output == "-" || descriptor_named(output) >= 0 ||
      (::stat(target.c_str(), &s) == 0 && !S_ISREG(s.st_mode))) {
    throw InputError(Setting::keep_truncated + " needs " + Setting::output +
                     (" naming a regular file: " + named(output, "stdout") +
                      " is written as the rows come, so the rows so far are there anyway"));
  }
  const std::filesystem::path p(target);
  const std::string name = p.stem().string() + ".truncated" + p.extension().string();
  if (name.size() > NAME_MAX) {
    throw InputError(Setting::keep_truncated +
                     (": " + shown_input(name) + " would be " + std::to_string(name.size()) +
                      " bytes, over the " + std::to_string(NAME_MAX) +
                      " a file name may have (choose a shorter ") +
                     Setting::output + ")");
  }
  const std::string kept = (p.parent_path() / name).string();
  if (::lstat(kept.c_str(), &s) == 0) {
    throw InputError(Setting::keep_truncated +
                     (": " + kept +
                      " exists and eom does not replace it (remove it or "
                      "choose another ") +
                     Setting::output + ")");
  }
  return kept;
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
  const long rows = s.rows.load();
  std::string line = "\r\033[Keom " + s.command + ": " + std::to_string(rows) + " rows, " +
                     fixed_text(rows / seconds, 0) + " rows/s";
  if (s.files > 1) {
    const size_t done = s.files_done;
    line += ", " + std::to_string(done) + "/" + std::to_string(s.files) + " files";
    if (done > 0) line += ", " + fixed_text(seconds / done * (s.files - done), 0) + " s left";
  } else if (s.total > 0 && s.done > 0) {
    const double done = s.done;
    line += ", " + fixed_text(100 * done / s.total, 0) + "%, " +
            fixed_text(seconds * (s.total - done) / done, 0) + " s left";
  }
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  s.shown = true;
}

nlohmann::json summary_object(const std::string& command, const nlohmann::json& file,
                              const std::string& output, bool written, long rows, int exit_code,
                              const MessageLog& log) {
  return {{"command", command},       {"file", file},        {"output", output},
          {"written", written},       {"rows", rows},        {"exit_code", exit_code},
          {"warnings", log.warnings}, {"errors", log.errors}};
}

void commit_results(const std::vector<TableWriter*>& tables, const std::string& summary_path,
                    const nlohmann::json& summary) {
  for (TableWriter* table : tables) table->finish();
  OutputFile file;
  if (!summary_path.empty()) {
    if (summary_path == "-") {
      file.to_stream(std::cout, "<stdout>");
    } else {
      file.to_file(summary_path);
    }
    file.write(summary.dump(2) + "\n");
    file.finish();
  }
  for (TableWriter* table : tables) table->commit();
  if (!summary_path.empty()) file.commit();
}

void write_document(const std::string& path, const std::string& text,
                    std::ostream& standard_output) {
  OutputFile out;
  if (path.empty() || path == "-") {
    out.to_stream(standard_output, "<stdout>");
  } else {
    out.to_file(path);
  }
  out.write(text);
  out.commit();
}

}  // namespace eom::rows
