// --centroidal of eom id and eom fk: the centre of mass, its velocity and the centroidal momentum,
// the zero moment point and the contacts' centre of pressure as columns (algorithm/centroidal.hpp
// does the mathematics).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <eom/algorithm/contacts.hpp>
#include <eom/multibody/data.hpp>
#include <eom/multibody/model.hpp>
#include <eom/trajectory/row_statistics.hpp>

#include <eom/rows/row_output.hpp>

namespace eom::rows {

struct CentroidalOptions {
  bool enabled = false;  // --centroidal
  double ground = 0;     // --ground HEIGHT: the plane of zmp and cop
};

/// The columns of one table, and their values row by row. Allocates nothing per row.
class CentroidalRows {
 public:
  /// com.x .y .z; with `velocity` com.vx .vy .vz and h.lx .ly .lz .ax .ay .az; with `dynamics`
  /// zmp.x .y; with `contacts` cop.x .y.
  CentroidalRows(const Model& model, double ground, bool velocity, bool dynamics, bool contacts);

  const std::vector<std::string>& columns() const { return columns_; }

  /// com at q; returns the end of what it wrote.
  double* position(ConstVec q, double* out);
  /// com, its velocity and the momentum at (q, v).
  double* velocity(ConstVec q, ConstVec v, double* out);
  /// The same and the ZMP of the motion (q, v, a) of the row at (t, line).
  double* dynamics(ConstVec q, ConstVec v, ConstVec a, double t, int line, double* out);
  /// The centre of pressure of the contact forces f of `contacts` (active at its last compute).
  double* pressure(const ContactJacobian& contacts, ConstVec f, double t, int line, double* out);

  /// The rows without a ZMP or centre of pressure (nothing pressing on the ground) on stderr.
  void finish(const Notes& notes, const std::string& file) const;

 private:
  // the point, or 0, 0 counted in `undefined` when there is none
  double* point(const std::optional<Eigen::Vector2d>& p, RowTally& undefined, double t, int line,
                double* out) const;

  const Model& model_;
  const double ground_;
  Data data_;
  std::vector<std::string> columns_;
  RowTally no_zmp_, no_cop_;
};

}  // namespace eom::rows
