// Identification scaled out (eom identify's partial fits): what some logs contribute to a fit,
// written to a file and merged with others later, so that logs can be read on many machines and
// the fit finished on one. The format is documented in doc/identify.md ("Partial fits").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "eom/algorithm/contact_set.hpp"
#include "eom/algorithm/regressor.hpp"
#include "eom/multibody/model.hpp"
#include "eom/trajectory/identification.hpp"

namespace eom {

/// The version of the partial fit format this library writes and reads.
inline constexpr int kPartialFitVersion = 1;

/// What a partial fit must share with the run that merges it: the robot (a hash of its joints,
/// bodies, gravity and locked joints, and one of the file's parameters, the prior), the settings
/// that change the regressor's columns (the drive columns, the Coulomb smoothing), the measured
/// side's (the contacts whose forces enter the equations, and the equations the logs give), and
/// the columns themselves (the parameters and the base parameters' independent ones, by name).
struct PartialFitKey {
  std::string robot;       // the model's name
  std::string model_hash;  // 16 hex digits: joints, placements, axes, names, gravity, locks and
                           // the contacts' frames (their joint, placement, kind and normal)
  std::string prior_hash;  // 16 hex digits: the bodies' inertias, damping, friction, armature
  std::vector<std::string> friction;  // the drive columns on: "viscous", "coulomb", "offset"
  bool armature = false;
  double friction_smoothing = 0;
  Vec3 gravity = Vec3::Zero();
  std::vector<std::string> locked;      // "joint=q" per locked joint (q shortest round trip)
  std::vector<std::string> contacts;    // "FRAME:3d" per contact ("FRAME:1d:nx,ny,nz"), in order
  std::vector<std::string> joints;      // the equations' coordinates: the fit's groups, in order
  std::vector<std::string> parameters;  // the regressor's columns (regressor_parameter_names)
  std::vector<std::string> base;        // the base parameters' independent columns, in order
};

/// The key of a run identifying `model` with `drive` and its base parameters, the forces of
/// `contacts` on the measured side, over the first `equations` velocity coordinates (0: every
/// one; a floating base's six when its logs have no joint torques).
PartialFitKey partial_fit_key(const Model& model, const DriveParameters& drive,
                              const BaseParameters& base, const ContactSet& contacts = {},
                              int equations = 0);

/// A partial fit: the accumulated factors of some logs' rows and what they belong to.
struct PartialFit {
  PartialFitKey key;
  std::vector<std::string> logs;  // the logs it holds, as they were named
  StreamingLeastSquares fit;      // flushed: per joint the factor [R, Q^T tau; 0, rho]
};

/// The partial fit as the text of its file (JSON, version kPartialFitVersion): every number in a
/// form that reads back to the same double. `fit` must be flushed.
std::string partial_fit_text(const PartialFitKey& key, const std::vector<std::string>& logs,
                             const StreamingLeastSquares& fit);

/// A partial fit read from the text of its file `file` (partial_fit_text's). Throws InputError
/// with the file and the line and column (malformed or truncated JSON) or the place in the
/// document ("/joints/2/R/5") and what was expected there.
PartialFit parse_partial_fit(const std::string& text, const std::string& file);

/// Reads the partial fit file at `path` (read whole, bounded as robot files are).
PartialFit read_partial_fit(const std::string& path);

/// Whether the file at `path` starts as a partial fit does (for a partial fit given where a log
/// is read: the log reader's error would not say what it is). False for "-" and for what cannot
/// be read.
bool looks_like_partial_fit(const std::string& path);

/// Throws InputError naming `file` and what differs when the partial fit's key is not the run's:
/// another robot, other parameters in the robot file, other drive columns, gravity or locks,
/// other contacts (or none), other equations.
void check_partial_fit_key(const PartialFitKey& run, const PartialFitKey& partial,
                           const std::string& file);

/// The one way fits over parts of the rows are combined, in the order the parts come: the first
/// part as it is, each next one merged into the total (StreamingLeastSquares::merge). A run over
/// several logs combines its logs' fits so, and a merge of partial fits combines theirs so: one
/// partial fit per log, merged in the logs' order, gives the run's factors bit for bit.
void combine_fit(std::optional<StreamingLeastSquares>& total, StreamingLeastSquares&& part);

}  // namespace eom
