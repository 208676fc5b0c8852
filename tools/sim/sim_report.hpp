// eom sim's report of a run: the counts, clipped torques, limit events and contact events on
// stderr, and the --summary-json object. cmd_sim.cpp runs the simulation.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <eom/algorithm/contacts.hpp>
#include <eom/multibody/model.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/solvers/simulation_setup.hpp>

#include <eom/rows/row_output.hpp>

#include "sim/sim_setup.hpp"

namespace eom::cli {

/// The counts on stderr (with -v), clipped torques and limit events as warnings, the contact
/// events and impacts, the rows needing more friction than --friction-coefficient; times on the
/// output's clock, t0 + the run's.
void report_sim(const SimOptions& opt, const Model& model, const ContactSet& contacts,
                const SimulationStats& stats, size_t rows, double t0, double t_end,
                const Notes& notes, Streams& io);

/// The --summary-json object of the run (README "JSON summaries", doc/sim.md).
nlohmann::json sim_summary(const SimOptions& opt, const Model& model, const ContactSet& contacts,
                           const std::string& controller, const SimulationStats& stats, size_t rows,
                           double t0, double t_end, const EnergyRecord& energy,
                           const MessageLog& log);

}  // namespace eom::cli
