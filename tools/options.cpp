#include "options.hpp"

#include <eom/trajectory/finite_difference.hpp>

#include "cli.hpp"

namespace eom::cli {

namespace {

// The options marked by reads_files, of every subcommand: only the selected one's have a count.
std::vector<const CLI::Option*>& file_options() {
  static std::vector<const CLI::Option*> options;
  return options;
}

}  // namespace

std::string_view option_name(Setting setting) {
  switch (setting) {
    case Setting::floating_base:
      return "--floating-base";
    case Setting::lock:
      return "--lock";
    case Setting::gravity:
      return "--gravity";
    case Setting::separator:
      return "--separator";
    case Setting::time_column:
      return "--time-column";
    case Setting::keep:
      return "--keep";
    case Setting::derive:
      return "--derive";
    case Setting::derive_window:
      return "--derive-window";
    case Setting::no_derive:
      return "--no-derive";
    case Setting::gaps:
      return "--gaps";
    case Setting::duplicates:
      return "--duplicates";
    case Setting::time_scale:
      return "--time-scale";
    case Setting::output:
      return "-o";
    case Setting::output_dir:
      return "--output-dir";
    case Setting::summary:
      return "--summary-json";
    case Setting::keep_truncated:
      return "--keep-truncated";
    case Setting::contacts:
      return "--contacts";
    case Setting::mask:
      return "--mask";
  }
  return setting_name(setting);
}

CLI::Option* reads_files(CLI::Option* option) {
  file_options().push_back(option);
  return option;
}

std::vector<std::string> given_inputs() {
  std::vector<std::string> inputs;
  for (const CLI::Option* option : file_options()) {
    if (option->count() == 0) continue;
    for (const std::string& value : option->results()) inputs.push_back(value);
  }
  return inputs;
}

void add_robot_options(CLI::App& cmd, RobotOptions& opt, bool uses_gravity) {
  reads_files(cmd.add_option("ROBOT", opt.path,
                             "Robot model file (URDF, MJCF or JSON model); - reads stdin"))
      ->required();
  cmd.add_flag("--floating-base", opt.floating_base,
               "Add a free-flyer root joint 'root' above the model's root link");
  cmd.add_option("--lock", opt.lock,
                 "Fix joints before anything is computed: JOINT=VALUE, JOINT (at 0, or its limit "
                 "nearest 0) or a glob such as 'finger*', comma-separated or repeated; their "
                 "columns in input tables are ignored")
      ->delimiter(',');
  if (!uses_gravity) return;
  cmd.add_option("--gravity", opt.gravity, "Gravity in the world frame, gx,gy,gz (m/s^2)")
      ->delimiter(',')
      ->expected(3)
      ->default_str("0,0,-9.81");
}

void add_input_options(CLI::App& cmd, InputOptions& opt) {
  reads_files(cmd.add_option("TABLE", opt.path, "Input table (CSV, JSON or NDJSON); - reads stdin"))
      ->required();
  cmd.add_option("--from", opt.from, "Input format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
  add_separator_option(cmd, opt.separator);
}

void add_separator_option(CLI::App& cmd, std::string& separator) {
  cmd.add_option("--separator", separator,
                 "CSV field separator: comma, semicolon or tab (default: detected from the "
                 "header row)")
      ->check(CLI::IsMember({"comma", "semicolon", "tab", ",", ";", "\t"}));
}

void add_centroidal_options(CLI::App& cmd, CentroidalOptions& opt, bool dynamics) {
  cmd.add_flag("--centroidal", opt.enabled,
               dynamics ? "Also write com.x .y .z, com.vx .vy .vz, the centroidal momentum h.lx "
                          ".ly .lz .ax .ay .az (angular about the centre of mass), zmp.x .y on "
                          "the ground plane and, with --contacts, cop.x .y"
                        : "Also write com.x .y .z and, when the table has v columns, com.vx "
                          ".vy .vz and the centroidal momentum h.lx .ly .lz .ax .ay .az");
  if (!dynamics) return;
  cmd.add_option("--ground", opt.ground,
                 "Height of the horizontal ground plane z = HEIGHT of zmp and cop (default 0)")
      ->needs("--centroidal");
}

void add_force_options(CLI::App& cmd, ForceOptions& opt) {
  cmd.add_flag("--friction", opt.friction,
               "Add joint friction Fv v + Fs sgn(v) from the model's damping and friction (MJCF "
               "damping and frictionloss)");
  reads_files(cmd.add_option("--friction-file", opt.friction_file,
                             "JSON {\"<joint>\": {\"damping\": Fv, \"friction\": Fs}} overriding "
                             "the model's values (implies --friction)"))
      ->each([&opt](const std::string&) { opt.friction = true; });
  cmd.add_option("--friction-smoothing", opt.friction_smoothing,
                 "Replace sgn(v) by tanh(v / EPS) (default 0: exact sign, sgn(0) = 0)")
      ->check(kNonNegative);
  cmd.add_option("--wrench-frame", opt.wrench_frame,
                 "Axes of wrench.<frame>.* columns: world (default) or local (the frame's own); "
                 "the wrench acts at the frame origin")
      ->check(CLI::IsMember({"world", "local"}));
}

void add_time_options(CLI::App& cmd, TimeOptions& opt) {
  cmd.add_option("--time-column", opt.column,
                 "The column holding time (default t); NAME also reads the integer pair "
                 "NAME.sec, NAME.nanosec of ROS 2 stamps");
  cmd.add_option("--time-scale", opt.scale,
                 "Seconds per unit of the time column (1e-9 for ROS nanoseconds); the output's "
                 "t is in seconds")
      ->check(kPositive);
  cmd.add_option_function<std::string>(
         "--time-origin", [&opt](const std::string& v) { opt.from_first = v == "first"; },
         "The output's t: input (the time column in seconds, every digit kept; default) or "
         "first (seconds since the first row; sim: since the start)")
      ->check(CLI::IsMember({"input", "first"}));
}

void add_row_options(CLI::App& cmd, RowOptions& opt, bool reads_derivatives) {
  reads_files(
      cmd.add_option("TABLE", opt.tables, "Input tables (CSV, JSON, NDJSON); - reads stdin"))
      ->required();
  cmd.add_option("--from", opt.from, "Input format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
  add_separator_option(cmd, opt.separator);
  add_output_options(cmd, opt.output);
  cmd.add_option("--output-dir", opt.output_dir,
                 "Write one output per input into DIR, same base name (batch mode)");
  cmd.add_option("-j,--jobs", opt.jobs,
                 "Threads (default: all cores): tables in parallel in batch mode; for one table, "
                 "reading overlaps computing unless --jobs 1")
      ->check(CLI::Range(0, 4096).description("an integer from 0 (all cores) to 4096"));
  cmd.add_option(
         "--keep", opt.keep,
         "Input columns to pass through, comma separated: NAME, NAME:NEW (NAME as NEW) or a "
         "glob such as 'contact.*' (the columns it matches)")
      ->delimiter(',');
  cmd.add_flag("--keep-input", opt.keep_input, "Pass every input column through");
  add_time_options(cmd, opt.time);
  cmd.add_option_function<std::string>(
         "--duplicates", [&opt](const std::string& v) { opt.drop_duplicates = v == "drop"; },
         "A row repeating the stamp of the row before (loggers write some): refuse (an error "
         "when deriving, the default) or drop (the row is skipped, and counted on stderr)")
      ->check(CLI::IsMember({"drop", "refuse"}));
  if (reads_derivatives) {
    cmd.add_flag("--no-derive", opt.no_derive, "Missing derivative columns are an error");
    cmd.add_option("--derive", opt.derive,
                   "How missing derivatives are taken: fit (least-squares polynomials over "
                   "--derive-window rows, the default) or three-point (v and a only)")
        ->check(CLI::IsMember({"fit", "three-point"}));
    cmd.add_option("--derive-window", opt.derive_window,
                   "Rows of the least-squares fits deriving missing derivatives (at least "
                   "the degree + 1, at most 63; the degree is the highest order derived + 2; "
                   "default: chosen from the first 1000 rows, said on stderr)")
        ->check(CLI::Range(3, PolynomialFit::kMaxSamples));
    cmd.add_option("--gaps", opt.gaps,
                   "A gap in t (a step over 1.5 times the usual one) when deriving: split (derive "
                   "each segment on its own, the default) or refuse (an error)")
        ->check(CLI::IsMember({"split", "refuse"}));
  }
  add_summary_option(cmd, opt.summary);
  cmd.add_flag("-q,--quiet", opt.quiet, "Print errors only");
}

void add_output_options(CLI::App& cmd, OutputOptions& opt) {
  cmd.add_option("-o,--output", opt.path, "Output file; - writes stdout")->default_str("-");
  cmd.add_option("--format", opt.format, "Output format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
}

void add_summary_option(CLI::App& cmd, std::string& path) {
  cmd.add_option("--summary-json", path,
                 "Write the run's summary as JSON to FILE: an array with one object per table "
                 "(rows, exit code, warnings and the command's figures); - writes stdout when "
                 "the table goes to a file");
}

}  // namespace eom::cli
