// The options several subcommands share, registered with CLI11: the library's option structs
// (eom/rows/) filled from the command line, and the marking of the options that name files the run
// reads. The contact options are in contact_options.hpp; a subcommand's own, in its folder.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include <eom/core/errors.hpp>
#include <eom/rows/centroidal.hpp>
#include <eom/rows/forces.hpp>
#include <eom/rows/row_engine.hpp>
#include <eom/rows/row_output.hpp>
#include <eom/rows/run.hpp>

namespace eom::cli {

using namespace eom::rows;

/// The option that sets a setting the library's messages name (Streams::names of every run): the
/// library says which setting is at fault or would help, the command line names it.
std::string_view option_name(Setting setting);

/// ROBOT, --floating-base, --lock and (for commands whose results depend on it) --gravity.
void add_robot_options(CLI::App& cmd, RobotOptions& opt, bool uses_gravity = true);
/// TABLE, --from and --separator.
void add_input_options(CLI::App& cmd, InputOptions& opt);
/// --separator SEP (comma, semicolon, tab or the character) into `separator`.
void add_separator_option(CLI::App& cmd, std::string& separator);

/// --centroidal and, where the ZMP is written (`dynamics`), --ground.
void add_centroidal_options(CLI::App& cmd, CentroidalOptions& opt, bool dynamics);
/// --friction, --friction-file (implies --friction), --friction-smoothing, --wrench-frame.
void add_force_options(CLI::App& cmd, ForceOptions& opt);
/// --time-column, --time-scale and --time-origin.
void add_time_options(CLI::App& cmd, TimeOptions& opt);
/// Adds TABLE..., --from, --separator, -o/--output, --format, --output-dir, --jobs, --keep,
/// --keep-input, --time-column, --time-scale, --time-origin, --summary-json, -q/--quiet and, when
/// the command reads derivatives, --no-derive, --derive, --derive-window and --gaps.
void add_row_options(CLI::App& cmd, RowOptions& opt, bool reads_derivatives);
/// -o/--output and --format.
void add_output_options(CLI::App& cmd, OutputOptions& opt);
/// Marks an option whose values name files the run reads (ROBOT, TABLE, --friction-file,
/// --initial, ...; `-` is stdin): check_destinations compares every output with them. Every
/// subcommand marks its file options when it adds them; returns the option.
CLI::Option* reads_files(CLI::Option* option);
/// --summary-json FILE: the run's summary as JSON, one object per table (README "JSON
/// summaries"); "-" writes stdout when the table does not go there.
void add_summary_option(CLI::App& cmd, std::string& path);
/// Every value given on the command line to an option marked by reads_files (Streams::inputs).
std::vector<std::string> given_inputs();

}  // namespace eom::cli
