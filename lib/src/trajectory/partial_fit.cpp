#include "eom/trajectory/partial_fit.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/whole_file.hpp"
#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "parsers/json_document.hpp"

namespace eom {
namespace {

using nlohmann::json;

constexpr const char* kPartialFitFormat = "eom identify partial fit";

// FNV-1a, 64 bits (Fowler, Noll and Vo; IETF draft-eastlake-fnv), over a canonical byte stream
// (doubles by their bits, with -0 as 0, least significant byte first; strings with their length
// first): the same model gives the same hash on every machine with IEEE doubles. A check that
// partial fits belong together, not a protection against forgery.
class ModelHash {
 public:
  static constexpr std::uint64_t kOffsetBasis = 14695981039346656037ULL;
  static constexpr std::uint64_t kPrime = 1099511628211ULL;

  void bytes(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t k = 0; k < n; ++k) value_ = (value_ ^ p[k]) * kPrime;
  }
  void integer(std::int64_t x) {
    unsigned char b[8];
    for (int k = 0; k < 8; ++k)
      b[k] = static_cast<unsigned char>(static_cast<std::uint64_t>(x) >> (8 * k));
    bytes(b, 8);
  }
  void number(double x) {
    std::uint64_t bits = 0;
    const double canonical = x == 0 ? 0.0 : x;
    std::memcpy(&bits, &canonical, sizeof bits);
    integer(static_cast<std::int64_t>(bits));
  }
  template <typename Derived>
  void numbers(const Eigen::DenseBase<Derived>& m) {
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      for (Eigen::Index c = 0; c < m.cols(); ++c) number(m(r, c));
    }
  }
  void text(const std::string& s) {
    integer(static_cast<std::int64_t>(s.size()));
    bytes(s.data(), s.size());
  }
  std::string hex() const {
    static const char* digits = "0123456789abcdef";
    std::string out(16, '0');
    for (int k = 0; k < 16; ++k) out[15 - k] = digits[(value_ >> (4 * k)) & 15];
    return out;
  }

 private:
  std::uint64_t value_ = kOffsetBasis;
};

// what the regressor's columns depend on: the joints, their bodies' names and placements, the
// gravity, the locked joints; and what the measured side's J_c^T f does: the contacts' frames
// (hashed only when there are contacts, so that a fit without them keeps its hash)
std::string model_hash(const Model& model, const ContactSet& contacts) {
  ModelHash h;
  h.integer(model.floating_base);
  h.integer(model.njoints);
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    h.text(model.joint_names[i]);
    h.text(model.info[i].child_link);
    h.integer(static_cast<int>(j.kind));
    h.integer(model.parent[i]);
    h.integer(j.idx_q);
    h.integer(j.nq);
    h.integer(j.idx_v);
    h.integer(j.nv);
    h.numbers(j.axis);
    h.numbers(j.e1);
    h.numbers(j.e2);
    h.number(j.scale);
    h.numbers(model.placement[i].R);
    h.numbers(model.placement[i].p);
  }
  for (const std::string& name : model.v_names) h.text(name);
  h.numbers(model.gravity);
  for (const LockedJoint& lock : model.locked) {
    h.text(lock.name);
    h.numbers(lock.q);
  }
  for (const Contact& contact : contacts.contacts) {
    const Frame& frame = model.frames[contact.frame];
    h.text(frame.name);
    h.integer(frame.parent);
    h.numbers(frame.placement.R);
    h.numbers(frame.placement.p);
    h.integer(static_cast<int>(contact.kind));
    if (contact.kind == ContactKind::normal) h.numbers(contact.normal);
  }
  return h.hex();
}

// a contact as --contacts names it, a 1d contact with its normal: "FL_FOOT:3d", "foot:1d:0,0,1"
std::string contact_text(const Model& model, const Contact& contact) {
  const std::string& frame = model.frames[contact.frame].name;
  switch (contact.kind) {
    case ContactKind::normal:
      return frame + ":1d:" + shortest_text(contact.normal.x()) + "," +
             shortest_text(contact.normal.y()) + "," + shortest_text(contact.normal.z());
    case ContactKind::point:
      return frame + ":3d";
    case ContactKind::frame:
      return frame + ":6d";
  }
  return frame;
}

// the file's parameters, the prior the fit starts from and keeps where the torques cannot tell
std::string prior_hash(const Model& model) {
  DriveParameters every;
  every.viscous = every.coulomb = every.armature = true;
  ModelHash h;
  h.numbers(regressor_parameters(model, every));
  return h.hex();
}

// a JSON value written on one line, in nlohmann's spelling (numbers read back to the same double,
// -0 included)
template <typename T>
std::string json_text(const T& value) {
  return json(value).dump();
}

[[noreturn]] void bad(const std::string& file, const std::string& where, const std::string& what) {
  throw InputError(file, 0, 0, where + ": " + what);
}

std::string json_kind(const json& value) {
  if (value.is_number()) return "a number";
  if (value.is_string()) return "a string";
  if (value.is_array()) return "a list";
  if (value.is_object()) return "an object";
  if (value.is_boolean()) return "true or false";
  return "null";
}

// the members of a partial fit's objects, each checked for its kind where it is read
class PartialFitReader {
 public:
  explicit PartialFitReader(std::string file) : file_(std::move(file)) {}

  // member `key` of `object` (at `where`): there, and no member but those in `keys`
  const json& member(const json& object, const std::string& where, const char* key) const {
    const auto it = object.find(key);
    if (it == object.end())
      bad(file_, where.empty() ? "/" : where, "missing \"" + std::string(key) + "\"");
    return *it;
  }
  void only(const json& object, const std::string& where,
            std::initializer_list<const char*> keys) const {
    for (const auto& [key, value] : object.items()) {
      bool known = false;
      for (const char* k : keys) known = known || key == k;
      if (!known) bad(file_, where + "/" + key, "not a member of a partial fit (version 1)");
    }
  }
  double number(const json& value, const std::string& where) const {
    if (!value.is_number()) bad(file_, where, "expected a number, found " + json_kind(value));
    const double x = value.get<double>();
    if (!std::isfinite(x)) bad(file_, where, "expected a finite number");
    return x;
  }
  std::string text(const json& value, const std::string& where) const {
    if (!value.is_string()) bad(file_, where, "expected a string, found " + json_kind(value));
    return value.get<std::string>();
  }
  const json& list(const json& value, const std::string& where, long size = -1,
                   const char* of = "entries") const {
    if (!value.is_array()) bad(file_, where, "expected a list, found " + json_kind(value));
    if (size >= 0 && static_cast<long>(value.size()) != size) {
      bad(file_, where,
          std::to_string(value.size()) + " " + of + ", expected " + std::to_string(size));
    }
    return value;
  }
  std::vector<std::string> texts(const json& value, const std::string& where) const {
    std::vector<std::string> out;
    for (size_t k = 0; k < list(value, where).size(); ++k) {
      out.push_back(text(value[k], where + "/" + std::to_string(k)));
    }
    return out;
  }
  Eigen::VectorXd numbers(const json& value, const std::string& where, long size) const {
    list(value, where, size, "numbers");
    Eigen::VectorXd out(size);
    for (long k = 0; k < size; ++k) out[k] = number(value[k], where + "/" + std::to_string(k));
    return out;
  }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

PartialFitKey read_partial_fit_key(const PartialFitReader& in, const json& doc) {
  PartialFitKey key;
  key.robot = in.text(in.member(doc, "", "robot"), "/robot");
  key.model_hash = in.text(in.member(doc, "", "model_hash"), "/model_hash");
  key.prior_hash = in.text(in.member(doc, "", "prior_hash"), "/prior_hash");
  key.friction = in.texts(in.member(doc, "", "friction"), "/friction");
  const json& armature = in.member(doc, "", "armature");
  if (!armature.is_boolean()) bad(in.file(), "/armature", "expected true or false");
  key.armature = armature.get<bool>();
  key.friction_smoothing =
      in.number(in.member(doc, "", "friction_smoothing"), "/friction_smoothing");
  key.gravity = in.numbers(in.member(doc, "", "gravity"), "/gravity", 3);
  key.locked = in.texts(in.member(doc, "", "locked"), "/locked");
  // written only by a run with contacts: a file without it has none
  if (doc.contains("contacts")) key.contacts = in.texts(doc["contacts"], "/contacts");
  key.joints = in.texts(in.member(doc, "", "joints"), "/joints");
  key.parameters = in.texts(in.member(doc, "", "parameters"), "/parameters");
  key.base = in.texts(in.member(doc, "", "base"), "/base");
  return key;
}

// group g's factor [R, Q^T tau; 0, rho] from its entry of "factors"
Eigen::MatrixXd read_partial_factor(const PartialFitReader& in, const json& entry,
                                    const std::string& where, const std::string& joint, int r) {
  if (!entry.is_object()) bad(in.file(), where, "expected an object, found " + json_kind(entry));
  in.only(entry, where, {"joint", "R", "qt_tau", "residual"});
  const std::string name = in.text(in.member(entry, where, "joint"), where + "/joint");
  if (name != joint) {
    bad(in.file(), where + "/joint",
        quote_input(name) + ", expected " + quote_input(joint) + " (the joints' order)");
  }
  const json& R = in.list(in.member(entry, where, "R"), where + "/R", r, "rows");
  // row i of the upper triangle: its entries from the diagonal on (all read before T is made:
  // only numbers the file holds are allocated)
  std::vector<Eigen::VectorXd> rows;
  for (int i = 0; i < r; ++i)
    rows.push_back(in.numbers(R[i], where + "/R/" + std::to_string(i), r - i));
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(r + 1, r + 1);
  for (int i = 0; i < r; ++i) T.row(i).segment(i, r - i) = rows[i].transpose();
  T.col(r).head(r) = in.numbers(in.member(entry, where, "qt_tau"), where + "/qt_tau", r);
  T(r, r) = in.number(in.member(entry, where, "residual"), where + "/residual");
  return T;
}

std::string joined_names(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ",") + w;
  return out.empty() ? "none" : out;
}

std::string gravity_text(const Vec3& v) {
  return shortest_text(v.x()) + "," + shortest_text(v.y()) + "," + shortest_text(v.z());
}

}  // namespace

PartialFitKey partial_fit_key(const Model& model, const DriveParameters& drive,
                              const BaseParameters& base, const ContactSet& contacts,
                              int equations) {
  PartialFitKey key;
  key.robot = model.name;
  key.model_hash = model_hash(model, contacts);
  key.prior_hash = prior_hash(model);
  if (drive.viscous) key.friction.push_back("viscous");
  if (drive.coulomb) key.friction.push_back("coulomb");
  if (drive.offset) key.friction.push_back("offset");
  key.armature = drive.armature;
  key.friction_smoothing = drive.smoothing;
  key.gravity = model.gravity;
  for (const LockedJoint& lock : model.locked) {
    std::string q;
    for (Eigen::Index k = 0; k < lock.q.size(); ++k) {
      q += (k ? "," : "") + shortest_text(lock.q[k]);
    }
    key.locked.push_back(lock.name + "=" + q);
  }
  for (const Contact& contact : contacts.contacts) {
    key.contacts.push_back(contact_text(model, contact));
  }
  key.joints.assign(model.tau_names.begin(),
                    model.tau_names.begin() + (equations > 0 ? equations : model.nv));
  key.parameters = regressor_parameter_names(model, drive);
  for (const int c : base.independent) key.base.push_back(key.parameters[c]);
  return key;
}

std::string partial_fit_text(const PartialFitKey& key, const std::vector<std::string>& logs,
                             const StreamingLeastSquares& fit) {
  const int r = fit.unknowns();
  std::string out = "{\n";
  const auto field = [&](const char* name, const std::string& value) {
    out += "  \"" + std::string(name) + "\": " + value + ",\n";
  };
  field("format", json_text(kPartialFitFormat));
  field("version", json_text(kPartialFitVersion));
  field("robot", json_text(key.robot));
  field("model_hash", json_text(key.model_hash));
  field("prior_hash", json_text(key.prior_hash));
  field("friction", json_text(key.friction));
  field("armature", json_text(key.armature));
  field("friction_smoothing", json_text(key.friction_smoothing));
  field("gravity",
        json_text(std::vector<double>{key.gravity.x(), key.gravity.y(), key.gravity.z()}));
  field("locked", json_text(key.locked));
  if (!key.contacts.empty()) field("contacts", json_text(key.contacts));
  field("logs", json_text(logs));
  field("rows", json_text(fit.rows()));
  field("joints", json_text(key.joints));
  field("parameters", json_text(key.parameters));
  field("base", json_text(key.base));
  out += "  \"factors\": [";
  for (int g = 0; g < fit.groups(); ++g) {
    const Eigen::MatrixXd& T = fit.factor(g);
    out += std::string(g ? "," : "") + "\n    {\"joint\": " + json_text(key.joints[g]) +
           ",\n     \"residual\": " + json_text(T(r, r)) + ",\n     \"qt_tau\": ";
    std::vector<double> row(T.col(r).data(), T.col(r).data() + r);
    out += json_text(row) + ",\n     \"R\": [";
    for (int i = 0; i < r; ++i) {
      row.assign(r - i, 0.0);
      for (int c = i; c < r; ++c) row[c - i] = T(i, c);
      out += std::string(i ? "," : "") + "\n      " + json_text(row);
    }
    out += "]}";
  }
  out += "\n  ]\n}\n";
  return out;
}

PartialFit parse_partial_fit(const std::string& text, const std::string& file) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{') {
    const size_t end = text.find('\n', first == std::string::npos ? 0 : first);
    const std::string found =
        first == std::string::npos ? "nothing" : quote_input(text.substr(first, end - first));
    throw InputError(
        file, 1, 1,
        "expected a partial fit of eom identify (a JSON object with \"format\": \"" +
            std::string(kPartialFitFormat) + "\"), found " + found +
            (first == std::string::npos ? "" : ": a log? logs are read, only partial fits merged"));
  }
  const json doc = detail::parse_json_document(text, file);
  const PartialFitReader in(file);
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != kPartialFitFormat) {
    bad(file, "/format",
        "expected \"" + std::string(kPartialFitFormat) + "\": not a partial fit of eom identify");
  }
  const json& version = in.member(doc, "", "version");
  if (!version.is_number_integer() || version.get<long>() != kPartialFitVersion) {
    bad(file, "/version",
        version.dump() + ", expected " + std::to_string(kPartialFitVersion) +
            " (the version this eom reads: a newer eom wrote it?)");
  }
  in.only(doc, "",
          {"format", "version", "robot", "model_hash", "prior_hash", "friction", "armature",
           "friction_smoothing", "gravity", "locked", "contacts", "logs", "rows", "joints",
           "parameters", "base", "factors"});
  PartialFitKey key = read_partial_fit_key(in, doc);
  std::vector<std::string> logs = in.texts(in.member(doc, "", "logs"), "/logs");
  const json& rows = in.member(doc, "", "rows");
  if (!rows.is_number_integer() || rows.get<long long>() < 0) {
    bad(file, "/rows", "expected a row count (an integer, 0 or more), found " + rows.dump());
  }
  const int groups = static_cast<int>(key.joints.size());
  const int r = static_cast<int>(key.base.size());
  const json& factors =
      in.list(in.member(doc, "", "factors"), "/factors", groups, "factors (one per joint)");
  // each factor read (its sizes checked) before the fit is made: a file that claims more
  // parameters than it holds numbers for is refused before anything that size is allocated
  std::vector<Eigen::MatrixXd> read;
  for (int g = 0; g < groups; ++g) {
    read.push_back(
        read_partial_factor(in, factors[g], "/factors/" + std::to_string(g), key.joints[g], r));
  }
  StreamingLeastSquares fit(groups, r);
  for (int g = 0; g < groups; ++g) fit.set_factor(g, read[g], rows.get<long>());
  return PartialFit{std::move(key), std::move(logs), std::move(fit)};
}

PartialFit read_partial_fit(const std::string& path) {
  return parse_partial_fit(
      detail::read_whole_file(path, detail::kMaxModelFileBytes, "a partial fit"), path);
}

bool looks_like_partial_fit(const std::string& path) {
  if (path == "-") return false;
  std::ifstream in(path, std::ios::binary);
  char start[256] = {};
  in.read(start, sizeof start - 1);
  const std::string head(start, static_cast<size_t>(in.gcount()));
  const size_t first = head.find_first_not_of(" \t\r\n");
  return first != std::string::npos && head[first] == '{' &&
         head.find("\"" + std::string(kPartialFitFormat) + "\"") != std::string::npos;
}

void check_partial_fit_key(const PartialFitKey& run, const PartialFitKey& partial,
                           const std::string& file) {
  const auto differs = [&](const Phrase& what, const std::string& there, const std::string& here) {
    throw InputError(file, 0, 0,
                     "a partial fit made with " + what + " " + there + ", this run with " + here +
                         ": partial fits merge only with the robot and settings they were made "
                         "with");
  };
  if (partial.robot != run.robot) {
    differs("the robot", quote_input(partial.robot), quote_input(run.robot));
  }
  if (partial.friction != run.friction) {
    differs("the friction columns", joined_names(partial.friction), joined_names(run.friction));
  }
  if (partial.armature != run.armature) {
    differs("armature columns", partial.armature ? "on" : "off", run.armature ? "on" : "off");
  }
  if (partial.friction_smoothing != run.friction_smoothing) {
    differs("the Coulomb friction smoothing", shortest_text(partial.friction_smoothing),
            shortest_text(run.friction_smoothing));
  }
  if (partial.gravity != run.gravity) {
    differs(Phrase("") + Setting::gravity, gravity_text(partial.gravity),
            gravity_text(run.gravity));
  }
  if (partial.locked != run.locked) {
    differs("the joints locked (" + Phrase("") + Setting::lock + ")", joined_names(partial.locked),
            joined_names(run.locked));
  }
  if (partial.contacts != run.contacts) {
    differs("the contacts (" + Phrase("") + Setting::contacts + ")", joined_names(partial.contacts),
            joined_names(run.contacts));
  }
  if (partial.joints.size() != run.joints.size()) {
    const auto coordinates = [](size_t n) {
      return std::to_string(n) + (n == 1 ? " coordinate" : " coordinates");
    };
    differs("the equations of", coordinates(partial.joints.size()),
            coordinates(run.joints.size()) +
                " (a floating base's logs without tau.<joint> give its six alone)");
  }
  if (partial.model_hash != run.model_hash) {
    differs(
        "another model of " + quote_input(run.robot) +
            " (its joints, their placements or axes, or the contacts' frames differ): model hash",
        partial.model_hash, run.model_hash);
  }
  if (partial.prior_hash != run.prior_hash) {
    differs(
        "other inertial, friction or armature values in the robot file (the prior the fit "
        "keeps where the torques cannot tell): prior hash",
        partial.prior_hash, run.prior_hash);
  }
  if (partial.joints != run.joints || partial.parameters != run.parameters ||
      partial.base != run.base) {
    differs("other parameters (made by another version of eom?):",
            std::to_string(partial.base.size()) + " base parameters of " +
                std::to_string(partial.parameters.size()),
            std::to_string(run.base.size()) + " of " + std::to_string(run.parameters.size()));
  }
}

void combine_fit(std::optional<StreamingLeastSquares>& total, StreamingLeastSquares&& part) {
  if (!total) {
    total.emplace(std::move(part));
  } else {
    total->merge(part);
  }
}

}  // namespace eom
