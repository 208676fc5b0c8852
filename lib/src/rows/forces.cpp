#include "eom/rows/forces.hpp"
#include <eom/rows/run.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>
#include <eom/core/errors.hpp>

#include <eom/rows/row_output.hpp>

namespace eom::rows {

Friction load_friction(const Model& model, const ForceOptions& opt) {
  Friction friction = Friction::from_model(model);
  friction.smoothing = opt.friction_smoothing;
  if (opt.friction_file.empty()) return friction;
  std::error_code error;
  if (std::filesystem::is_directory(opt.friction_file, error)) {
    throw InputError(opt.friction_file, 0, 0, "a directory, not a JSON file");
  }
  std::ifstream in(opt.friction_file);
  if (!in) throw InputError(opt.friction_file, 0, 0, "cannot open the file");
  return read_friction(model, in, opt.friction_file, std::move(friction));
}

Friction read_friction(const Model& model, std::istream& in, const std::string& file,
                       Friction friction) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    // malformed, or a number beyond a double (1e400)
    throw InputError(file, 0, 0, std::string("malformed JSON: ") + e.what());
  }
  if (!j.is_object()) {
    throw InputError(file, 0, 0,
                     "expected an object {\"<joint>\": {\"damping\": x, \"friction\": y}}");
  }
  for (const auto& [name, values] : j.items()) {
    const int i = model.joint_index(name);
    if (i < 0 || model.joints[i].nv != 1) {
      throw InputError(file, 0, 0, "'" + name + "' is no 1-DoF joint of the model");
    }
    if (!values.is_object()) {
      throw InputError(file, 0, 0, name + ": expected an object {\"damping\": x, \"friction\": y}");
    }
    for (const auto& [key, value] : values.items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
        throw InputError(file, 0, 0, name + "." + key + ": expected a finite number >= 0");
      }
      const int k = model.joints[i].idx_v;
      if (key == "damping") {
        friction.viscous[k] = value;
      } else if (key == "friction") {
        friction.coulomb[k] = value;
      } else {
        throw InputError(file, 0, 0,
                         name + ": unknown key '" + key + "' (expected damping or friction)");
      }
    }
  }
  return friction;
}

ExternalWrenches::ExternalWrenches(const Model& model, const Header& header,
                                   const std::string& file, const ForceOptions& opt)
    : reference_(opt.wrench_frame == "local" ? ReferenceFrame::local
                                             : ReferenceFrame::local_world_aligned) {
  for (const auto& name : header.names) {
    if (name.rfind("wrench.", 0) != 0 || name.size() < 11 ||
        name.compare(name.size() - 3, 3, ".fx")) {
      continue;
    }
    const std::string frame = name.substr(7, name.size() - 10);
    int f = -1;
    try {
      f = model.require_frame(frame);
    } catch (const InputError& e) {
      throw InputError(file, 1, 0, "column " + name + ": " + e.phrase());
    }
    frames_.push_back(f);
    for (int c : bind_columns(header, wrench_columns("wrench", frame), file)) columns_.push_back(c);
  }
  for (const auto& name : header.names) {
    if (name.rfind("wrench.", 0) == 0 &&
        std::find(columns_.begin(), columns_.end(), header.index(name)) == columns_.end()) {
      throw InputError(file, 1, 0,
                       "column " + name + ": expected wrench.<frame>.fx .fy .fz .mx .my .mz");
    }
  }
  wrenches_.resize(static_cast<Eigen::Index>(columns_.size()));
}

std::vector<int> ExternalWrenches::series_columns(const Model& model, const Header& header,
                                                  const std::string& file, int order) const {
  std::vector<std::string> names;
  for (int k = 1; k <= order; ++k) {
    for (const int f : frames_) {
      const std::vector<std::string> wrench =
          wrench_columns(time_derivative_prefix("wrench", k), model.frames[f].name);
      names.insert(names.end(), wrench.begin(), wrench.end());
    }
  }
  std::vector<int> columns = columns_;
  for (const int c : bind_columns(header, names, file)) columns.push_back(c);
  return columns;
}

void ExternalWrenches::term(const Model& model, Data& data, ConstVec q,
                            const std::vector<double>& row, VecRef out) {
  gather(row, columns_, wrenches_);
  external_torque(model, data, q, frames_, wrenches_, reference_, out);
  out = -out;
}

}  // namespace eom::rows
