#include "eom/rows/run.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <ostream>

#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/multibody/component_names.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/json_model.hpp>
#include <eom/parsers/reduced_model.hpp>
#include <eom/parsers/urdf.hpp>

namespace eom::rows {

namespace {

// `text` without the blanks around it
std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool is_glob(const std::string& pattern) {
  return pattern.find_first_of("*?") != std::string::npos;
}

namespace {

// The joints one --lock item names: a joint by name, or by a glob every moving joint but the
// free-flyer root is matched against.
std::vector<int> locked_by(const Model& model, const std::string& item,
                           const std::string& pattern) {
  const bool root = model.floating_base && pattern == model.joint_names[1];
  if (root) {
    throw InputError(Setting::lock + (" " + item + ": the free-flyer '" + pattern + "' of ") +
                     Setting::floating_base +
                     " cannot be locked; for a base that does not move, use a fixed base (omit " +
                     Setting::floating_base + ")");
  }
  std::vector<int> joints;
  for (int j = 1; j < model.njoints; ++j) {
    const bool free_flyer = model.floating_base && j == 1;
    if (is_glob(pattern) ? !free_flyer && glob_match(pattern, model.joint_names[j])
                         : model.joint_names[j] == pattern) {
      joints.push_back(j);
    }
  }
  if (!joints.empty()) return joints;
  if (is_glob(pattern)) {
    throw InputError(Setting::lock +
                     (" " + item + ": no joint matches '" + pattern + "' (`eom info` lists them)"));
  }
  const std::vector<std::string> names(model.joint_names.begin() + 1, model.joint_names.end());
  throw InputError(Setting::lock + (" " + item + ": the model has no joint '" + pattern + "'" +
                                    did_you_mean(names, pattern) + " (`eom info` lists them)"));
}

// The model with the joints of --lock fixed: each at VALUE, or at its neutral configuration (0,
// identity) moved into its limits when 0 lies outside them.
Model lock_joints(const Model& model, const std::vector<std::string>& items, Streams& io,
                  const std::string& command, bool quiet) {
  Eigen::VectorXd q = neutral(model);
  std::vector<int> joints;
  std::vector<std::string> locking(model.njoints);  // the item that locks each joint
  for (const std::string& given : items) {
    // "a, b" splits into "a" and " b": the blanks around names and values are no part of them
    const std::string item = trimmed(given);
    const size_t eq = item.find('=');
    const std::string pattern = trimmed(item.substr(0, eq));
    const bool has_value = eq != std::string::npos;
    const std::optional<double> parsed =
        has_value ? parse_number(trimmed(item.substr(eq + 1))) : std::nullopt;
    const double value = parsed.value_or(NAN);
    if (pattern.empty() || (has_value && !std::isfinite(value))) {
      throw InputError(Setting::lock + (" " + item +
                                        ": expected JOINT, JOINT=VALUE with a finite number, or a "
                                        "glob such as 'finger*'"));
    }
    for (const int j : locked_by(model, item, pattern)) {
      const Joint& joint = model.joints[j];
      const std::string& name = model.joint_names[j];
      if (!locking[j].empty()) {
        throw InputError(Setting::lock + (" " + item + ": joint '" + name +
                                          "' is locked twice (also by " + locking[j] + ")"));
      }
      locking[j] = item;
      if (has_value && !is_one_dof(joint)) {
        throw InputError(Setting::lock +
                         (" " + item + ": joint '" + name + "' has " + std::to_string(joint.nq) +
                          " coordinates: lock it by name alone, at its neutral configuration"));
      }
      if (is_one_dof(joint)) {
        q[joint.idx_q] = has_value ? value
                                   : std::clamp(0.0, model.lower_limit[joint.idx_q],
                                                model.upper_limit[joint.idx_q]);
      }
      joints.push_back(j);
    }
  }
  const std::vector<int> followers = lock_mimic_followers(model, joints, q);
  if (!quiet && !followers.empty()) {
    std::string list;
    for (const int j : followers) {
      list += (list.empty() ? "'" : ", '") + model.joint_names[j] + "' at " +
              number_text(q[model.joints[j].idx_q]) + " (mimics '" + *model.info[j].mimic_joint +
              "')";
    }
    warn(io, command,
         Setting::lock + (": mimic joints are locked with the joints they follow: " + list));
  }
  for (const int j : joints) {
    const int k = model.joints[j].idx_q;
    if (!quiet && is_one_dof(model.joints[j]) &&
        (q[k] < model.lower_limit[k] || q[k] > model.upper_limit[k])) {
      warn(io, command,
           Setting::lock +
               (": joint '" + model.joint_names[j] + "' is locked at " + number_text(q[k]) +
                ", outside its limits [" + number_text(model.lower_limit[k]) + ", " +
                number_text(model.upper_limit[k]) + "]"));
    }
  }
  return build_reduced_model(model, joints, q);
}

}  // namespace

Model load_robot(const RobotOptions& opt, Streams& io, const std::string& command, bool quiet) {
  LoadOptions options;
  options.floating_base = opt.floating_base;
  options.gravity = Vec3(opt.gravity[0], opt.gravity[1], opt.gravity[2]);
  if (!options.gravity.allFinite())
    throw InputError(Setting::gravity + ": components must be finite numbers");
  std::vector<Diagnostic> warnings;
  Model model = load_model(opt.path, options, &warnings);
  if (!quiet) {
    const std::string file = opt.path == "-" ? "<stdin>" : opt.path;
    for (const Diagnostic& d : warnings) {
      warn(io, command, file + (d.line > 0 ? ":" + std::to_string(d.line) : "") + ": " + d.message);
    }
  }
  return opt.lock.empty() ? model : lock_joints(model, opt.lock, io, command, quiet);
}

namespace {

char separator_char(const std::string& name) {
  if (name == "comma" || name == ",") return ',';
  if (name == "semicolon" || name == ";") return ';';
  if (name == "tab" || name == "\t") return '\t';
  return 0;
}

}  // namespace

std::unique_ptr<TableReader> open_input(const InputOptions& opt,
                                        const std::function<void(const std::string&)>& warn,
                                        SettingNames names) {
  const std::optional<Format> forced =
      opt.from.empty() ? std::nullopt : std::optional<Format>(parse_format(opt.from));
  const Format format = format_for(opt.path, forced);
  auto reader = TableReader::open(opt.path, format, ReadOptions{separator_char(opt.separator)});
  if (format == Format::csv && reader->separator() != ',' && opt.separator.empty() && warn) {
    warn(reader->name() + ": fields separated by " +
         (reader->separator() == ';' ? "semicolons" : "tabs") + " (detected from the header row; " +
         (Setting::separator + " sets it)").text(names));
  }
  return reader;
}

void assign_coordinates(const std::string& option, const std::vector<std::string>& items,
                        const Model& model, const std::vector<std::string>& names,
                        Eigen::Ref<Eigen::VectorXd> out) {
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    const auto value = eq == std::string::npos ? std::nullopt : parse_number(item.substr(eq + 1));
    if (!value || !std::isfinite(*value)) {
      throw InputError(option + " " + item + ": expected NAME=VALUE with a finite number");
    }
    const std::string name = item.substr(0, eq);
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end() && model.is_locked_coordinate(name)) {
      throw InputError(option + " " + item + ": '" + name +
                       "' is a coordinate of a joint fixed by " + Setting::lock +
                       ": give its value there");
    }
    if (it == names.end()) {
      throw InputError(option + " " + item + ": the model has no coordinate '" + name + "'" +
                       did_you_mean(names, name) + " (`eom info` lists them)");
    }
    out[it - names.begin()] = *value;
  }
}

int require_frame_option(const Model& model, const std::string& option, const std::string& name) {
  try {
    return model.require_frame(name);
  } catch (const InputError& e) {
    throw InputError(option + ": " + e.phrase());
  }
}

namespace {

// The --lock items that fix `joints` (not the free-flyer): one glob PREFIX*SUFFIX when it matches
// exactly those joints and saves naming more than two, else the names.
std::string lock_proposal(const Model& model, const std::vector<int>& joints) {
  std::vector<std::string> names;
  for (const int j : joints) {
    if (!(model.floating_base && j == 1)) names.push_back(model.joint_names[j]);
  }
  if (names.size() > 2) {
    // the length of the common start of two ranges
    const auto common = [](auto a, auto a_end, auto b, auto b_end) {
      return static_cast<size_t>(std::mismatch(a, a_end, b, b_end).first - a);
    };
    std::string prefix = names[0], suffix = names[0];
    for (const std::string& name : names) {
      prefix.resize(common(prefix.begin(), prefix.end(), name.begin(), name.end()));
      suffix.erase(
          0, suffix.size() - common(suffix.rbegin(), suffix.rend(), name.rbegin(), name.rend()));
    }
    const size_t shortest =
        std::min_element(names.begin(), names.end(), [](const auto& a, const auto& b) {
          return a.size() < b.size();
        })->size();
    if (prefix.size() + suffix.size() > shortest) suffix.clear();  // they overlap
    const std::string glob = prefix + "*" + suffix;
    const size_t matched =
        std::count_if(model.joint_names.begin() + 1 + model.floating_base, model.joint_names.end(),
                      [&](const std::string& name) { return glob_match(glob, name); });
    if (prefix.size() + suffix.size() >= 3 && matched == names.size()) return glob;
  }
  std::string items;
  for (const std::string& name : names) items += (items.empty() ? "" : ",") + name;
  return items;
}

}  // namespace

void refuse_singular_mass_matrix(const Model& model, const std::string& context,
                                 const std::string& needs) {
  const std::vector<int> joints = joints_without_inertia(model);
  if (joints.empty()) return;
  std::string names;
  for (int j : joints) names += (names.empty() ? "'" : ", '") + model.joint_names[j] + "'";
  const std::string lock = lock_proposal(model, joints);
  const bool one = joints.size() == 1;
  // what they move may be real but below the pivot rule's 1e-12 of the model's largest inertias
  double moved = 0;
  for (int j : joints) moved = std::max(moved, inertia_moved_by(model, j));
  const std::string what =
      moved > 0 ? (one ? " moves" : " move") + std::string(" at most ") + number_text(moved) +
                      " (kg or kg m^2) along " + (one ? "its" : "their") +
                      " motion, lost in the round-off of the model's largest inertias (" +
                      number_text(Data(model).pivot_scale) +
                      "): the mass matrix is singular to working precision at every configuration"
                : (one ? " moves no mass or inertia along its motion"
                       : " move no mass or inertia along their motion") +
                      std::string(": the mass matrix is singular at every configuration");
  const Phrase remedy =
      moved > 0 ? "(the model's inertias span more than 12 orders of magnitude: check its largest)"
                : "(give the links they move mass and inertia" +
                      (lock.empty() ? Phrase()
                                    : ", or lock them: " + Setting::lock + (" '" + lock + "'")) +
                      ")";
  throw InputError(context + (one ? "joint " : "joints ") + names + what +
                   " (a model defect) and " + needs + " is undefined " + remedy);
}

void warn(Streams& io, const std::string& command, const Phrase& message) {
  io.err << "eom " << command << ": warning: " << message.text(io.names) << '\n';
}

}  // namespace eom::rows
