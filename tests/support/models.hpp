// The models the property tests run on: every shipped robot and every reference robot, fixed
// base and (when the root body has mass) floating base, and the MJCF models with ball joints (one
// floating by its <freejoint>), with a seed each.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <eom/parsers/json_model.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"

namespace eom::test {

struct TestModel {
  std::string name;
  std::string path;
  bool floating_base = false;  // --floating-base (an MJCF model floats by its own <freejoint>)
  unsigned seed = 0;
  Model load() const {
    LoadOptions options;
    options.floating_base = floating_base;
    return load_model(path, options);
  }
};

/// A URDF of tests/data/urdf with a free-flyer at its root.
inline Model load_floating_test_urdf(const std::string& file) {
  LoadOptions options;
  options.floating_base = true;
  return load_urdf(kDataDir + "/urdf/" + file, options);
}

inline std::vector<TestModel> test_models() {
  std::vector<std::string> paths;
  for (const auto& dir : {kRobotsDir, kDataDir + "/robots"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == ".urdf") paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  std::vector<TestModel> out;
  unsigned seed = 1;
  for (const auto& p : paths) {
    const std::string name = std::filesystem::path(p).stem().string();
    out.push_back({name, p, false, seed++});
    // a floating base needs a base with mass, else M is singular (eom check warns about it)
    if (out.back().load().inertia[0].m > 0) out.push_back({name + " (floating)", p, true, seed++});
  }
  for (const char* mjcf : {"ball_chain", "ball_free"}) {
    out.push_back({mjcf, kDataDir + "/mjcf/" + mjcf + ".xml", false, seed++});
  }
  return out;
}

}  // namespace eom::test
