#include "plot/plot_tables.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <eom/core/errors.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/column_units.hpp>
#include <eom/io/table.hpp>
#include <eom/io/time_stamps.hpp>

namespace eom::cli {
namespace {

// Past this many intervals, a condition's runs merge (IntervalRecorder)
constexpr int kIntervalCapacity = 4096;

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// contact.<frame>: whether a contact holds, drawn as the contact band
bool is_contact_activity(const std::string& column) {
  return !contact_activity_frame(column).empty();
}

// The columns --y selects (in the table's order), and which of them it named exactly
std::vector<int> select_columns(const Header& header, int x, const PlotSelection& selection,
                                const std::string& file, std::vector<bool>& named) {
  std::vector<std::string> candidates;
  std::vector<bool> chosen(header.size(), false);
  for (int c = 0; c < header.size(); ++c) {
    // contact.<frame> columns are the contact band, not curves, unless asked for
    if (c != x && !is_contact_activity(header.names[c])) candidates.push_back(header.names[c]);
  }
  named.assign(header.size(), false);
  for (const auto& pattern : selection.y) {
    bool matched = false;
    for (int c = 0; c < header.size(); ++c) {
      if (c == x) continue;
      const bool by_glob = is_glob(pattern) && glob_match(pattern, header.names[c]) &&
                           !is_contact_activity(header.names[c]);
      if (by_glob || pattern == header.names[c]) {
        chosen[c] = matched = true;
        if (!is_glob(pattern)) named[c] = true;
      }
    }
    if (!matched && x >= 0 && pattern == header.names[x]) {
      throw InputError(file, 1, 0, "--y " + quote_input(pattern) + " is the x axis (--x names it)");
    }
    if (!matched) {
      throw InputError(
          file, 1, 0,
          "--y " + quote_input(pattern) + " matches no column" + did_you_mean(candidates, pattern));
    }
  }
  std::vector<int> columns;
  for (int c = 0; c < header.size(); ++c) {
    const bool by_default = selection.y.empty() && c != x && !is_contact_activity(header.names[c]);
    if (chosen[c] || by_default) columns.push_back(c);
  }
  return columns;
}

// A column's limits from the model; a q, v or tau column whose coordinate the model lacks (nor
// locks) is said once, with the close names: its limits cannot be drawn.
ColumnLimits limits_of(const std::string& column, const Model* model, const std::string& file,
                       const Notes& notes) {
  ColumnLimits limits;
  if (!model) return limits;
  const std::string group = column_group(column), coordinate = column_member(column);
  if (group != "q" && group != "v" && group != "tau") return limits;
  const auto& names = group == "q"   ? model->q_names
                      : group == "v" ? model->v_names
                                     : model->tau_names;
  const auto it = std::find(names.begin(), names.end(), coordinate);
  if (it == names.end()) {
    if (!model->is_locked_coordinate(coordinate)) {
      notes.warning(file + ": column " + shown_input(column) + ": the robot has no coordinate " +
                    quote_input(coordinate) + did_you_mean(names, coordinate) +
                    ": drawn without limits");
    }
    return limits;
  }
  const auto k = it - names.begin();
  if (group == "tau") {
    limits = {-model->effort_limit[k], model->effort_limit[k], "effort"};
  } else if (group == "v") {
    limits = {-model->velocity_limit[k], model->velocity_limit[k], "velocity"};
  } else if (group == "q") {
    limits = {model->lower_limit[k], model->upper_limit[k], "position"};
  }
  return limits;
}

// The frames of contact.<frame> and f.<frame>.* columns, and per frame those columns
struct ContactColumns {
  std::vector<std::string> frames;
  std::vector<int> flag;                 // contact.<frame>, -1 when absent
  std::vector<std::vector<int>> forces;  // f.<frame>.*
};

ContactColumns contact_columns(const Header& header) {
  ContactColumns out;
  auto frame_at = [&](const std::string& frame) {
    const auto it = std::find(out.frames.begin(), out.frames.end(), frame);
    if (it != out.frames.end()) return static_cast<size_t>(it - out.frames.begin());
    out.frames.push_back(frame);
    out.flag.push_back(-1);
    out.forces.emplace_back();
    return out.frames.size() - 1;
  };
  for (int c = 0; c < header.size(); ++c) {
    const std::string& name = header.names[c];
    const std::string force_prefix = column_name(kContactForcePrefix, "");
    if (is_contact_activity(name)) {
      out.flag[frame_at(std::string(contact_activity_frame(name)))] = c;
    } else if (starts_with(name, force_prefix) && column_group(name).size() > force_prefix.size()) {
      out.forces[frame_at(column_group(name).substr(force_prefix.size()))].push_back(c);
    }
  }
  return out;
}

// Whether contact k is closed in the row just read: its contact.<frame> flag, which must be 0 or
// 1 (anything else is refused where it is), else a nonzero force
bool contact_closed(const TableReader& reader, const ContactColumns& contacts, size_t k,
                    const std::vector<double>& row) {
  const int flag = contacts.flag[k];
  if (flag < 0) {
    bool closed = false;
    for (int c : contacts.forces[k]) closed = closed || (row[c] != 0 && !std::isnan(row[c]));
    return closed;
  }
  if (row[flag] != 0 && row[flag] != 1) {
    throw InputError(reader.name(), reader.line(), reader.column_position(flag),
                     "column " + shown_input(reader.header().names[flag]) + ": " +
                         quote_input(reader.field(flag).text) +
                         " is neither 1 (closed) nor 0 (open)");
  }
  return row[flag] == 1;
}

// The columns --y selects; the x column and the columns --y names must be numbers, the rest may
// hold text (NaN)
std::vector<int> read_selected(TableReader& reader, int x, const PlotSelection& selection,
                               std::vector<bool>& named) {
  const Header& header = reader.header();
  const std::vector<int> columns = select_columns(header, x, selection, reader.name(), named);
  std::vector<bool> used = named;
  std::vector<std::string> why(header.size());
  for (int c = 0; c < header.size(); ++c) {
    if (named[c]) why[c] = "named by --y";
  }
  if (x >= 0) {
    used[x] = true;
    why[x] = "the x axis";
  }
  reader.read_columns(used, why);
  return columns;
}

// A time stamp beside the x axis (a logger's stamp kept beside t by `--keep`, the receive time of
// a ROS export) repeats the x axis: it gets no panel unless --y names it. It is a column whose
// name says time ("stamp" or "time" in it) and whose values never decrease, or either half of a
// split stamp (NAME.sec and NAME.nanosec, as --time-column reads them; the nanoseconds wrap).
struct StampCandidates {
  std::vector<char> split, named_as_time;  // per series
};

bool says_time(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name.find("stamp") != std::string::npos || name.find("time") != std::string::npos;
}

bool is_split_stamp_part(const Header& header, int c) {
  const std::string& name = header.names[c];
  for (const char* suffix : {".sec", ".secs", ".nanosec", ".nsecs"}) {
    const std::string tail = suffix;
    if (name.size() <= tail.size() || name.compare(name.size() - tail.size(), tail.size(), tail))
      continue;
    const TimeColumns split = find_time_columns(header, name.substr(0, name.size() - tail.size()));
    if (split.nanosec >= 0 && (split.stamp == c || split.nanosec == c)) return true;
  }
  return false;
}

StampCandidates stamp_candidates(const Header& header, const std::vector<int>& columns,
                                 const std::vector<bool>& named) {
  StampCandidates out;
  for (int c : columns) {
    out.split.push_back(!named[c] && is_split_stamp_part(header, c));
    out.named_as_time.push_back(!named[c] && !out.split.back() && says_time(header.names[c]));
  }
  return out;
}

// Marks the stamps among the series, with a warning each; `increasing[s]`: series s never
// decreased
void hide_stamps(PlotTable& table, const StampCandidates& candidates,
                 const std::vector<char>& increasing, const Notes& notes) {
  for (size_t s = 0; s < table.columns.size(); ++s) {
    table.stamp[s] = candidates.split[s] || (candidates.named_as_time[s] && increasing[s]);
    if (!table.stamp[s]) continue;
    notes.warning(table.file + ": column " + shown_input(table.columns[s]) +
                  " is a time stamp: no panel of its own (--x makes it the x axis, --y " +
                  shown_input(table.columns[s]) + " plots it)");
  }
}

}  // namespace

PlotTable read_plot_table(const std::string& path, const std::string& from,
                          const std::string& separator, const PlotSelection& selection,
                          const Notes& notes) {
  const auto reader = open_input(
      InputOptions{path, from, separator},
      [&](const std::string& message) { notes.warning(message); }, notes.names);
  const Header& header = reader->header();
  const std::string& file = reader->name();
  const int x = header.index(selection.x);
  if (x < 0 && selection.x_given) {
    throw InputError(
        file, 1, 0,
        "--x: no column " + quote_input(selection.x) + did_you_mean(header.names, selection.x));
  }
  std::vector<bool> named;
  const std::vector<int> columns = read_selected(*reader, x, selection, named);
  const StampCandidates candidates = stamp_candidates(header, columns, named);

  const int n = static_cast<int>(columns.size());
  PlotTable table{file,
                  x >= 0 ? selection.x : "",
                  {},
                  {},
                  std::vector<long long>(n, 0),
                  std::vector<int>(n, 0),
                  MinMaxDecimator(n, selection.buckets),
                  false,
                  IntervalRecorder(kIntervalCapacity),
                  {},
                  {},
                  std::vector<char>(n, 0)};
  for (int c : columns) {
    table.columns.push_back(header.names[c]);
    table.limits.push_back(limits_of(header.names[c], selection.model, file, notes));
  }
  // a eom jac output: sigma.1 .. sigma.m and rank
  int m = 0;
  while (header.index(column_name("sigma", std::to_string(m + 1))) >= 0) ++m;
  const int rank = header.index("rank");
  const int smallest = m > 0 ? header.index(column_name("sigma", std::to_string(m))) : -1;
  table.jacobian = m > 0 && rank >= 0;
  const ContactColumns contacts = contact_columns(header);
  table.contacts = contacts.frames;
  table.schedules.assign(contacts.frames.size(), IntervalRecorder(kIntervalCapacity));

  std::vector<double> row, values(n), previous(n, -INFINITY);
  std::vector<char> increasing(n, 1);
  long long rows = 0;
  while (reader->next(row)) {
    ++rows;
    const double at = x >= 0 ? row[x] : static_cast<double>(rows);
    for (int s = 0; s < n; ++s) {
      const double v = values[s] = row[columns[s]];
      increasing[s] = increasing[s] && v >= previous[s];  // false for NaN
      previous[s] = v;
      if ((v > table.limits[s].upper || v < table.limits[s].lower) && table.over[s]++ == 0) {
        table.first_over[s] = reader->line();
      }
    }
    table.series.add(at, values.data());
    if (table.jacobian) {
      table.singular.add(
          at, selection.threshold ? row[smallest] < *selection.threshold : row[rank] < m);
    }
    for (size_t k = 0; k < contacts.frames.size(); ++k) {
      table.schedules[k].add(at, contact_closed(*reader, contacts, k, row));
    }
  }
  if (rows == 0) throw InputError(file, 0, 0, "no rows to plot");
  hide_stamps(table, candidates, increasing, notes);
  for (int s = 0; s < n; ++s) {
    if (std::isnan(table.series.y_min(s)) && !table.stamp[s]) {
      notes.warning(file + ": column " + shown_input(table.columns[s]) +
                    " holds no number: not plotted");
    }
  }
  return table;
}

}  // namespace eom::cli
