// The row engine's input: where each coordinate of q and of its derivatives comes from in a
// table (binding columns by name, filling the joints it lacks, planning the derivation of the
// orders it lacks), and its rows as samples, bound then derived stage by stage.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <eom/io/time_stamps.hpp>
#include <eom/trajectory/derivation.hpp>
#include <eom/trajectory/joint_fill.hpp>

#include <eom/rows/row_engine.hpp>

namespace eom::rows {

struct Binding {
  TimeColumns time;                      // the time column, or a split stamp's pair
  std::vector<std::vector<int>> column;  // [order][coordinate]: input column, -1 when filled
  // [order]: joints filled instead of read: a mimic joint follows its leader, a joint the command
  // does not need stays neutral
  std::vector<std::vector<JointFill>> fills;
  std::vector<DerivationStage> stages;  // derivations, in order
  DerivationMethod method = DerivationMethod::fit;
  std::vector<int> keep;                // passed-through input columns; -1 the time, as t
  std::vector<std::string> keep_names;  // ... and their output names
  std::vector<std::string> derived;     // what was derived and how, for the warning
};

/// Binds q, its derivatives and the passed-through columns of a table (throws InputError naming
/// the file); warns of what is derived and of mimic joints filled.
Binding bind(const Model& model, const Header& header, const std::string& file,
             const RowOptions& opt, const RowCommand& command, const Notes& notes);

/// A number in messages: the shortest round-trip form, as in tables.
std::string number(double x);

class SampleSource {
 public:
  virtual ~SampleSource() = default;
  /// The next sample into `out` (same sizes each time: no allocation); false at the end.
  virtual bool next(Sample& out) = 0;
};

class TableSource;
class DerivativeSource;
class LowPassSource;
class DecimationSource;

/// The rows of one table as samples: bound, their missing joints filled, quaternions
/// renormalised, the time checked when derivatives are derived (a gap starts a new segment),
/// low-pass filtered with q the given derivatives and `inputs` (the task's input columns) when
/// RowOptions::low_pass asks, then through the derivation stages, then decimated when
/// RowOptions::decimate asks.
class TableSamples {
 public:
  TableSamples(const Model& model, TableReader& in, const Binding& b, const RowOptions& opt,
               const Notes& notes, int order, const std::vector<int>& inputs);
  ~TableSamples();
  SampleSource& source() { return *last_; }
  /// After the last row (never before an error: a failed table gets the error alone, not a word
  /// about work that was then not done): what was derived, the gaps in t, the wrapped angles of
  /// limited joints and the renormalised quaternions, said once per table; the latter also for
  /// the summary.
  void report() const;
  nlohmann::json renormalised() const;
  /// The derivation stages as run, for the summary: what each derived from what, by which
  /// method, its degree and window and whether the window was chosen from the data.
  nlohmann::json derivation() const;
  /// The rows dropped, for the summary: {"filter_edges": the filter's (the ends of each segment,
  /// no whole window), "decimation": the decimation's}.
  nlohmann::json dropped() const;

 private:
  std::unique_ptr<TableSource> table_;
  std::unique_ptr<LowPassSource> low_pass_;
  std::vector<std::unique_ptr<DerivativeSource>> stages_;
  std::unique_ptr<DecimationSource> decimation_;
  SampleSource* last_;
  const DerivativeSource* first_derivation_ = nullptr;  // v from q, whose gaps are reported
  std::string file_;
  const Binding& binding_;
  const Notes& notes_;
};

}  // namespace eom::rows
