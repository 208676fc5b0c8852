// eom convert: copy a table between CSV, JSON and NDJSON, row by row and without loss.

#include <memory>
#include <vector>

#include <eom/io/table.hpp>

#include "cli.hpp"
#include "row_output.hpp"

namespace eom::cli {
namespace {

struct ConvertOptions {
  InputOptions input;
  OutputOptions output;
  bool quiet = false;  // convert has nothing but errors to say
};

int run_convert(const ConvertOptions& opt, Streams&) {
  check_destinations({opt.output.path}, "");
  // the input's header is read before the output is opened: bad input never creates the output
  // every column is copied, and eom writes numbers only: a text cell is an error naming line:col
  const auto in = open_input(opt.input);
  const auto out = open_output(opt.output, in->header());
  std::vector<double> row;
  while (in->next(row)) out->write_row(row.data());
  out->commit();
  return kExitOk;
}

}  // namespace

void register_convert(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<ConvertOptions>(
      app, dispatch, "convert",
      "Convert a table between CSV, JSON and NDJSON, keeping every column and every\n"
      "double exactly. Formats follow the extensions; --from and --format override.",
      {"eom convert trajectories/ur5_wave.csv ur5_wave.ndjson",
       "eom convert --from ndjson - out.json < ur5_wave.ndjson"},
      run_convert);
  add_input_options(*cmd, opt->input);
  CLI::Option* out = cmd->add_option("OUT", opt->output.path, "Output table; - writes stdout");
  add_output_options(*cmd, opt->output);
  out->excludes(cmd->get_option("--output"));
  cmd->add_flag("-q,--quiet", opt->quiet, "Print errors only");
}

}  // namespace eom::cli
