#include "eom/multibody/model.hpp"

#include <algorithm>

#include "eom/core/errors.hpp"

namespace eom {
namespace {

int find(const std::vector<std::string>& names, std::string_view name) {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

// Levenshtein distance, for "did you mean" suggestions
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

int Model::joint_index(std::string_view name) const {
  const int i = find(joint_names, name);
  return i > 0 ? i : -1;
}

bool Model::is_locked_coordinate(std::string_view coordinate) const {
  return std::any_of(locked.begin(), locked.end(), [&](const LockedJoint& joint) {
    const std::string_view name = joint.name;
    return coordinate.substr(0, name.size()) == name &&
           (coordinate.size() == name.size() || coordinate[name.size()] == '.');
  });
}

int Model::frame_index(std::string_view name) const {
  for (size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int Model::require_frame(std::string_view name) const {
  const int i = frame_index(name);
  if (i >= 0) return i;
  std::vector<std::string> names;
  for (const Frame& f : frames) names.push_back(f.name);
  throw InputError("unknown frame " + quote_input(name) + did_you_mean(names, name) +
                   "; `eom info` lists the frames");
}

std::string did_you_mean(const std::vector<std::string>& names, std::string_view name) {
  // the closest names first (ties in the given order); a name holding the one given whole is
  // close too, however longer ("elbow" for "elbow_joint")
  std::vector<std::pair<size_t, std::string>> close;
  for (const std::string& n : names) {
    const bool holds = name.size() >= 3 && n.find(name) != std::string::npos;
    const size_t most = std::max<size_t>(2, name.size() / 3);
    // the distance is at least the difference of the lengths: names that differ more are not
    // compared (the distance costs the product of the lengths, and a name may be megabytes long)
    const size_t apart = n.size() > name.size() ? n.size() - name.size() : name.size() - n.size();
    const size_t d = apart <= most ? edit_distance(n, name) : apart;
    if (d <= most || holds) close.emplace_back(d, n);
  }
  std::stable_sort(close.begin(), close.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  if (close.empty()) return "";
  std::string text = " (did you mean";
  for (size_t k = 0; k < close.size() && k < 5; ++k)
    text += (k ? ", " : " ") + quote_input(close[k].second);
  return text + "?)";
}

const char* Model::joint_type_name(int i) const {
  return floating_base && i == 1 ? "free-flyer" : eom::joint_type_name(joints[i]);
}

std::vector<std::string> Model::mimic_joints() const {
  std::vector<std::string> out;
  for (int i = 1; i < njoints; ++i) {
    if (info[i].mimic_joint) out.push_back(joint_names[i]);
  }
  return out;
}

}  // namespace eom
