// Fuzz target: the tables of eom sim. The input (a CSV file) is read as the --initial table (its
// first row is the initial state) and as the --torques table, whose torques then drive a few
// simulation steps from that state: bad input must end in InputError, a blow-up in
// NumericalError (with its diagnosis); anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include <eom/core/errors.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>
#include <eom/solvers/simulate.hpp>

#include "fuzz_model.hpp"
#include "sim/sim_setup.hpp"

namespace {

// the input as a file (the tables of sim are files), removed when done
struct InputFile {
  std::string path;
  InputFile(const uint8_t* data, size_t size) {
    char name[] = "/tmp/eom_fuzz_sim_XXXXXX.csv";
    const int fd = mkstemps(name, 4);
    if (fd < 0) return;
    path = name;
    for (size_t done = 0; done < size;) {
      const ssize_t n = write(fd, data + done, size - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    close(fd);
  }
  ~InputFile() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace eom;
  const Model& model = fuzz_model();
  const InputFile file(data, size);
  if (file.path.empty()) return 0;
  std::ostringstream messages;
  const rows::Notes notes{messages, "sim", true, nullptr};
  cli::SimOptions opt;
  opt.initial = file.path;
  try {
    const cli::SimStart start = cli::initial_state(model, opt, notes);
    // streamed as eom sim reads it: a bad row throws when the run reaches it
    rows::TimeTable torques = rows::stream_time_table(file.path, {"tau"}, opt.time, start.clock);
    check_coordinate_columns(torques.header, model, file.path);
    const std::vector<int> columns =
        bind_columns(torques.header, coordinate_columns(model, "tau", Space::tau), file.path);
    TorqueCallback control([&](double t, ConstVec, ConstVec, VecRef tau) {
      torques.series.sample(t, Interpolation::linear, columns, tau);
    });
    SimulationOptions sim;
    sim.dt = 1e-3;
    sim.friction = true;
    Simulator simulator(model);
    simulator.run(control, start.q, start.v, 0, 0.02, sim);
  } catch (const InputError&) {
  } catch (const NumericalError&) {
  }
  return 0;
}
