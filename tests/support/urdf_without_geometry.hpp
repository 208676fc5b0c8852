// A URDF for another engine's importer: without its visual and collision elements, whose meshes
// are not in the repository and play no part in the dynamics. Shared by the MuJoCo tests
// (tests/mujoco) and bench/bench_engines.cpp.
#pragma once

#include <string>

#include <tinyxml2.h>

namespace eom::test {

/// Writes the URDF `urdf` to `out` without its visual and collision elements, for MuJoCo to import
/// (their meshes are not in the repository, and neither plays a part in the dynamics). False if
/// either file cannot be read or written.
inline bool write_urdf_without_geometry(const std::string& urdf, const std::string& out) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(urdf.c_str()) != tinyxml2::XML_SUCCESS || !doc.RootElement()) return false;
  for (tinyxml2::XMLElement* link = doc.RootElement()->FirstChildElement("link"); link;
       link = link->NextSiblingElement("link")) {
    for (const char* tag : {"visual", "collision"}) {
      while (tinyxml2::XMLElement* e = link->FirstChildElement(tag)) link->DeleteChild(e);
    }
  }
  return doc.SaveFile(out.c_str()) == tinyxml2::XML_SUCCESS;
}

}  // namespace eom::test
