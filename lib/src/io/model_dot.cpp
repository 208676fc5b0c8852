#include "eom/core/number_text.hpp"
#include "eom/io/model_dot.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "eom/io/table.hpp"

namespace eom {
namespace {

// a DOT string: quoted, with quotes and backslashes escaped and line breaks as \n
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

}  // namespace

void write_dot(const Model& model, std::ostream& out) {
  // the link each moving joint moves, and the link of each joint's body
  std::vector<std::string> body_link(model.njoints, "world");
  std::map<std::string, int> moved_by;  // child link -> joint
  for (int i = 1; i < model.njoints; ++i) {
    body_link[i] = model.info[i].child_link;
    moved_by[body_link[i]] = i;
  }
  out << "digraph " << quoted(model.name) << " {\n"
      << "  rankdir=TB;\n"
      << "  node [shape=box, fontname=\"Helvetica\"];\n"
      << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (const Frame& f : model.frames) {
    std::string label = f.name;
    if (const auto it = moved_by.find(f.name); it != moved_by.end()) {
      // a label for the eye, as eom check's total mass: 6 digits, not the 17 of round-off
      label += "\n" + number_text(model.inertia[it->second].m, 6) + " kg";
    }
    out << "  " << quoted(f.name) << " [label=" << quoted(label)
        << (f.name == "world" ? ", shape=ellipse" : "") << "];\n";
  }
  for (int i = 1; i < model.njoints; ++i) {
    const JointInfo& info = model.info[i];
    const Joint& joint = model.joints[i];
    std::string label = model.joint_names[i] + "\n" + model.joint_type_name(i);
    if (joint.nv == 1) {
      label += "\naxis";
      for (int k = 0; k < 3; ++k) {
        label += ' ';
        append_number(label, joint.axis[k]);
      }
    }
    const std::string parent = info.parent_link.empty() ? "world" : info.parent_link;
    out << "  " << quoted(parent) << " -> " << quoted(info.child_link)
        << " [label=" << quoted(label) << "];\n";
  }
  for (const Frame& f : model.frames) {
    // a fixed link hangs from the link it is welded to in the file, else from its body's link
    const std::string& from = f.attached_to.empty() ? body_link[f.parent] : f.attached_to;
    if (f.name == "world" || f.name == from) continue;
    out << "  " << quoted(from) << " -> " << quoted(f.name)
        << " [label=\"fixed\", style=dashed];\n";
  }
  out << "}\n";
}

}  // namespace eom
