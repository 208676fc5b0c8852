#include "sim/sim_report.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <eom/core/number_text.hpp>
#include <eom/io/column_names.hpp>

namespace eom::cli {
namespace {

std::string frame_name(const Model& model, const ContactSet& contacts, int k) {
  return model.frames[contacts.contacts[k].frame].name;
}

// The contact events on stderr (the first ten instants; contacts closing or opening at the same
// time said together), the impacts' energy, and the outputs needing more friction than
// --friction-coefficient.
void report_contacts(const SimOptions& opt, const Model& model, const ContactSet& contacts,
                     const SimulationStats& stats, double t0, const Notes& notes, Streams& io) {
  constexpr size_t kShown = 10;
  const auto& events = stats.contact_events;
  size_t instants = 0, shown = events.size();  // shown: the events of the instants printed
  for (size_t e = 0; e < events.size();) {
    const size_t first = e;
    std::ostringstream s;
    s << "t = " << number_text(t0 + events[e].t) << " s:";
    for (const bool closes : {true, false}) {
      std::string names;
      double loss = 0;
      for (size_t f = first; f < events.size() && events[f].t == events[first].t; ++f) {
        if (events[f].closes != closes) continue;
        names +=
            (names.empty() ? " '" : ", '") + frame_name(model, contacts, events[f].contact) + "'";
        loss = events[f].energy_loss;
      }
      if (names.empty()) continue;
      s << (closes ? " touchdown of" : " lift-off of") << names;
      if (closes) s << " (impact: " << number_text(loss) << " J lost)";
    }
    while (e < events.size() && events[e].t == events[first].t) ++e;
    if (instants++ < kShown && !opt.quiet) io.err << "eom sim: " << s.str() << '\n';
    if (instants == kShown) shown = e;
  }
  if (instants > kShown && !opt.quiet) {
    io.err << "eom sim: and " << stats.contact_event_count - static_cast<long>(shown)
           << " more contact events\n";
  }
  if (stats.impacts > 0 && !opt.quiet) {
    io.err << "eom sim: " << stats.impacts << (stats.impacts == 1 ? " impact" : " impacts")
           << ", kinetic energy lost: " << number_text(stats.impact_energy_loss) << " J\n";
  }
  if (stats.friction_outputs > 0) {
    const bool pulls = stats.worst_friction == kPullingFrictionRatio;
    notes.warning(std::to_string(stats.friction_outputs) + " rows need more friction than " +
                  "--friction-coefficient " + number_text(opt.contacts.friction_coefficient) +
                  " (the contacts stick; slip is not simulated); the worst: |f_t| / f_n = " +
                  number_text(stats.worst_friction) + (pulls ? " (it pulls)" : "") + " at '" +
                  frame_name(model, contacts, stats.worst_friction_contact) +
                  "', t = " + number_text(t0 + stats.worst_friction_t) + " s");
  }
}

// "contacts" of the summary: the events, the impacts' energy, the friction check.
void summarize_contacts(const SimOptions& opt, const Model& model, const ContactSet& contacts,
                        const SimulationStats& stats, double t0, nlohmann::json& s) {
  if (contacts.contacts.empty()) {
    s["contacts"] = nullptr;
    return;
  }
  nlohmann::json events = nlohmann::json::array();
  for (const ContactEvent& e : stats.contact_events) {
    events.push_back(
        {{"t", t0 + e.t},
         {"frame", frame_name(model, contacts, e.contact)},
         {"event", e.closes ? "touchdown" : "lift-off"},
         {"energy_loss", e.closes ? nlohmann::json(e.energy_loss) : nlohmann::json()}});
  }
  nlohmann::json friction = nullptr;
  const bool ground = !std::isnan(opt.ground);
  if (time_stepped(opt)) {
    friction = {{"coefficient", ground_friction_coefficient(opt)}, {"model", "coulomb"}};
    if (opt.friction_facets > 0) {
      friction["model"] = "pyramid";
      friction["facets"] = opt.friction_facets;
    }
  } else if (opt.contacts.friction_coefficient > 0) {
    const bool worst = stats.worst_friction_contact >= 0;
    friction = {
        {"coefficient", opt.contacts.friction_coefficient},
        {"rows", stats.friction_outputs},
        {"worst_ratio", worst ? nlohmann::json(stats.worst_friction) : nlohmann::json()},
        {"worst_frame",
         worst ? nlohmann::json(frame_name(model, contacts, stats.worst_friction_contact))
               : nlohmann::json()},
        {"worst_t", worst ? nlohmann::json(t0 + stats.worst_friction_t) : nlohmann::json()}};
  }
  s["contacts"] = {{"mode", ground                          ? "ground"
                            : !opt.contact_schedule.empty() ? "schedule"
                                                            : "held"},
                   {"events", events},
                   {"event_count", stats.contact_event_count},
                   {"impacts", stats.impacts},
                   {"impact_energy_loss", stats.impact_energy_loss},
                   {"friction", friction}};
}

}  // namespace

void report_sim(const SimOptions& opt, const Model& model, const ContactSet& contacts,
                const SimulationStats& stats, size_t rows, double t0, double t_end,
                const Notes& notes, Streams& io) {
  if (opt.verbose) {
    std::ostringstream s;
    s << name_of(kIntegrators, opt.integrator) << ": " << stats.steps << " steps";
    if (opt.integrator == Integrator::rk45) s << " accepted, " << stats.rejected << " rejected";
    s << ", " << stats.evaluations << " evaluations, " << rows
      << " rows to t = " << number_text(t0 + t_end) << " s";
    io.err << "eom sim: " << s.str() << '\n';
  }
  if (opt.saturate && stats.saturated_steps > 0) {
    std::ostringstream s;
    s << "torques clipped at the effort limits in " << stats.saturated_steps << " of "
      << stats.steps << " steps:";
    for (int k = 0; k < model.nv; ++k) {
      if (stats.saturated_per_joint[k] > 0) {
        s << ' ' << model.tau_names[k] << " (" << stats.saturated_per_joint[k] << ")";
      }
    }
    notes.warning(s.str());
  }
  constexpr size_t kShown = 10;
  const auto& events = stats.limit_events;
  for (size_t e = 0; e < std::min(events.size(), kShown); ++e) {
    const LimitEvent& ev = events[e];
    const JointInfo& info = model.info[ev.joint];
    notes.warning("joint '" + model.joint_names[ev.joint] + "' " +
                  (ev.leaving ? "left" : "came back within") + " its " +
                  (ev.upper ? "upper" : "lower") + " limit (" +
                  number_text(ev.upper ? info.upper : info.lower) +
                  ") at t = " + number_text(t0 + ev.t) + " s");
  }
  if (stats.limit_event_count > static_cast<long>(kShown)) {
    notes.warning("and " + std::to_string(stats.limit_event_count - static_cast<long>(kShown)) +
                  " more limit events");
  }
  report_contacts(opt, model, contacts, stats, t0, notes, io);
}

nlohmann::json sim_summary(const SimOptions& opt, const Model& model, const ContactSet& contacts,
                           const std::string& controller, const SimulationStats& stats, size_t rows,
                           double t0, double t_end, const EnergyRecord& energy,
                           const MessageLog& log) {
  nlohmann::json s =
      summary_object("sim", opt.initial.empty() ? nlohmann::json() : nlohmann::json(opt.initial),
                     opt.output.path, true, static_cast<long>(rows), kExitOk, log);
  s["integrator"] = name_of(kIntegrators, opt.integrator);
  s["controller"] = controller;
  s["t_start"] = t0;
  s["t_end"] = t0 + t_end;
  s["dt"] = opt.dt;
  s["steps"] = stats.steps;
  s["rejected"] = stats.rejected;
  s["evaluations"] = stats.evaluations;
  nlohmann::json per_joint = nlohmann::json::array();
  for (int k = 0; k < model.nv; ++k) {
    if (stats.saturated_per_joint[k] > 0) {
      per_joint.push_back({{"column", column_name("tau", model.tau_names[k])},
                           {"steps", stats.saturated_per_joint[k]}});
    }
  }
  s["saturation"] = {
      {"enabled", opt.saturate}, {"steps", stats.saturated_steps}, {"joints", per_joint}};
  nlohmann::json limit_events = nlohmann::json::array();
  for (const LimitEvent& ev : stats.limit_events) {
    const JointInfo& info = model.info[ev.joint];
    limit_events.push_back({{"joint", model.joint_names[ev.joint]},
                            {"limit", ev.upper ? "upper" : "lower"},
                            {"value", ev.upper ? info.upper : info.lower},
                            {"t", t0 + ev.t},
                            {"leaving", ev.leaving}});
  }
  s["limit_events"] = limit_events;
  s["limit_event_count"] = stats.limit_event_count;
  const std::optional<double> relative = energy.relative_change();
  summarize_contacts(opt, model, contacts, stats, t0, s);
  s["energy"] = nullptr;
  if (energy.rows > 0) {
    s["energy"] = {{"initial", energy.initial},
                   {"final", energy.last},
                   {"change", energy.change()},
                   {"relative_change", relative ? nlohmann::json(*relative) : nlohmann::json()}};
  }
  return s;
}

}  // namespace eom::cli
