// eom plot's images read back: the SVG parsed with tinyxml2 (curves, legend and axis labels,
// limit lines, marks of rows beyond a limit, shaded intervals, contact lanes), PNG and PDF by
// signature and structure, byte-identical reruns, a pipe, and a million rows under a memory
// limit whose one spike must reach the top of its panel. Expected counts come from the fixtures
// (tests/data/plot), written by hand.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "paths.hpp"
#include "scratch.hpp"

namespace {

const std::string kData = "tests/data/plot/";

struct Result {
  int status = -1;
  std::string err;
};

// eom (paths relative to the source tree) with `args`; `prefix` runs before it in the same shell
Result run(const std::string& args, const std::string& prefix = "") {
  const std::string err = eom::test::scratch_path("stderr");
  const std::string command = "cd '" + eom::test::kSourceDir + "' && " + prefix +
                              "'" EOM_BINARY "' " + args + " 2> '" + err + "'";
  INFO(command);
  // through a script: pipes and subshells as written, no second level of quoting
  const std::string script = eom::test::scratch_path("command.sh");
  std::ofstream(script) << "set -o pipefail\n" << command << '\n';
  const int status = std::system(("bash '" + script + "'").c_str());
  std::ifstream in(err);
  return {WEXITSTATUS(status), std::string(std::istreambuf_iterator<char>(in), {})};
}

std::string bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Point {
  double x, y;
};

// What an SVG of PLplot's svg driver holds: stroked polylines, filled polygons, texts
struct Svg {
  struct Line {
    std::string colour;
    std::vector<Point> points;
  };
  std::vector<Line> lines, fills;
  std::vector<std::string> texts;

  // curves: chains of polylines in a colour other than the axes' black, each starting where the
  // previous one ended (PLplot cuts long lines into pieces of at most 256 points), of more than
  // two points in all (a dash or a legend sample has two)
  std::vector<Line> chains() const {
    std::vector<Line> out;
    bool joined = false;
    for (const auto& l : lines) {
      if (l.colour == "#000000" || l.points.empty()) continue;
      joined = !out.empty() && out.back().colour == l.colour &&
               out.back().points.back().x == l.points.front().x &&
               out.back().points.back().y == l.points.front().y;
      if (joined) {
        out.back().points.insert(out.back().points.end(), l.points.begin() + 1, l.points.end());
      } else {
        out.push_back(l);
      }
    }
    out.erase(
        std::remove_if(out.begin(), out.end(), [](const Line& l) { return l.points.size() <= 2; }),
        out.end());
    return out;
  }
  int curves() const { return static_cast<int>(chains().size()); }
  // dashed horizontal lines: many two-point segments at one height, in one colour
  int dashed_lines() const {
    std::map<std::pair<std::string, long>, int> segments;
    for (const auto& l : lines) {
      if (l.points.size() == 2 && l.points[0].y == l.points[1].y && l.colour != "#000000") {
        ++segments[{l.colour, static_cast<long>(l.points[0].y * 100)}];
      }
    }
    return static_cast<int>(std::count_if(segments.begin(), segments.end(),
                                          [](const auto& s) { return s.second >= 5; }));
  }
  int count_text(const std::string& text) const {
    return static_cast<int>(std::count(texts.begin(), texts.end(), text));
  }
  bool has_text(const std::string& text) const { return count_text(text) > 0; }
  int fills_of(const std::string& colour) const {
    return static_cast<int>(std::count_if(fills.begin(), fills.end(),
                                          [&](const Line& l) { return l.colour == colour; }));
  }
};

std::vector<Point> parse_points(const char* text) {
  std::vector<Point> out;
  std::istringstream in(text ? text : "");
  std::string pair;
  while (in >> pair) {
    const size_t comma = pair.find(',');
    out.push_back({std::stod(pair.substr(0, comma)), std::stod(pair.substr(comma + 1))});
  }
  return out;
}

std::string attribute(const tinyxml2::XMLElement* e, const char* name) {
  const char* value = e->Attribute(name);
  return value ? value : "";
}

// PLplot's svg driver writes lines as <polyline stroke=...> and fills as <polyline stroke="none"
// fill=...>
void collect(const tinyxml2::XMLElement* e, Svg& svg) {
  for (; e; e = e->NextSiblingElement()) {
    const std::string name = e->Name();
    if (name == "polyline") {
      const std::string stroke = attribute(e, "stroke");
      auto& into = stroke == "none" ? svg.fills : svg.lines;
      into.push_back(
          {stroke == "none" ? attribute(e, "fill") : stroke, parse_points(e->Attribute("points"))});
    } else if (name == "text") {
      std::string text;
      for (auto* span = e->FirstChildElement("tspan"); span; span = span->NextSiblingElement()) {
        if (span->GetText()) text += span->GetText();
      }
      if (e->GetText()) text += e->GetText();
      svg.texts.push_back(text);
      continue;
    }
    collect(e->FirstChildElement(), svg);
  }
}

Svg read_svg(const std::string& path) {
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile(path.c_str()) == tinyxml2::XML_SUCCESS);
  Svg svg;
  collect(doc.RootElement(), svg);
  return svg;
}

// tab10 colours of the palette in plot_render.cpp: the first two curves, the shading, the lanes
const std::string kFirst = "#1F77B4", kSecond = "#FF7F0E", kShade = "#FDAE61", kLane = "#4682B4";

}  // namespace

TEST_CASE("plot: panels, curves, units and legend of one table", "[plot]") {
  const std::string out = eom::test::scratch_path("arm.svg");
  const Result r = run("plot " + kData + "arm.csv -o '" + out + "'");
  REQUIRE(r.status == 0);
  CHECK(r.err ==
        "eom plot: warning: " + kData + "arm.csv: column label holds no number: not plotted\n");
  const Svg svg = read_svg(out);
  CHECK(svg.curves() == 4);  // q and tau of two joints; the text column is not a curve
  CHECK(svg.has_text("q (rad)"));
  CHECK(svg.has_text("tau (N m)"));
  CHECK(svg.has_text("t (s)"));
  CHECK(svg.count_text("joint1") == 2);  // in the legends of both panels
  CHECK(svg.count_text("joint2") == 2);
  CHECK(!svg.has_text("label"));
  CHECK(svg.dashed_lines() == 0);
  CHECK(svg.count_text("×") == 0);
}

TEST_CASE("plot: limits of the robot dashed, rows beyond them marked", "[plot]") {
  const std::string out = eom::test::scratch_path("limits.svg");
  const Result r =
      run("plot " + kData + "arm.csv --robot robots/planar_2r.urdf --y 'tau.*' -o '" + out + "'");
  REQUIRE(r.status == 0);
  // tau.joint1 reaches 120 and -130 against an effort limit of 100 N m
  CHECK(
      r.err.find("column tau.joint1: 2 rows beyond the effort limit ±100 N m (first on line 4)") !=
      std::string::npos);
  const Svg svg = read_svg(out);
  CHECK(svg.curves() == 2);
  CHECK(svg.dashed_lines() == 4);  // ±100 for each joint, in its colour
  CHECK(svg.count_text("×") == 2);
  CHECK(svg.has_text("tau (N m)"));
}

TEST_CASE("plot: a jac output's rank-deficient rows shaded", "[plot]") {
  const std::string jac = eom::test::scratch_path("jac.csv"),
                    out = eom::test::scratch_path("jac.svg");
  REQUIRE(
      run("jac robots/ur5.urdf tests/data/jac/ur5_singular.csv --frame tool0 -q -o '" + jac + "'")
          .status == 0);
  const Result r = run("plot '" + jac + "' --y 'sigma.*' --y manipulability -o '" + out + "'");
  REQUIRE(r.status == 0);
  const Svg svg = read_svg(out);
  CHECK(svg.curves() == 7);  // six singular values and the manipulability
  // three singular rows (t = 1, 3, 5), shaded in both panels, and the legend's box
  CHECK(svg.fills_of(kShade) == 3 * 2 + 1);
  CHECK(svg.has_text("rank-deficient"));
  CHECK(svg.has_text("sigma"));
  // a threshold above every singular value shades the whole run as one interval
  const Result all = run("plot '" + jac + "' --y 'sigma.6' --threshold 100 -o '" + out + "'");
  REQUIRE(all.status == 0);
  CHECK(read_svg(out).fills_of(kShade) == 1 + 1);
}

TEST_CASE("plot: the contact schedule as a band", "[plot]") {
  const std::string out = eom::test::scratch_path("contacts.svg");
  REQUIRE(run("plot " + kData + "contacts.csv -o '" + out + "'").status == 0);
  const Svg svg = read_svg(out);
  CHECK(svg.curves() == 2);         // f.left.fz, f.right.fz; contact.* are the band
  CHECK(svg.fills_of(kLane) == 4);  // left: 0-0.3 and 0.6; right: 0 and 0.3-0.6
  CHECK(svg.has_text("left"));
  CHECK(svg.has_text("right"));
  CHECK(svg.has_text("f.left (N)"));
  CHECK(svg.has_text("contact"));
}

TEST_CASE("plot: several tables overlay, the legend names the files", "[plot]") {
  const std::string out = eom::test::scratch_path("overlay.svg");
  REQUIRE(
      run("plot " + kData + "arm.csv " + kData + "arm_measured.csv --y 'tau.*' -o '" + out + "'")
          .status == 0);
  const Svg svg = read_svg(out);
  CHECK(svg.has_text("joint1 (arm.csv)"));
  CHECK(svg.has_text("joint1 (arm_measured.csv)"));
  CHECK(svg.has_text("joint2 (arm_measured.csv)"));
  CHECK(svg.count_text("tau (N m)") == 1);  // one panel for both
  CHECK(svg.curves() >= 2);  // the first table's solid curves (the second's are dashes)
}

TEST_CASE("plot: PNG and PDF are well formed; every format reruns byte for byte", "[plot]") {
  for (const std::string format : {"svg", "png", "pdf"}) {
    const std::string a = eom::test::scratch_path("a." + format),
                      b = eom::test::scratch_path("b." + format);
    REQUIRE(run("plot " + kData + "arm.csv --robot robots/planar_2r.urdf -q -o '" + a + "'",
                "unset SOURCE_DATE_EPOCH; ")
                .status == 0);
    // a second later: a time stamp would differ
    REQUIRE(run("plot " + kData + "arm.csv --robot robots/planar_2r.urdf -q -o '" + b + "'",
                "unset SOURCE_DATE_EPOCH; sleep 1; ")
                .status == 0);
    const std::string first = bytes(a);
    CHECK(first == bytes(b));
    if (format == "png") {
      REQUIRE(first.size() > 33);
      CHECK(first.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
      CHECK(first.compare(12, 4, "IHDR") == 0);
      const auto byte = [&](int k) { return static_cast<unsigned char>(first[k]); };
      CHECK(((byte(16) << 24) | (byte(17) << 16) | (byte(18) << 8) | byte(19)) == 1000);
      CHECK(first.find("IEND") == first.size() - 8);
    } else if (format == "pdf") {
      CHECK(first.compare(0, 5, "%PDF-") == 0);
      CHECK(first.find("/Type /Page") != std::string::npos);
      CHECK(first.find("startxref") != std::string::npos);
      CHECK(first.rfind("%%EOF") >= first.size() - 7);
      CHECK(first.find("/CreationDate (D:19700101000000") != std::string::npos);
      // the reproducible-builds convention: a day after the epoch
      REQUIRE(run("plot " + kData + "arm.csv -q -o '" + a + "'", "export SOURCE_DATE_EPOCH=86400; ")
                  .status == 0);
      CHECK(bytes(a).find("/CreationDate (D:19700102000000") != std::string::npos);
    }
  }
}

TEST_CASE("plot: from a pipe", "[plot]") {
  const std::string out = eom::test::scratch_path("pipe.svg");
  const Result r = run("plot - --robot robots/ur5.urdf -o '" + out + "'",
                       "'" EOM_BINARY "' id robots/ur5.urdf trajectories/ur5_wave.csv | ");
  REQUIRE(r.status == 0);
  const Svg svg = read_svg(out);
  CHECK(svg.curves() == 6);
  CHECK(svg.has_text("shoulder_pan_joint"));
  CHECK(svg.dashed_lines() >= 1);
}

// AddressSanitizer reserves terabytes of address space for its shadow memory, so no process of
// the sanitizer build runs under ulimit -v: there the bound is left to the Release pass and the
// million rows run without it (the spike is still checked)
#if defined(__SANITIZE_ADDRESS__)
constexpr const char* kAddressSpaceLimit = "(";
#else
constexpr const char* kAddressSpaceLimit = "(ulimit -v 30000; ";
#endif

TEST_CASE("plot: a million rows in bounded memory, the spike kept", "[plot]") {
  const std::string out = eom::test::scratch_path("long.svg");
  // one spike of 1000 at row 654321 among values in [-1, 1]. eom plot to SVG runs in about 15 MB
  // of address space whatever the rows; the million rows' values alone, held as doubles, would
  // take 16 MB more (32 MB in a growing vector): 30 MB allows the one and not the other
  const Result limited =
      run("plot - -o '" + out + "')",
          "awk 'BEGIN { print \"t,y.a\"; for (k = 0; k < 1000000; k++) "
          "printf \"%.3f,%s\\n\", k / 1000, (k == 654321 ? 1000 : sin(k / 1000)) }' | " +
              std::string(kAddressSpaceLimit));
  REQUIRE(limited.status == 0);
  const Svg svg = read_svg(out);
  REQUIRE(svg.curves() == 1);
  const Svg::Line curve = svg.chains().front();
  CHECK(curve.points.size() <= 2000);  // two per bucket at most, 1000 buckets
  // SVG y grows upwards here (PLplot's transform): the spike is the one point far above the rest
  std::vector<double> heights;
  for (const auto& p : curve.points) heights.push_back(p.y);
  std::sort(heights.begin(), heights.end());
  const double low = heights.front(), high = heights.back(), median = heights[heights.size() / 2];
  CHECK((median - low) < 0.01 * (high - low));
  CHECK(std::count_if(heights.begin(), heights.end(),
                      [&](double h) { return h > median + 0.5 * (high - low); }) == 1);
}

namespace {

// a CSV in the scratch directory: t and the given columns, two rows of 1 and 2
std::string plot_table(const std::string& name, const std::vector<std::string>& columns) {
  const std::string path = eom::test::scratch_path(name);
  std::ofstream out(path);
  out << 't';
  for (const auto& c : columns) out << ',' << c;
  for (const char* value : {"1", "2"}) {
    out << '\n' << value;
    for (std::size_t k = 0; k < columns.size(); ++k) out << ',' << value;
  }
  out << '\n';
  return path;
}

}  // namespace

TEST_CASE("plot: texts longer than PLplot's buffers are shortened with an ellipsis", "[plot]") {
  // PLplot's text buffers hold 1024 characters: a joint of 5,000 once ended in SIGSEGV
  const std::string joint(5000, 'x');
  const std::string out = eom::test::scratch_path("long.svg");
  const Result legend =
      run("plot '" + plot_table("long.csv", {"q." + joint}) + "' -o '" + out + "'");
  REQUIRE(legend.status == 0);
  // 200 bytes: 197 of the name and the 3 of "…"
  CHECK(read_svg(out).has_text(std::string(197, 'x') + "\u2026"));
  // and said, once: the legend entry is the joint's name (the axis label is the group's, short)
  CHECK(
      legend.err ==
      "eom plot: warning: a legend entry is longer than the 200 bytes a text of the plot may take "
      "(PLplot's buffers): drawn shortened, ending in \u2026\n");
  // the default title joins the tables' names: 30 names of 120 characters
  std::string tables;
  for (int k = 0; k < 30; ++k) {
    tables += " '" + plot_table(std::string(116, 'a' + k % 26) + ".csv", {"q.j"}) + "'";
  }
  const std::string titled = eom::test::scratch_path("titled.svg");
  const Result long_title =
      run("plot" + tables + " --title '" + std::string(3000, 'T') + "' -o '" + titled + "'");
  REQUIRE(long_title.status == 0);
  // one warning for the title, before any other kind
  CHECK(long_title.err.find("eom plot: warning: the title is longer than the 200 bytes") == 0);
  CHECK(long_title.err.find("the title", 20) == std::string::npos);
  CHECK(read_svg(titled).has_text(std::string(197, 'T') + "\u2026"));
  REQUIRE(run("plot" + tables + " -o '" + titled + "'").status == 0);
  const Svg svg = read_svg(titled);
  const auto title = std::find_if(svg.texts.begin(), svg.texts.end(), [](const std::string& t) {
    return t.find(eom::test::scratch_path("aaaa")) == 0;
  });
  REQUIRE(title != svg.texts.end());
  CHECK(title->size() <= 200);
  CHECK(title->substr(title->size() - 3) == "\u2026");
}

TEST_CASE("plot: a PNG taller than cairo draws is refused, the old image kept", "[plot]") {
  // 121 panels of 272 points and the margins: 33,022 pixels, over the 32,767 of a side
  std::vector<std::string> columns;
  for (int k = 0; k < 121; ++k) columns.push_back("c" + std::to_string(k) + ".x");
  const std::string table = plot_table("tall.csv", columns);
  const std::string out = eom::test::scratch_path("tall.png");
  std::ofstream(out) << "the old image";
  const Result r = run("plot '" + table + "' --panel-height 272 -o '" + out + "'");
  CHECK(r.status == 2);
  CHECK(r.err ==
        "eom plot: error: the image would be 1000 x 33022 pixels, more than the 32767 a side a PNG "
        "is drawn on: fewer panels (--y), a smaller --panel-height, or SVG or PDF\n");
  CHECK(bytes(out) == "the old image");
  // one panel fewer fits: 32,750 pixels
  columns.pop_back();
  REQUIRE(
      run("plot '" + plot_table("fits.csv", columns) + "' --panel-height 272 -q -o '" + out + "'")
          .status == 0);
  const std::string png = bytes(out);
  REQUIRE(png.size() > 24);
  const auto byte = [&](int k) { return static_cast<unsigned char>(png[k]); };
  CHECK(((byte(20) << 24) | (byte(21) << 16) | (byte(22) << 8) | byte(23)) == 32750);
}

TEST_CASE("plot: an SVG's text is plain text, so the file can be searched", "[plot]") {
  const std::string out = eom::test::scratch_path("plain.svg");
  REQUIRE(run("plot " + kData + "arm.csv -o '" + out + "'").status == 0);
  const std::string svg = bytes(out);
  CHECK(svg.find(">t (s)</tspan>") != std::string::npos);
  CHECK(svg.find(">tau (N m)</tspan>") != std::string::npos);
  CHECK(svg.find("&#x") == std::string::npos);
  // still XML: tinyxml2 reads the same labels back
  CHECK(read_svg(out).has_text("t (s)"));
}

TEST_CASE("plot: past ten curves in a panel, the colours come round in another style", "[plot]") {
  // x.c1 .. x.cN constant at their index: horizontal lines, dashed ones counted as such
  const auto dashed_of = [](int curves) {
    const std::string table = eom::test::scratch_path("curves.csv"),
                      out = eom::test::scratch_path("curves.svg");
    std::ofstream csv(table);
    csv << "t";
    for (int c = 1; c <= curves; ++c) csv << ",x.c" << c;
    for (int r = 0; r < 20; ++r) {
      csv << '\n' << r;
      for (int c = 1; c <= curves; ++c) csv << ',' << c;
    }
    csv.close();
    REQUIRE(run("plot '" + table + "' -o '" + out + "'").status == 0);
    return read_svg(out).dashed_lines();
  };
  CHECK(dashed_of(10) == 0);  // ten colours, every line solid
  CHECK(dashed_of(12) >= 2);  // the 11th and 12th dashed in the 1st and 2nd colours
}

TEST_CASE("plot: an axis of epoch stamps counts from a round offset its label gives", "[plot]") {
  // t = 1700000000.123456 .. 1700000000.322456 s: ticks of 8 digits would all read 1.7e9
  const std::string out = eom::test::scratch_path("epoch.svg");
  REQUIRE(run("plot tests/data/logs/ur5_epoch_s.csv --y 'q.elbow*' -o '" + out + "'").status == 0);
  const Svg svg = read_svg(out);
  CHECK(svg.has_text("t - 1700000000 (s)"));
  std::set<std::string> ticks;
  for (const std::string& text : svg.texts) {
    if (text.rfind("0.", 0) == 0) ticks.insert(text);
  }
  CHECK(ticks.size() >= 3);  // 0.15, 0.2, 0.25, ...: the span readable
}

TEST_CASE("plot: a time stamp beside t gets no panel of its own", "[plot]") {
  // eom id ... --time-column field.header.stamp --keep field.header.stamp writes the stamp beside
  // t; a ROS 2 export splits it in header.stamp.sec and .nanosec; a solver's time per row is
  // data, not a stamp (it does not only increase)
  const std::string table = eom::test::scratch_path("stamped.csv"),
                    out = eom::test::scratch_path("stamped.svg");
  {
    std::ofstream csv(table);
    csv << std::fixed << std::setprecision(3)
        << "t,field.header.stamp,header.stamp.sec,header.stamp.nanosec,q.a,solve.time_us\n";
    for (int r = 0; r < 20; ++r) {
      const long long ns = 1700000000999000000LL + 1000000LL * r;  // crosses a whole second
      csv << 1700000000.999 + 0.001 * r << ',' << ns << ',' << ns / 1000000000 << ','
          << ns % 1000000000 << ',' << 0.1 * r << ',' << (r % 3 == 0 ? 40 : 35) << '\n';
    }
  }
  const Result r = run("plot '" + table + "' -o '" + out + "'");
  REQUIRE(r.status == 0);
  const Svg svg = read_svg(out);
  CHECK(svg.has_text("q (rad)"));
  CHECK(svg.has_text("solve"));  // the solver's time keeps its panel
  CHECK_FALSE(svg.has_text("field.header"));
  CHECK_FALSE(svg.has_text("header.stamp"));
  CHECK(svg.curves() == 2);
  CHECK(r.err.find("column field.header.stamp is a time stamp: no panel of its own") !=
        std::string::npos);
  CHECK(r.err.find("column header.stamp.nanosec is a time stamp") != std::string::npos);
  CHECK(r.err.find("column header.stamp.sec is a time stamp") != std::string::npos);
  CHECK(r.err.find("solve.time_us") == std::string::npos);
  // named, it is plotted
  REQUIRE(run("plot '" + table + "' --y field.header.stamp -o '" + out + "'").status == 0);
  CHECK(read_svg(out).has_text("field.header"));
}

TEST_CASE("plot: two tables of eleven curves in a panel: no two curves alike", "[plot]") {
  // x.c1 .. x.c11 constant at their index in one table, half a unit higher in the other: the
  // 11th colour round of the first table must not take the style of the second table's first
  // round. Each horizontal line across the panel is told by its colour and its dash pattern
  // (one polyline when solid, else the lengths of its dashes) and all 22 must differ.
  const std::string out = eom::test::scratch_path("eleven.svg");
  std::string tables;
  for (const auto& [name, offset] :
       {std::pair{"eleven_a.csv", 0.0}, std::pair{"eleven_b.csv", 0.5}}) {
    const std::string table = eom::test::scratch_path(name);
    std::ofstream csv(table);
    csv << "t";
    for (int c = 1; c <= 11; ++c) csv << ",x.c" << c;
    for (int r = 0; r < 20; ++r) {
      csv << '\n' << r;
      for (int c = 1; c <= 11; ++c) csv << ',' << c + offset;
    }
    tables += " '" + table + "'";
  }
  REQUIRE(run("plot" + tables + " -q -o '" + out + "'").status == 0);
  struct Across {
    double x_min = INFINITY, x_max = -INFINITY;
    std::multiset<long> dashes;  // lengths of the two-point pieces, in tenths of a point
    bool solid = false;
  };
  std::map<std::pair<std::string, long>, Across> lines;  // by colour and height
  for (const auto& l : read_svg(out).lines) {
    if (l.colour == "#000000" || l.points.size() < 2) continue;
    const double y = l.points.front().y;
    if (!std::all_of(l.points.begin(), l.points.end(), [&](const Point& p) { return p.y == y; }))
      continue;
    Across& a = lines[{l.colour, std::lround(y * 10)}];
    for (const Point& p : l.points)
      a.x_min = std::min(a.x_min, p.x), a.x_max = std::max(a.x_max, p.x);
    if (l.points.size() > 2)
      a.solid = true;
    else
      a.dashes.insert(std::lround(10 * std::abs(l.points[1].x - l.points[0].x)) / 5);
  }
  std::set<std::pair<std::string, std::set<long>>> looks;
  int curves = 0;
  for (const auto& [key, a] : lines) {
    if (a.x_max - a.x_min < 500) continue;  // a legend sample, not a curve across the panel
    ++curves;
    const std::set<long> pattern =
        a.solid ? std::set<long>{-1} : std::set<long>(a.dashes.begin(), a.dashes.end());
    looks.insert({key.first, pattern});
  }
  CHECK(curves == 22);
  CHECK(looks.size() == 22);
}
