// The formats are told apart by their first characters, not by the file's extension: a JSON
// model opens with '{', MJCF with a <mujoco> root, and anything else is read as URDF (whose
// parser then says what is wrong with it).

#include "eom/parsers/load_model.hpp"

#include "eom/parsers/json_model.hpp"
#include "eom/parsers/mjcf.hpp"

namespace eom {

Model load_model(const std::string& path, const LoadOptions& options,
                 std::vector<Diagnostic>* warnings) {
  const std::string text = read_robot_file(path);
  const std::string file = path == "-" ? "<stdin>" : path;
  if (is_json_model(text)) return build_json_model(text, file, options, warnings);
  if (is_mjcf(text)) return build_mjcf_model(text, file, options, warnings);
  return build_model(parse_urdf(text, file), options, warnings);
}

}  // namespace eom
