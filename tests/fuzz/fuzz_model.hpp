// The model of the fuzz targets that need one: a planar two-link arm built in the process (a
// fuzz target reads nothing but its input), with limits, effort limits, damping and friction.
#pragma once

#include <eom/multibody/model.hpp>
#include <eom/parsers/urdf.hpp>

inline const eom::Model& fuzz_model() {
  static const eom::Model model = [] {
    const char* const text = R"(<robot name="fuzz_arm">
  <link name="base"/>
  <link name="upper"><inertial><mass value="1"/><origin xyz="0.5 0 0"/>
    <inertia ixx="0.01" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="fore"><inertial><mass value="0.5"/><origin xyz="0.25 0 0"/>
    <inertia ixx="0.005" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="joint1" type="revolute"><parent link="base"/><child link="upper"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="50" velocity="5"/>
    <dynamics damping="0.1" friction="0.2"/></joint>
  <joint name="joint2" type="continuous"><parent link="upper"/><child link="fore"/>
    <origin xyz="1 0 0"/><axis xyz="0 0 1"/><dynamics damping="0.05"/></joint>
</robot>)";
    return eom::build_model(eom::parse_urdf(text, "<fuzz arm>"), eom::LoadOptions{});
  }();
  return model;
}
