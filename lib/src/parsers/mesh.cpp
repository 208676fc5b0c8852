#include "parsers/mesh.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cctype>
#include <string_view>
#include <filesystem>
#include <map>
#include <utility>

#include <Eigen/Eigenvalues>

#include "eom/core/errors.hpp"
#include "eom/parsers/urdf.hpp"
#include "core/tolerances.hpp"

namespace eom::detail {
namespace {

[[noreturn]] void fail(const std::string& path, int line, const std::string& message) {
  throw InputError(quote_input(path) + (line > 0 ? " line " + std::to_string(line) : "") + ": " +
                   message);
}

void add(std::vector<Triangle>& out, const Triangle& t, const std::string& path) {
  if (out.size() >= kMaxMeshTriangles) {
    fail(path, 0, "more than " + std::to_string(kMaxMeshTriangles) + " triangles");
  }
  out.push_back(t);
}

// The lines of a text file, one at a time, with their numbers, split into blank-separated words
class Lines {
 public:
  explicit Lines(const std::string& text) : text_(text) {}
  bool next() {
    if (pos_ >= text_.size()) return false;
    const size_t end = std::min(text_.find('\n', pos_), text_.size());
    words_.clear();
    size_t p = pos_;
    while (p < end) {
      while (p < end && std::isspace(static_cast<unsigned char>(text_[p]))) ++p;
      const size_t start = p;
      while (p < end && !std::isspace(static_cast<unsigned char>(text_[p]))) ++p;
      if (p > start) words_.emplace_back(text_.data() + start, p - start);
    }
    pos_ = end + 1;
    ++line_;
    return true;
  }
  const std::vector<std::string_view>& words() const { return words_; }
  int line() const { return line_; }

 private:
  const std::string& text_;
  size_t pos_ = 0;
  int line_ = 0;
  std::vector<std::string_view> words_;
};

double number(std::string_view word, const std::string& path, int line) {
  if (!word.empty() && word[0] == '+') word.remove_prefix(1);
  double x = 0;
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), x);
  if (ec != std::errc() || ptr != word.data() + word.size() || !std::isfinite(x)) {
    fail(path, line, quote_input(word) + " is not a number");
  }
  return x;
}

Vec3 point(const std::vector<std::string_view>& words, size_t first, const std::string& path,
           int line) {
  if (words.size() < first + 3) fail(path, line, "expected 3 coordinates");
  return {number(words[first], path, line), number(words[first + 1], path, line),
          number(words[first + 2], path, line)};
}

std::vector<Triangle> binary_stl(const std::string& bytes, const std::string& path) {
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + 80, 4);  // little-endian, as on every platform eom runs on
  std::vector<Triangle> out;
  if (count > kMaxMeshTriangles) {
    fail(path, 0, "more than " + std::to_string(kMaxMeshTriangles) + " triangles");
  }
  out.reserve(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    // 12 floats (normal, then 3 vertices) and a 2-byte attribute per triangle
    float f[12];
    std::memcpy(f, bytes.data() + 84 + 50 * size_t(k), sizeof f);
    Vec3 v[3];
    for (int j = 0; j < 3; ++j) {
      v[j] = Vec3(f[3 + 3 * j], f[4 + 3 * j], f[5 + 3 * j]);
      if (!v[j].allFinite()) {
        fail(path, 0, "triangle " + std::to_string(k + 1) + " has a coordinate that is not finite");
      }
    }
    add(out, Triangle{v[0], v[1], v[2]}, path);
  }
  return out;
}

// solid ... facet normal n n n / outer loop / vertex x y z (three or more) / endloop / endfacet
std::vector<Triangle> ascii_stl(const std::string& text, const std::string& path) {
  std::vector<Triangle> out;
  std::vector<Vec3> loop;
  bool in_loop = false, ended = false;
  Lines lines(text);
  while (lines.next()) {
    const auto& w = lines.words();
    if (w.empty()) continue;
    const int line = lines.line();
    if (ended) fail(path, line, "text after 'endsolid'");
    if (w[0] == "solid" || w[0] == "facet" || w[0] == "endfacet") continue;
    if (w[0] == "outer") {
      if (in_loop) fail(path, line, "'outer loop' inside a loop");
      in_loop = true;
      loop.clear();
    } else if (w[0] == "vertex") {
      if (!in_loop) fail(path, line, "'vertex' outside an 'outer loop'");
      if (w.size() != 4) fail(path, line, "expected 'vertex x y z'");
      loop.push_back(point(w, 1, path, line));
    } else if (w[0] == "endloop") {
      if (!in_loop) fail(path, line, "'endloop' without 'outer loop'");
      if (loop.size() < 3) fail(path, line, "a facet needs 3 vertices");
      for (size_t k = 1; k + 1 < loop.size(); ++k) {
        add(out, Triangle{loop[0], loop[k], loop[k + 1]}, path);
      }
      in_loop = false;
    } else if (w[0] == "endsolid") {
      ended = true;
    } else {
      fail(path, line, "unknown keyword " + quote_input(w[0]) + " in an ASCII STL file");
    }
  }
  if (in_loop) fail(path, lines.line(), "the file ends inside a facet");
  if (!ended) fail(path, lines.line(), "the file ends without 'endsolid'");
  return out;
}

// A vertex reference of an OBJ face ("7", "7/2", "7//3", "-1"): 1-based, or negative from the
// last vertex read
long obj_index(std::string_view word, size_t read, const std::string& path, int line) {
  const std::string_view digits = word.substr(0, word.find('/'));
  long k = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
  if (ec != std::errc() || ptr != digits.data() + digits.size() || k == 0) {
    fail(path, line, quote_input(word) + " is not a vertex index");
  }
  if (k < 0) {
    if (size_t(-k) > read) fail(path, line, quote_input(word) + ": no such vertex");
    return long(read) + k;
  }
  return k - 1;
}

std::vector<Triangle> obj(const std::string& text, const std::string& path) {
  std::vector<Vec3> vertices;
  struct Face {
    std::vector<long> index;
    int line;
  };
  std::vector<Face> faces;
  size_t corners = 0;
  int group_after_faces = 0;  // line of an 'o' or 'g' that follows faces
  Lines lines(text);
  while (lines.next()) {
    const auto& w = lines.words();
    if (w.empty() || w[0][0] == '#') continue;
    const int line = lines.line();
    if (w[0] == "v") {
      if (vertices.size() >= 3 * kMaxMeshTriangles) fail(path, line, "too many vertices");
      vertices.push_back(point(w, 1, path, line));
    } else if (w[0] == "f") {
      if (w.size() < 4) fail(path, line, "a face needs 3 vertices");
      if (group_after_faces) {
        // MuJoCo 2.2 reads the first object of an OBJ file only
        fail(path, group_after_faces,
             "a second object or group with faces: MuJoCo reads the first one only; give each "
             "its own file");
      }
      corners += w.size() - 1;
      if (corners > 3 * kMaxMeshTriangles) {
        fail(path, line, "more than " + std::to_string(kMaxMeshTriangles) + " triangles");
      }
      Face face{{}, line};
      for (size_t k = 1; k < w.size(); ++k) {
        face.index.push_back(obj_index(w[k], vertices.size(), path, line));
      }
      faces.push_back(std::move(face));
    } else if ((w[0] == "o" || w[0] == "g") && !faces.empty()) {
      if (!group_after_faces) group_after_faces = line;
    }
    // vn, vt, s, usemtl, mtllib, l, p, ...: no part of the solid
  }
  std::vector<Triangle> out;
  for (const Face& f : faces) {
    for (const long k : f.index) {
      if (k >= long(vertices.size())) {
        fail(path, f.line,
             "vertex " + std::to_string(k + 1) + " does not exist (" +
                 std::to_string(vertices.size()) + " vertices)");
      }
    }
    // polygons as fans from their first vertex (MuJoCo splits a quad so)
    for (size_t k = 1; k + 1 < f.index.size(); ++k) {
      add(out, Triangle{vertices[f.index[0]], vertices[f.index[k]], vertices[f.index[k + 1]]},
          path);
    }
  }
  return out;
}

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// The second moments sum_t v_t/20 (2 sum a_j a_k + cross terms) of the tetrahedra from the origin
// (v_t their volumes, signed or not), as an inertia tensor per unit density
Mat3 inertia_tensor(const std::vector<Triangle>& triangles, const Vec3& origin, bool signed_volumes,
                    double& volume) {
  Mat3 second = Mat3::Zero();  // sum of v x x^T over the solid
  volume = 0;
  for (const Triangle& t : triangles) {
    const Vec3 a = t[0] - origin, b = t[1] - origin, c = t[2] - origin;
    double v = a.dot(b.cross(c)) / 6;
    if (!signed_volumes) v = std::abs(v);
    volume += v;
    const Vec3 s = a + b + c;
    // int x x^T over a tetrahedron with a vertex at the origin: v/20 (a a^T + b b^T + c c^T +
    // s s^T)
    second.noalias() +=
        v / 20 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  return second.trace() * Mat3::Identity() - second;
}

void check_rigid(const Vec3& e) {
  if (e.minCoeff() <= 0 || e[0] + e[1] < e[2] || e[0] + e[2] < e[1] || e[1] + e[2] < e[0]) {
    throw InputError("its inertia is no rigid body's (the mesh is flat, or not a closed surface)");
  }
}

}  // namespace

std::vector<Triangle> read_mesh(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext != ".stl" && ext != ".obj") {
    fail(path, 0,
         "eom reads STL and OBJ meshes (by extension, as MuJoCo), not " +
             (ext.empty() ? std::string("a file without extension") : quote_input(ext)));
  }
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxMeshFileBytes) {
    fail(path, 0, "larger than " + std::to_string(kMaxMeshFileBytes >> 20) + " MiB");
  }
  std::string bytes;
  try {
    bytes = read_robot_file(path);
  } catch (const InputError& e) {
    fail(path, 0, e.message());
  }
  std::vector<Triangle> out;
  if (ext == ".stl") {
    // binary: an 80-byte header, the count, 50 bytes per triangle; ASCII starts with "solid"
    std::uint32_t count = 0;
    if (bytes.size() >= 84) std::memcpy(&count, bytes.data() + 80, 4);
    if (bytes.size() >= 84 && bytes.size() == 84 + 50 * std::uintmax_t(count)) {
      out = binary_stl(bytes, path);
    } else if (bytes.compare(bytes.find_first_not_of(" \t\r\n") == std::string::npos
                                 ? 0
                                 : bytes.find_first_not_of(" \t\r\n"),
                             5, "solid") == 0) {
      out = ascii_stl(bytes, path);
    } else if (bytes.size() >= 84) {
      fail(path, 0,
           "a truncated or corrupt binary STL: its header says " + std::to_string(count) +
               " triangles, 84 + 50 * " + std::to_string(count) + " bytes, the file has " +
               std::to_string(bytes.size()));
    } else {
      fail(path, 0, "too short for a binary STL (84 bytes of header) and not an ASCII one");
    }
  } else {
    out = obj(bytes, path);
  }
  if (out.empty()) fail(path, 0, "no triangles");
  return out;
}

size_t open_edges(const std::vector<Triangle>& triangles) {
  // each undirected edge, its directions summed (+1 one way, -1 the other): 0 when closed
  using Key = std::array<double, 3>;
  std::map<std::pair<Key, Key>, int> edges;
  const auto key = [](const Vec3& v) { return Key{v[0], v[1], v[2]}; };
  for (const Triangle& t : triangles) {
    for (int j = 0; j < 3; ++j) {
      const Key p = key(t[j]), q = key(t[(j + 1) % 3]);
      if (p < q) {
        ++edges[{p, q}];
      } else {
        --edges[{q, p}];
      }
    }
  }
  return static_cast<size_t>(
      std::count_if(edges.begin(), edges.end(), [](const auto& e) { return e.second != 0; }));
}

MeshInertia mesh_inertia(const std::vector<Triangle>& triangles, bool exact) {
  MeshInertia out;
  double area = 0;
  Vec3 surface_centroid = Vec3::Zero();
  for (const Triangle& t : triangles) {
    const double a = (t[1] - t[0]).cross(t[2] - t[0]).norm() / 2;
    area += a;
    surface_centroid += a * (t[0] + t[1] + t[2]) / 3;
  }
  if (!(area > kZeroMeshMeasure)) throw InputError("the mesh has no area");
  surface_centroid /= area;
  // the centre of mass: of the tetrahedra from the origin with signed volumes (exact), or of the
  // pyramids from the surface centroid with unsigned volumes (MuJoCo 2.2's legacy rule), each
  // tetrahedron's at the mean of its four vertices
  const Vec3 apex = exact ? Vec3::Zero() : surface_centroid;
  double volume = 0, negative = 0;
  Vec3 moment = Vec3::Zero();
  for (const Triangle& t : triangles) {
    double v = (t[0] - apex).dot((t[1] - apex).cross(t[2] - apex)) / 6;
    if (v < 0) negative -= v;
    if (!exact) v = std::abs(v);
    volume += v;
    moment += v * (t[0] + t[1] + t[2] + apex) / 4;
  }
  if (!(volume > kZeroMeshMeasure)) {
    throw InputError("the mesh encloses no volume (is it closed, its faces outward?)");
  }
  out.com = moment / volume;
  // (exact: the signs were the origin's, and the question moot)
  out.star_shaped = exact || negative <= kMeshVolumeRoundOff * volume;
  // the inertia about the centre of mass, from tetrahedra with their apex there
  const Mat3 I = inertia_tensor(triangles, out.com, exact, volume);
  if (!(volume > kZeroMeshMeasure)) throw InputError("the mesh encloses no volume");
  const Vec3 e = Eigen::SelfAdjointEigenSolver<Mat3>(I, Eigen::EigenvaluesOnly).eigenvalues();
  check_rigid(e);
  out.inertia_per_mass = I / volume;
  out.volume = volume;
  if (!exact) {
    // legacy: the mass is that of the box of the same principal moments per unit mass, half
    // sides b_i = sqrt(6 (e_j + e_k - e_i) / volume) / 2
    double box = 8;
    for (int i = 0; i < 3; ++i) box *= std::sqrt(6 * (e.sum() - 2 * e[i]) / volume) / 2;
    out.volume = box;
  }
  return out;
}

}  // namespace eom::detail
