// eom convert: copy a table between CSV, JSON and NDJSON, row by row and without loss: every
// field as the input wrote it (numbers to the last digit, text as text, JSON null as an empty
// CSV field), nested JSON objects as their flattened columns.

#include <memory>
#include <string>
#include <vector>

#include <eom/io/table.hpp>

#include "cli.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct ConvertOptions {
  InputOptions input;
  OutputOptions output;
  bool quiet = false;  // convert warns of a separator other than a comma only
};

int run_convert(const ConvertOptions& opt, Streams& io) {
  check_destinations(io.inputs, {opt.output.path}, "");
  const Notes notes{io.err, "convert", opt.quiet, nullptr, io.names};
  // the input's header is read before the output is opened: bad input never creates the output
  const auto in = open_input(
      opt.input, [&](const std::string& m) { notes.warning(m); }, io.names);
  const int n = in->header().size();
  in->read_columns(std::vector<bool>(n, false));  // any field is copied, numbers or not
  const auto out = open_output(opt.output, in->header());
  std::vector<double> row;
  std::vector<Field> fields(n);
  while (in->next(row)) {
    for (int c = 0; c < n; ++c) fields[c] = in->field(c);
    out->write_row(row.data(), fields.data());
  }
  out->commit();
  return kExitOk;
}

}  // namespace

void register_convert(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<ConvertOptions>(
      app, dispatch, "convert",
      "Convert a table between CSV, JSON and NDJSON, keeping every column and every\n"
      "field exactly (numbers digit for digit, text as text). Formats follow the\n"
      "extensions; --from and --format override.",
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
