// eom plot's reading half: one table streamed into what the figure needs, in memory bounded by
// the figure's width whatever the number of rows (doc/plot.md "Long tables").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <eom/multibody/model.hpp>
#include <eom/trajectory/decimation.hpp>

#include <eom/rows/run.hpp>
#include <eom/rows/row_output.hpp>

namespace eom::cli {

using namespace eom::rows;

/// What selects and marks the columns of every table.
struct PlotSelection {
  std::string x = "t";         // the x column
  bool x_given = false;        // --x named it: its absence is an error (else rows are numbered)
  std::vector<std::string> y;  // --y names and globs; empty: every numeric column
  std::optional<double> threshold;  // --threshold of the smallest singular value
  const Model* model = nullptr;     // --robot: limits and the kinds of joints
  int buckets = 1000;               // of the decimation: one per point of the plot's width
};

/// A column's limits from the model (position for q, velocity for v, effort for tau), ±inf
/// when it has none.
struct ColumnLimits {
  double lower = -INFINITY, upper = INFINITY;
  const char* what = "";  // "effort", "velocity", "position"
};

/// One table, read.
struct PlotTable {
  std::string file;
  std::string x;                     // the x column, "" when rows are numbered
  std::vector<std::string> columns;  // the series, in the order of the table
  std::vector<ColumnLimits> limits;  // per series
  std::vector<long long> over;       // per series: rows beyond its limits
  std::vector<int> first_over;       // ... and the line of the first
  MinMaxDecimator series;
  bool jacobian = false;  // a eom jac output: `singular` holds its rank-deficient or weak rows
  IntervalRecorder singular;
  std::vector<std::string> contacts;        // frames of contact.<frame> or f.<frame>.* columns
  std::vector<IntervalRecorder> schedules;  // per contact: the rows where it is closed
  std::vector<char> stamp;  // per series: a time stamp beside the x axis, given no panel
};

/// Reads `path` ("-": stdin); `from` and `separator` as every subcommand's --from and
/// --separator. Throws InputError naming the file (line and column for a bad value) for a
/// missing --x column, a --y pattern that matches no column (with the close names), a column
/// named by --y or the x column holding anything but numbers, and a table without rows. Columns
/// only a glob or the default chose that hold no number are dropped with a warning in `notes`,
/// and so are time stamps beside the x axis (`stamp`: named as times and never decreasing, or a
/// split stamp's halves).
PlotTable read_plot_table(const std::string& path, const std::string& from,
                          const std::string& separator, const PlotSelection& selection,
                          const Notes& notes);

}  // namespace eom::cli
