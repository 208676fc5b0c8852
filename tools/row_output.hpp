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

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include <eom/io/table.hpp>

namespace eom::cli {

/// -o/--output and --format.
struct OutputOptions {
  std::string path = "-";
  std::string format;  // empty: from the extension, CSV for stdout
};
void add_output_options(CLI::App& cmd, OutputOptions& opt);
/// The format named by --format, if any.
std::optional<Format> forced_format(const OutputOptions& opt);

/// Open the output table (temporary file renamed on commit, or stdout).
std::unique_ptr<TableWriter> open_output(const OutputOptions& opt, Header header);

/// Before any work, the destinations of a run. Throws InputError when the summary would go where
/// a table goes (stdout, or the same file), and when an output that exists (the tables, `others`
/// such as a truncated result, the summary) is an input of the run (a table read, the robot):
/// compared by device and inode, so ./a.csv, a.csv and a link to it all count. "-" and
/// non-regular files are never inputs to protect.
void check_destinations(const std::vector<std::string>& inputs, const std::string& robot,
                        const std::vector<std::string>& tables, const std::string& summary,
                        const std::vector<std::string>& others = {});

/// Batch mode (--output-dir DIR): the output of each input in DIR, with the input's base name and
/// the extension of --format when given. Throws InputError with -o, for stdin, for two inputs
/// that would write the same file and when DIR is not a directory; creates DIR.
std::vector<std::string> batch_outputs(const std::vector<std::string>& inputs,
                                       const std::string& dir, const OutputOptions& output);

/// "run.csv" -> "run.truncated.csv": where a run that fails midway keeps the rows so far.
std::string truncated_path(const std::string& path);

/// A table written while the work goes on (eom sim): all or nothing at opt.path like every
/// output. With keep_truncated it is written to truncated_path(opt.path) instead, moved to
/// opt.path by commit(), and a run that fails midway keeps the rows so far there.
class ResultTable {
 public:
  ResultTable(const OutputOptions& opt, Header header, bool keep_truncated);

  const Header& header() const { return writer_->header(); }
  void write_row(const double* values) { writer_->write_row(values); }
  /// Success: the table goes into place at opt.path.
  void commit();
  /// Failure: with keep_truncated, the rows so far are committed where they are and that path is
  /// returned; otherwise "" and nothing is left behind (destroying the table removes it).
  std::string keep_truncated();

 private:
  std::string final_path_, path_;
  bool keep_truncated_;
  std::unique_ptr<TableWriter> writer_;
};

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
struct Notes {
  std::ostream& out;
  std::string command;
  bool quiet = false;
  MessageLog* log = nullptr;

  void warning(const std::string& message) const {
    if (log) log->warnings.push_back(message);
    if (!quiet) out << "eom " << command << ": warning: " << message << '\n';
  }
  void error(const std::string& message) const {
    if (log) log->errors.push_back(message);
    out << "eom " << command << ": error: " << message << '\n';
  }
};

/// --summary-json FILE: the run's summary as JSON, one object per table (README "JSON
/// summaries"); "-" writes stdout when the table does not go there.
void add_summary_option(CLI::App& cmd, std::string& path);
/// The keys every object of a summary has (`file`: the input, null when there is none); the
/// command adds its own.
nlohmann::json summary_object(const std::string& command, const nlohmann::json& file,
                              const std::string& output, bool written, long rows, int exit_code,
                              const MessageLog& log);
/// Writes the array of table objects to path, all or nothing (as tables are written).
void write_summary(const std::string& path, const nlohmann::json& tables);

}  // namespace eom::cli
