// The row engine: what every per-row subcommand (id, fk, fd, ...) shares. A subcommand declares
// which time derivatives of q its rows need and, per input table, the columns it writes and a
// function from one sample to one output row. The engine's input half reads any format (rows of a
// pipe as they come), binds q and its derivatives by name and derives the missing ones
// (row_input.hpp, over the library's trajectory/derivation.hpp), passes columns through, and runs
// one table with reading overlapped or many in parallel. Its output half (row_output.hpp:
// all-or-nothing files that never replace an input, summaries, progress, messages) is shared with
// the subcommands that read no rows.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>

#include <eom/io/column_names.hpp>
#include <eom/multibody/model.hpp>
#include <eom/io/table.hpp>
#include <eom/io/time_stamps.hpp>
#include <eom/trajectory/interpolation.hpp>

#include <eom/rows/run.hpp>
#include <eom/rows/row_output.hpp>

namespace eom::rows {

/// How tables spell time (doc/tables.md "Time").
struct TimeOptions {
  std::string column = "t";  // the column holding time (or the sec and nanosec pair)
  double scale = 1;          // seconds per unit of the time column
  bool from_first = false;   // --time-origin first: the output's t counts from the first row
};
/// The time columns of a table of `file` (find_time_columns); throws InputError, with a
/// did-you-mean, when a time column other than t is absent or when `required` and none is.
TimeColumns bind_time_columns(const Header& header, const TimeOptions& time,
                              const std::string& file, bool required);

/// The options of every per-row subcommand (tools/options.hpp registers them: add_row_options).
struct RowOptions {
  RobotOptions robot;
  std::vector<std::string> tables;
  std::string from;       // input format when the extension does not tell
  std::string separator;  // --separator of CSV input: empty detects it
  OutputOptions output;
  std::string output_dir;         // batch: one output per input
  int jobs = 0;                   // threads; 0 = all cores
  std::vector<std::string> keep;  // input columns passed through: NAME or NAME:NEW_NAME
  bool keep_input = false;        // pass every input column through
  bool no_derive = false;         // missing derivative columns are an error
  TimeOptions time;               // --time-column, --time-scale, --time-origin
  int derive_window = 0;          // rows of the derivation's fits; 0 = 4 degree + 1
  std::string derive = "fit";     // how missing derivatives are taken: fit, three-point
  std::string gaps = "split";     // a gap in t: split (derive each segment) or refuse
  bool drop_duplicates = false;   // rows repeating the stamp of the row before are dropped
  bool quiet = false;             // errors only on stderr
  std::string summary;            // --summary-json FILE
  // a zero-phase low-pass (Hz) of q, the given derivatives and the task's inputs before the
  // derivation (0: none; LowPassSource), and every decimate-th row kept after it
  double low_pass = 0;
  int decimate = 1;
};

/// The passed-through fields of a row as the input wrote them (Binding::keep order), copied out
/// of the reader: their texts end to end, where each ends, and their kinds. Copies of a Sample
/// reuse the storage (no allocation per row).
struct KeptFields {
  std::string text;
  std::vector<uint32_t> end;
  std::vector<FieldKind> kind;

  Field operator[](size_t k) const {
    const uint32_t begin = k ? end[k - 1] : 0;
    return {kind[k], std::string_view(text).substr(begin, end[k] - begin)};
  }
};

/// One input row bound to the model.
struct Sample {
  std::vector<double> row;  // the input row as read (NaN in a column no one reads that holds text)
  double t = 0;             // the output's t (s): see doc/tables.md "Time"; 0 without a time column
  /// seconds since the first row, exact but for the last rounding (doc/tables.md "Time"): what
  /// derivatives and time checks use, for t may be seconds since the epoch (1.7e9 s)
  double elapsed = 0;
  KeptFields kept;             // the passed-through fields, the time's as the output's t
  int line = 0;                // its line in the input
  bool segment_start = false;  // a gap in t precedes it (derivation restarts here)
  Eigen::VectorXd q;           // (nq)
  Eigen::MatrixXd dq;          // (nv x order): column k - 1 is the k-th derivative (v, a, d3q, ...)

  Sample(const Model& model, int order) : q(model.nq), dq(model.nv, order) {}
};

/// A subcommand's work on one table. One per table, used by one thread: it owns its workspace.
class RowTask {
 public:
  virtual ~RowTask() = default;
  /// Fill out[0 .. columns.size()) from one sample.
  virtual void compute(const Sample& sample, double* out) = 0;
  /// With amends_first_row, called after compute() of the second row with the first row's
  /// outputs (this task's columns), which are written only then: the first row may be chosen
  /// knowing the second (eom ik's path that starts at a singular configuration).
  virtual void amend_first_row(double* first) { (void)first; }
  /// After the last row: the summary; kExitFailure for a condition the user asked to fail on,
  /// which discards the output file.
  virtual int finish(const Notes& notes) {
    (void)notes;
    return kExitOk;
  }
  /// After finish(), with --summary-json: the command's own keys into its table's object (the
  /// engine has put the shared ones there; README "JSON summaries").
  virtual void summarize(nlohmann::json& table) const { (void)table; }

  // what it writes, after the passed-through columns; the engine moves them into the output's
  // header (compute() must not read them)
  std::vector<std::string> columns;
  /// Input columns compute() reads from Sample::row (tau, wrench.*): like the time, q and its
  /// derivatives, they must hold numbers; every other column may hold text (labels, frame ids).
  std::vector<int> inputs;
  /// Hold the first row until the second is computed (amend_first_row).
  bool amends_first_row = false;
};

/// What a per-row subcommand declares.
struct RowCommand {
  std::string name;  // for messages: "id"
  int order = 0;     // time derivatives of q the rows need: 0 q, 1 v, 2 a, k d<k>q
  /// Joints whose columns the rows need (empty: all). The others default to the neutral
  /// configuration and zero derivatives when the table lacks them.
  std::vector<bool> joints;
  /// Binds the subcommand's own columns of a table (throw InputError naming the file) and makes
  /// its task.
  std::function<std::unique_ptr<RowTask>(const Header& header, const std::string& file,
                                         const Notes& notes)>
      make_task;
};

/// A table of samples over time read whole (torques, wrenches, a reference trajectory): the
/// columns read (t and those of the prefixes asked for), their names as `header` and their values
/// as a TimeSeries over `t`; the others are not held.
struct TimeTable {
  std::string file;
  Header header;
  TimeSeries series{0};
  std::vector<int> columns;  // per column of header, its index in the file
};
/// Its times are seconds since `clock`'s origin (TableTime::count_from), its time column as
/// `time` says. The columns named `prefix`.* for a prefix in `reads` must be numbers (what the
/// caller reads), those named in `flags` (contact.<frame>) 0 or 1; the others may hold anything
/// (text reads as NaN). Throws InputError naming the file (and line and column) for a missing
/// time column, a time that does not increase strictly, a value of a column read that is not a
/// number or not a flag, and no rows.
TimeTable read_time_table(const std::string& path, const std::vector<std::string>& reads,
                          const TimeOptions& time, const TableTime& clock,
                          const std::vector<std::string>& flags = {});
/// The same table streamed: its series reads the rows as the times asked for need them (the
/// first row now, to refuse a table without rows) and holds those not released
/// (TimeSeries::release), so that its memory does not grow with the table's length; a bad row
/// throws when it is reached.
TimeTable stream_time_table(const std::string& path, const std::vector<std::string>& reads,
                            const TimeOptions& time, const TableTime& clock);

/// The model of ROBOT, after checking that ROBOT and a TABLE do not both read stdin.
Model load_robot(const RowOptions& opt, Streams& io, const std::string& command);

/// Runs `command` over opt.tables and returns the exit code. In batch mode (opt.output_dir) a bad
/// table is reported and the others are still processed. With opt.summary, writes the
/// summary of the tables in input order, unless the run fails with exit 2.
int run_rows(const RowOptions& opt, const Model& model, const RowCommand& command, Streams& io);

/// Runs `command`'s task over one table for what it gathers (a check, a fit), writing no table:
/// the rows are read, bound and derived as run_rows reads them and each is given to compute()
/// with no output (the task writes no columns), in the rows' order, read in a second thread
/// unless opt.jobs is 1. Returns the task's finish(); InputError propagates. `dropped`, when given, gets the rows the filter and the decimation dropped
/// (TableSamples::dropped).
int scan_table(const RowOptions& opt, const Model& model, const RowCommand& command,
               const std::string& path, const Notes& notes, nlohmann::json* dropped = nullptr);

/// columns += names: building a task's output columns.
inline void append(std::vector<std::string>& columns, const std::vector<std::string>& names) {
  columns.insert(columns.end(), names.begin(), names.end());
}

/// Writes a matrix row-major from out (the order of matrix_columns) and returns the end.
inline double* write_row_major(const Eigen::MatrixXd& m, double* out) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) *out++ = m(r, c);
  }
  return out;
}

}  // namespace eom::rows
