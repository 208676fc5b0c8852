#include "eom/solvers/ik_target.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "eom/core/errors.hpp"
#include "eom/io/column_names.hpp"
#include "eom/io/columns.hpp"

namespace eom {

namespace {

const char* const kPosition[] = {"x", "y", "z"};
const char* const kQuaternion[] = {"qx", "qy", "qz", "qw"};
const char* const kMatrix[] = {"R.x.x", "R.x.y", "R.x.z", "R.y.x", "R.y.y",
                               "R.y.z", "R.z.x", "R.z.y", "R.z.z"};
const char* const kRpy[] = {"roll", "pitch", "yaw"};
const char* const kWeight[] = {"ik.weight.x",  "ik.weight.y",  "ik.weight.z",
                               "ik.weight.rx", "ik.weight.ry", "ik.weight.rz"};

template <size_t N>
bool any_present(const Header& in, const std::string& frame, const char* const (&suffixes)[N]) {
  return std::any_of(std::begin(suffixes), std::end(suffixes),
                     [&](const char* s) { return in.index(column_name(frame, s)) >= 0; });
}

// the columns <frame>.<suffix> into index, and onto columns
template <size_t N>
void bind(const Header& in, const std::string& frame, const char* const (&suffixes)[N],
          const std::string& file, int* index, std::vector<int>& columns) {
  std::vector<std::string> names;
  for (const char* s : suffixes) names.push_back(column_name(frame, s));
  const std::vector<int> found = bind_columns(in, names, file);  // throws naming the missing
  std::copy(found.begin(), found.end(), index);
  columns.insert(columns.end(), found.begin(), found.end());
}

}  // namespace

IkTargetColumns::IkTargetColumns(const Header& in, const std::string& frame, const Vec6& weights,
                                 const std::string& file)
    : weights_(weights) {
  bool position = (weights.head<3>().array() > 0).any();
  bool orientation = (weights.tail<3>().array() > 0).any();
  for (int k = 0; k < 6; ++k) {
    weight_[k] = in.index(kWeight[k]);
    if (weight_[k] >= 0) {
      (k < 3 ? position : orientation) = true;
      columns_.push_back(weight_[k]);
    }
  }
  if (position) bind(in, frame, kPosition, file, position_.data(), columns_);

  std::vector<std::pair<TargetOrientation, std::string>> given;
  if (any_present(in, frame, kQuaternion))
    given.emplace_back(TargetOrientation::quaternion, "quaternion");
  if (any_present(in, frame, kMatrix))
    given.emplace_back(TargetOrientation::matrix, "rotation matrix");
  if (any_present(in, frame, kRpy)) given.emplace_back(TargetOrientation::rpy, "roll-pitch-yaw");
  if (given.size() > 1) {
    throw InputError(file, 1, 0,
                     "the orientation of " + frame + " is given both as " + given[0].second +
                         " and as " + given[1].second + ": give one");
  }
  if (!orientation) return;
  if (given.empty()) {
    throw InputError(file, 1, 0,
                     "missing the target orientation of " + frame + ": columns " + frame +
                         ".qx .qy .qz .qw, or " + frame + ".R.x.x ... " + frame + ".R.z.z, or " +
                         frame + ".roll .pitch .yaw (or " + Setting::mask + " position)");
  }
  orientation_ = given[0].first;
  switch (orientation_) {
    case TargetOrientation::quaternion:
      bind(in, frame, kQuaternion, file, rotation_.data(), columns_);
      break;
    case TargetOrientation::matrix:
      bind(in, frame, kMatrix, file, rotation_.data(), columns_);
      break;
    case TargetOrientation::rpy:
      bind(in, frame, kRpy, file, rotation_.data(), columns_);
      break;
    case TargetOrientation::none:
      break;
  }
}

void IkTargetColumns::read(const std::vector<double>& row, int line, double t, IkProblem& problem) {
  for (int k = 0; k < 3; ++k) problem.target.p[k] = position_[k] >= 0 ? row[position_[k]] : 0;
  bool renormalised = false;
  const int* c = rotation_.data();
  switch (orientation_) {
    case TargetOrientation::none:
      problem.target.R.setIdentity();
      break;
    case TargetOrientation::quaternion: {
      problem.target.R =
          checked_quaternion(row[c[0]], row[c[1]], row[c[2]], row[c[3]], renormalised);
      if (renormalised) {
        const double n = std::sqrt(row[c[0]] * row[c[0]] + row[c[1]] * row[c[1]] +
                                   row[c[2]] * row[c[2]] + row[c[3]] * row[c[3]]);
        normalised_.add(std::abs(n - 1), t, line);
      }
      break;
    }
    case TargetOrientation::matrix: {
      Mat3 R;
      for (int k = 0; k < 9; ++k) R(k / 3, k % 3) = row[c[k]];
      problem.target.R = checked_rotation_matrix(R, renormalised);
      if (renormalised) normalised_.add((problem.target.R - R).cwiseAbs().maxCoeff(), t, line);
      break;
    }
    case TargetOrientation::rpy:
      problem.target.R = rpy_to_matrix(Vec3(row[c[0]], row[c[1]], row[c[2]]));
      break;
  }
  for (int k = 0; k < 6; ++k) problem.weights[k] = weight_[k] >= 0 ? row[weight_[k]] : weights_[k];
  if ((problem.weights.array() < 0).any()) {
    throw InputError("ik.weight.* columns must not be negative");
  }
  if ((problem.weights.array() == 0).all()) {
    throw InputError("the ik.weight.* columns and " + Setting::mask +
                     " select nothing in this row");
  }
}

}  // namespace eom
