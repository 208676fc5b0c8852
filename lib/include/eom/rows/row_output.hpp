// The output half of the row engine: every file eom writes goes through here. Tables and
// summaries are written all or nothing (a regular file to a temporary next to it, renamed over it
// on success; a device or a pipe through the open descriptor; "-" to stdout), and no output of a
// run replaces one of its inputs (compared by device and inode). Also the run's messages, its
// --summary-json and progress on a terminal. A subcommand that reads no rows (eom sim, eom jac
// --sample) uses it on its own; the input half (row_engine.hpp) uses it for every table.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <eom/core/errors.hpp>
#include <eom/io/table.hpp>

namespace eom::rows {

/// -o/--output and --format: where a table goes and in which format.
struct OutputOptions {
  std::string path = "-";
  std::string format;  // empty: from the extension, CSV for stdout
};
/// The format named by --format, if any.
std::optional<Format> forced_format(const OutputOptions& opt);

/// Open the output table (temporary file renamed on commit, or stdout).
std::unique_ptr<TableWriter> open_output(const OutputOptions& opt, Header header);

/// A whole document (a report, a model file) written to `path`, or to stdout for "-" or "": all
/// or nothing, through the one writer (OutputFile). Check the destination first
/// (check_destinations), before reading anything.
void write_document(const std::string& path, const std::string& text,
                    std::ostream& standard_output);

/// Before any work, the destinations of a run: its tables (-o or the batch outputs), `others`
/// (a truncated result) and the summary. Throws InputError when an output is one of the files the
/// run reads, `inputs` (Streams::inputs; `-` being stdin, and `-` as an output stdout), when two outputs are the same file (the summary and a table), and
/// for a summary in a directory that does not exist or naming a directory. Files are compared by
/// device and inode (./a.csv, a.csv, a link to it, /dev/stdout and the file stdout is redirected
/// to all count) and, for outputs that do not exist yet, by the path they will have; terminals,
/// /dev/null and other character devices and sockets never count as the same file.
void check_destinations(const std::vector<std::string>& inputs,
                        const std::vector<std::string>& tables, const std::string& summary,
                        const std::vector<std::string>& others = {});

/// Batch mode (an output directory DIR): the output of each input in DIR, with the input's base
/// name and the extension of output.format when given. Throws InputError with an output.path, for
/// stdin, for two inputs
/// that would write the same file and when DIR is not a directory; creates DIR.
std::vector<std::string> batch_outputs(const std::vector<std::string>& inputs,
                                       const std::string& dir, const OutputOptions& output);

/// Where a run that fails midway keeps the rows so far (eom sim), OUT.truncated.EXT next to the
/// file `output` replaces (the target of a link). Throws InputError when it is stdout, a
/// descriptor, device or FIFO (written in place: the rows so far are already there) and when
/// that file exists (eom never replaces it).
std::string truncated_path(const std::string& output);

/// Progress on stderr when it is a terminal and the work takes longer than a second: rows done,
/// rate, and the time left (from the files done in batch mode, or from how much of a known total
/// of one run's work, such as bytes read or seconds simulated, is done). Nothing otherwise.
/// Thread-safe.
class Progress {
 public:
  /// total: the amount of one run's work (0 when unknown).
  Progress(const std::string& command, bool enabled, size_t files, double total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add_rows(long n);
  void file_done();
  /// The work of the (single) run done so far, in the units of total.
  void done_to(double units);

 private:
  void tick();

  struct State;
  std::unique_ptr<State> state_;
};

/// The warnings and errors of one table (or one run), kept for --summary-json whatever -q says.
struct MessageLog {
  std::vector<std::string> warnings, errors;
};

/// Messages of one table, on stderr or (batch) collected and printed in input order; also kept
/// in `log` when there is one (one thread at a time).
/// Their settings are named by `names` (Streams::names).
struct Notes {
  std::ostream& out;
  std::string command;
  bool quiet = false;
  MessageLog* log = nullptr;
  SettingNames names = setting_name;

  void warning(const Phrase& message) const {
    const std::string text = message.text(names);
    if (log) log->warnings.push_back(text);
    if (!quiet) out << "eom " << command << ": warning: " << text << '\n';
  }
  void error(const Phrase& message) const {
    const std::string text = message.text(names);
    if (log) log->errors.push_back(text);
    out << "eom " << command << ": error: " << text << '\n';
  }
};

/// The keys every object of a summary has (`file`: the input, null when there is none); the
/// command adds its own.
nlohmann::json summary_object(const std::string& command, const nlohmann::json& file,
                              const std::string& output, bool written, long rows, int exit_code,
                              const MessageLog& log);
/// The end of a run: its finished tables and, when summary_path is not empty, its summary (the
/// array of table objects) are one result, both or neither. Every table is finished and the
/// summary written to its temporary before any of them is moved into place, so a failure (a full
/// disk, a summary that cannot be written) leaves none of them (and the old files as they were).
void commit_results(const std::vector<TableWriter*>& tables, const std::string& summary_path,
                    const nlohmann::json& summary);

}  // namespace eom::rows
