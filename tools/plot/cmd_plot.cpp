// eom plot: columns of tables drawn as panels over one x axis (doc/plot.md), into SVG, PNG or
// PDF through PLplot. Tables stream through a min/max decimation (plot_tables.hpp), so memory
// does not grow with their rows; the image is published by the one output writer.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/column_units.hpp>

#include "cli.hpp"
#include "options.hpp"
#include "plot/plot_render.hpp"
#include "plot/plot_tables.hpp"

namespace eom::cli {
namespace {

struct PlotOptions {
  std::vector<std::string> tables;
  std::string output = "-", format, from, separator, title;
  PlotSelection selection;
  RobotOptions robot;
  int width = 1000, panel_height = 260;
  bool quiet = false;
};

// `value` with its unit: "320 N m"
std::string with_unit(double value, const std::string& unit) {
  return number_text(value) + (unit.empty() ? "" : " " + unit);
}

// The y label of a panel: its group and the units of its columns ("tau (N m, N)")
std::string panel_label(const std::string& group, const std::vector<std::string>& units) {
  std::string text;
  for (const auto& unit : units) {
    if (!unit.empty()) text += (text.empty() ? "" : ", ") + unit;
  }
  return text.empty() ? group : group + " (" + text + ")";
}

void report_limits(const PlotTable& table, const Model* model, const Notes& notes) {
  for (size_t s = 0; s < table.columns.size(); ++s) {
    if (table.over[s] == 0) continue;
    const ColumnLimits& limits = table.limits[s];
    const std::string unit = column_unit(table.columns[s], model);
    const std::string range =
        limits.lower == -limits.upper
            ? "±" + with_unit(limits.upper, unit)
            : "[" + number_text(limits.lower) + ", " + with_unit(limits.upper, unit) + "]";
    notes.warning(table.file + ": column " + table.columns[s] + ": " +
                  std::to_string(table.over[s]) + " row" + (table.over[s] == 1 ? "" : "s") +
                  " beyond the " + limits.what + " limit " + range + " (first on line " +
                  std::to_string(table.first_over[s]) + ")");
  }
}

// Ticks show 8 significant digits: an axis of epoch stamps (1.765e9 s over a few seconds) would
// read the same at every tick. Such an axis counts from a round offset, said in its label
// ("t - 1765090000 (s)"): the span's power of ten below its start.
void offset_x_axis(PlotFigure& figure) {
  const double span = figure.x_max - figure.x_min;
  constexpr double kReadableRatio = 1e4;  // start / span beyond which the ticks lose the span
  if (!(std::abs(figure.x_min) > kReadableRatio * span)) return;
  const double round = std::pow(10.0, std::ceil(std::log10(span)));
  const double offset = std::floor(figure.x_min / round) * round;
  figure.x_min -= offset;
  figure.x_max -= offset;
  for (auto& panel : figure.panels) {
    for (auto& curve : panel.curves) {
      for (auto& p : curve.points) p.x -= offset;
      for (auto& p : curve.marks) p.x -= offset;
    }
  }
  for (auto& interval : figure.shaded) interval.start -= offset, interval.end -= offset;
  for (auto& lane : figure.lanes) {
    for (auto& interval : lane.intervals) interval.start -= offset, interval.end -= offset;
  }
  const size_t unit = figure.x_label.rfind(" (");
  const std::string name = figure.x_label.substr(0, unit);
  // in plain digits, to the round's decimals (an epoch's 1700000000, not 1.7e+09)
  const int places = std::max(0, static_cast<int>(std::lround(-std::log10(round))));
  figure.x_label = name + " - " + fixed_text(offset, places) +
                   (unit == std::string::npos ? "" : figure.x_label.substr(unit));
}

// A curve's style from its table (`style` holds the table's place until here) and its round of
// the ten colours: with R rounds in the fullest panel, table t takes the styles t R .. t R + R - 1,
// so no two curves of a panel share colour and style however many tables and members it has,
// and a table keeps its first style in every panel
void assign_line_styles(const std::vector<std::vector<std::string>>& members, PlotFigure& figure) {
  size_t most = 1;
  for (const auto& names : members) most = std::max(most, names.size());
  const int rounds = static_cast<int>((most + kCurveColours - 1) / kCurveColours);
  for (auto& panel : figure.panels) {
    for (auto& curve : panel.curves) {
      curve.style = curve.style * rounds + curve.colour / kCurveColours;
    }
  }
}

// tables are told apart in the legend by their file names, or by their paths when two share a
// name (a/tau.csv, b/tau.csv)
std::vector<std::string> legend_names(const std::vector<PlotTable>& tables) {
  std::vector<std::string> table_names;
  for (const auto& table : tables) {
    table_names.push_back(std::filesystem::path(table.file).filename().string());
  }
  const std::set<std::string> distinct(table_names.begin(), table_names.end());
  if (distinct.size() < table_names.size()) {
    for (size_t t = 0; t < tables.size(); ++t) table_names[t] = tables[t].file;
  }
  return table_names;
}

// the x axis's range and label, the title (the tables' names unless --title)
void label_figure(const PlotOptions& opt, const std::vector<PlotTable>& tables, const Model* model,
                  double x_min, double x_max, PlotFigure& figure) {
  if (x_min == x_max) {
    x_min -= 0.5;
    x_max += 0.5;
  }
  figure.x_min = x_min;
  figure.x_max = x_max;
  const std::string& x = tables.front().x;
  figure.x_label = x.empty() ? "row" : x == "t" ? "t (s)" : panel_label(x, {column_unit(x, model)});
  offset_x_axis(figure);
  if (!opt.title.empty()) {
    figure.title = opt.title;
  } else {
    for (const auto& table : tables)
      figure.title += (figure.title.empty() ? "" : ", ") + table.file;
  }
}

PlotFigure make_figure(const PlotOptions& opt, const std::vector<PlotTable>& tables,
                       const Model* model) {
  PlotFigure figure;
  figure.width = opt.width;
  figure.panel_height = opt.panel_height;
  const bool several = tables.size() > 1;
  const std::vector<std::string> table_names = legend_names(tables);
  std::vector<std::string> groups;                // panels, in order of appearance
  std::vector<std::vector<std::string>> members;  // per panel: its columns' members
  std::vector<std::vector<std::string>> units;    // per panel: their distinct units
  double x_min = INFINITY, x_max = -INFINITY;
  for (size_t t = 0; t < tables.size(); ++t) {
    const PlotTable& table = tables[t];
    x_min = std::min(x_min, table.series.x_min());
    x_max = std::max(x_max, table.series.x_max());
    for (size_t s = 0; s < table.columns.size(); ++s) {
      if (std::isnan(table.series.y_min(static_cast<int>(s))) || table.stamp[s]) continue;
      const std::string& column = table.columns[s];
      const std::string group = column_group(column), member = column_member(column);
      auto g = std::find(groups.begin(), groups.end(), group) - groups.begin();
      if (g == static_cast<long>(groups.size())) {
        groups.push_back(group);
        members.emplace_back();
        units.emplace_back();
        figure.panels.emplace_back();
      }
      auto& names = members[g];
      const auto m = std::find(names.begin(), names.end(), member) - names.begin();
      if (m == static_cast<long>(names.size())) names.push_back(member);
      const std::string unit = column_unit(column, model);
      if (std::find(units[g].begin(), units[g].end(), unit) == units[g].end()) {
        units[g].push_back(unit);
      }
      PlotCurve curve;
      curve.label = several ? member + " (" + table_names[t] + ")" : member;
      curve.colour = static_cast<int>(m);
      curve.style = static_cast<int>(t);
      curve.points = table.series.points(static_cast<int>(s));
      const ColumnLimits& limits = table.limits[s];
      curve.marks = points_beyond(curve.points, limits.lower, limits.upper);
      auto& panel = figure.panels[g];
      for (double y : {limits.lower, limits.upper}) {
        const bool known = std::any_of(panel.limits.begin(), panel.limits.end(), [&](auto& l) {
          return l.y == y && l.colour == curve.colour;
        });
        if (std::isfinite(y) && !known) panel.limits.push_back({y, curve.colour});
      }
      panel.curves.push_back(std::move(curve));
    }
    if (table.jacobian) {
      const auto& intervals = table.singular.intervals();
      figure.shaded.insert(figure.shaded.end(), intervals.begin(), intervals.end());
    }
    for (size_t k = 0; k < table.contacts.size(); ++k) {
      figure.lanes.push_back(
          {several ? table.contacts[k] + " (" + table_names[t] + ")" : table.contacts[k],
           table.schedules[k].intervals()});
    }
  }
  assign_line_styles(members, figure);
  if (figure.panels.empty() && figure.lanes.empty()) {
    throw InputError("nothing to plot: no column holds numbers");
  }
  for (size_t g = 0; g < groups.size(); ++g)
    figure.panels[g].y_label = panel_label(groups[g], units[g]);
  figure.shaded_label = opt.selection.threshold ? "σ min < " + number_text(*opt.selection.threshold)
                                                : "rank-deficient";
  figure.band_label = "contact";
  label_figure(opt, tables, model, x_min, x_max, figure);
  return figure;
}

int run_plot(const PlotOptions& opt, Streams& io) {
  const ImageFormat format = image_format(opt.output, opt.format);
  check_destinations(io.inputs, {opt.output}, "");
  if (std::count(opt.tables.begin(), opt.tables.end(), "-") > 1) {
    throw InputError("stdin (-) can be read once only");
  }
  const Notes notes{io.err, "plot", opt.quiet, nullptr, io.names};
  Model model;
  PlotSelection selection = opt.selection;
  selection.buckets = opt.width;
  if (!opt.robot.path.empty()) {
    model = load_robot(opt.robot, io, "plot", opt.quiet);
    selection.model = &model;
  }
  std::vector<PlotTable> tables;
  for (const auto& path : opt.tables) {
    tables.push_back(read_plot_table(path, opt.from, opt.separator, selection, notes));
    report_limits(tables.back(), selection.model, notes);
  }
  if (opt.selection.threshold &&
      std::none_of(tables.begin(), tables.end(), [](const PlotTable& t) { return t.jacobian; })) {
    throw InputError(
        "--threshold shades the rows of an eom jac output (its sigma.* and rank "
        "columns), and no table given is one");
  }
  const PlotFigure figure = make_figure(opt, tables, selection.model);
  for (const std::string& kind : shortened_texts(figure)) {
    notes.warning(kind + " is longer than the " + std::to_string(kMaxPlotText) +
                  " bytes a text of the plot may take (PLplot's buffers): drawn shortened, ending "
                  "in …");
  }
  const std::string image = render_plot(figure, format);
  write_document(opt.output, image, io.out);
  return kExitOk;
}

}  // namespace

void register_plot(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<PlotOptions>(
      app, dispatch, "plot",
      "Plot columns of tables into an SVG, PNG or PDF image: one panel per group of columns\n"
      "(tau, v, f.<frame>, sigma, ...) over t or --x, units from the column names, the joints\n"
      "in the legend. --robot adds the joints' limits as dashed lines and marks the rows beyond\n"
      "them; an eom jac output shades its rank-deficient rows; contact.<frame> and f.<frame>.*\n"
      "columns add the contact schedule as a band. Several tables overlay, one line style each.\n"
      "Tables stream (a pipe works): min/max per point of the width keeps every peak.",
      {"eom plot trajectories/iiwa14_wave.csv --y 'v.*' -o iiwa_v.svg",
       "eom id robots/ur5.urdf trajectories/ur5_wave.csv | eom plot - --robot robots/ur5.urdf "
       "-o ur5_tau.png"},
      run_plot);
  reads_files(cmd->add_option("TABLE", opt->tables, "Tables to plot; - reads stdin")->required());
  cmd->add_option("-o,--output", opt->output,
                  "Image to write (.svg, .png or .pdf); - writes stdout")
      ->required();
  cmd->add_option("--format", opt->format, "Image format when the extension does not tell")
      ->check(CLI::IsMember({"svg", "png", "pdf"}));
  cmd->add_option("--from", opt->from, "Input format when the extension does not tell (stdin: csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
  add_separator_option(*cmd, opt->separator);
  cmd->add_option("--y", opt->selection.y,
                  "Columns to plot, by name or glob ('tau.*'), comma separated or repeated "
                  "(default: every numeric column)")
      ->delimiter(',');
  cmd->add_option_function<std::string>(
      "--x",
      [opt = opt.get()](const std::string& x) {
        opt->selection.x = x;
        opt->selection.x_given = true;
      },
      "The x axis column (default t, else the row number)");
  reads_files(cmd->add_option("--robot", opt->robot.path,
                              "Model (URDF, MJCF or JSON) whose joint limits are drawn and whose "
                              "prismatic joints get linear units"));
  cmd->add_flag("--floating-base", opt->robot.floating_base,
                "With --robot: the model has a free-flyer root joint");
  cmd->add_option_function<double>(
         "--threshold", [opt = opt.get()](double x) { opt->selection.threshold = x; },
         "An eom jac output: shade where the smallest singular value is below this (default: "
         "where the rank is deficient)")
      ->check(kPositive);
  cmd->add_option("--title", opt->title, "Title (default: the tables' names)");
  cmd->add_option("--width", opt->width, "Width of the image in points (pixels for PNG)")
      ->check(CLI::Range(300, 10000));
  cmd->add_option("--panel-height", opt->panel_height, "Height of one panel in points")
      ->check(CLI::Range(100, 5000));
  cmd->add_flag("-q,--quiet", opt->quiet, "Print errors only");
}

}  // namespace eom::cli
