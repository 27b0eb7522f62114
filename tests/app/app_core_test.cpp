// Unit tests of the app's GL-free parts: CLI parsing, the camera's screen <-> world mappings
// (what mouse picking and the end-to-end test's corner coordinates rest on), vertex normals,
// and the ffmpeg recorder's checks.
#include <gtest/gtest.h>

#include <csignal>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "render/camera.hpp"
#include "run/draw_pacer.hpp"
#include "run/frame_timing.hpp"
#include "render/render_scale.hpp"
#include "render/software_gl.hpp"
#include "render/normals.hpp"
#include "options.hpp"
#include "run/pane_layout.hpp"
#include "render/collider_meshes.hpp"
#include "render/heat_map.hpp"
#include "capture/recorder.hpp"
#include "shutdown_signal.hpp"

namespace {

app::ParseResult parse(std::vector<std::string> args) {
  args.insert(args.begin(), "clothsim");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return app::parse_command_line(int(argv.size()), argv.data());
}

TEST(Options, WindowSize) {
  const auto s = app::parse_window_size("1024x768");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->width, 1024);
  EXPECT_EQ(s->height, 768);
  for (const char* bad :
       {"", "1024", "x768", "1024x", "10x10", "1024x768x2", "-5x100", "axb", "99999x100"})
    EXPECT_FALSE(app::parse_window_size(bad)) << bad;
}

TEST(Options, SetIsRepeatableAndIntegratorComesLast) {
  const auto r = parse(
      {"--set", "a.b=1", "--integrator", "rk4", "--set", "c=2", "--headless", "--frames", "7"});
  ASSERT_FALSE(r.exit_code);
  const std::vector<std::string> want = {"a.b=1", "c=2", "solver.integrator=rk4"};
  EXPECT_EQ(r.options.overrides, want);
  EXPECT_TRUE(r.options.headless);
  EXPECT_EQ(r.options.frames, 7);
}

TEST(Options, BadArgumentsGiveAnExitCode) {
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  EXPECT_NE(parse({"--window", "12"}).exit_code.value_or(0), 0);
  EXPECT_NE(parse({"--frames", "many"}).exit_code.value_or(0), 0);
  EXPECT_NE(parse({"--no-such-flag"}).exit_code.value_or(0), 0);
  EXPECT_NE(parse({"--render-scale", "0.1"}).exit_code.value_or(0), 0);
  EXPECT_NE(parse({"--render-scale", "1.5"}).exit_code.value_or(0), 0);
  testing::internal::GetCapturedStderr();
  testing::internal::GetCapturedStdout();
}

TEST(Options, RenderScaleOnlyWhenGiven) {
  EXPECT_FALSE(parse({}).options.render_scale) << "absent: the renderer decides";
  const auto r = parse({"--render-scale", "0.5"});
  ASSERT_FALSE(r.exit_code);
  EXPECT_EQ(r.options.render_scale, 0.5f);
}

TEST(Options, CompareTakesOneSweep) {
  const auto r = parse({"--compare", "solver.integrator=symplectic-euler,implicit"});
  ASSERT_FALSE(r.exit_code);
  EXPECT_EQ(r.options.compare, "solver.integrator=symplectic-euler,implicit");
}

TEST(PaneLayout, PanesTileTheWindowWithoutOverlap) {
  for (int n = 1; n <= 4; ++n) {
    const auto rects = app::pane_rects(n, 1280, 720);
    ASSERT_EQ(int(rects.size()), n);
    double area = 0;
    for (size_t a = 0; a < rects.size(); ++a) {
      const app::PaneRect& r = rects[a];
      area += r.width * r.height;
      EXPECT_GE(r.left, 0);
      EXPECT_GE(r.top, 0);
      EXPECT_LE(r.left + r.width, 1280 + 1e-9);
      EXPECT_LE(r.top + r.height, 720 + 1e-9);
      // Each pane's centre is in that pane alone.
      EXPECT_EQ(app::pane_at(rects, r.left + r.width / 2, r.top + r.height / 2), int(a));
    }
    // Only the separator gaps are left over.
    const double columns = n == 4 ? 2 : n, rows = n == 4 ? 2 : 1;
    const double gaps = (columns - 1) * app::kPaneGap * 720 + (rows - 1) * app::kPaneGap * 1280 -
                        (columns - 1) * (rows - 1) * app::kPaneGap * app::kPaneGap;
    EXPECT_NEAR(area, 1280.0 * 720 - gaps, 1e-6) << n << " panes";
  }
  const auto two = app::pane_rects(2, 1280, 720);
  EXPECT_LT(two[0].left, two[1].left) << "two panes stand side by side";
  EXPECT_EQ(two[0].top, two[1].top);
  const auto four = app::pane_rects(4, 1280, 720);
  EXPECT_EQ(four[0].top, four[1].top);
  EXPECT_GT(four[2].top, four[0].top) << "four panes make a 2 x 2 grid";
  EXPECT_EQ(app::pane_at(two, two[0].width + app::kPaneGap / 2, 300), -1) << "the gap is no pane";
}

TEST(PaneLayout, ADockedPanelPushesThePanesRight) {
  const auto rects = app::pane_rects(2, 1280, 720, 350);
  EXPECT_DOUBLE_EQ(rects[0].left, 350);
  EXPECT_NEAR(rects[1].left + rects[1].width, 1280, 1e-9);
  EXPECT_NEAR(rects[0].width, rects[1].width, 1e-9);
  EXPECT_EQ(app::pane_at(rects, 100, 300), -1);  // under the panel: no pane
  // A panel wider than half the window leaves the panes half of it.
  EXPECT_DOUBLE_EQ(app::pane_rects(2, 600, 400, 500)[0].left, 300);
}

TEST(PaneLayout, ViewportsFlipToGlCoordinates) {
  const auto rects = app::pane_rects(4, 1280, 720);
  const app::Viewport bottom_left = app::to_viewport(rects[2], 720);
  EXPECT_EQ(bottom_left.x, 0);
  EXPECT_EQ(bottom_left.y, 0) << "GL counts rows from the bottom";
  EXPECT_EQ(bottom_left.width, 639);
  const app::Viewport top_right = app::to_viewport(rects[1], 720);
  EXPECT_EQ(top_right.x + top_right.width, 1280);
  EXPECT_EQ(top_right.y + top_right.height, 720);
}

TEST(FrameTiming, WarmUpFramesAreLeftOutAndMediansAreOfTheRest) {
  app::FrameTiming t;
  EXPECT_EQ(t.to_json()["frames"], 0);
  for (int f = 1; f <= app::FrameTiming::kWarmupFrames; ++f) t.add(f, 1000, 1000, 1000);  // start-up
  for (int f = 1; f <= 5; ++f) t.add(app::FrameTiming::kWarmupFrames + f, f, 10 * f, 16.7);
  const nlohmann::json j = t.to_json();
  EXPECT_EQ(j["frames"], 5);
  EXPECT_DOUBLE_EQ(j["median_sim_ms"], 3);
  EXPECT_DOUBLE_EQ(j["median_draw_ms"], 30);
  EXPECT_DOUBLE_EQ(j["mean_sim_ms"], 3);
  EXPECT_DOUBLE_EQ(j["median_frame_ms"], 16.7);
}

TEST(DrawPacer, SkipsDrawsWhileBehindButDrawsAtLeastEveryGap) {
  app::DrawPacer pacer;
  const double gap = app::DrawPacer::kMaxDrawGap;
  EXPECT_TRUE(pacer.draw_now(0.0, true)) << "the first pass draws";
  EXPECT_TRUE(pacer.draw_now(0.01, false)) << "on time: every pass draws";
  EXPECT_FALSE(pacer.draw_now(0.02, true));
  EXPECT_FALSE(pacer.draw_now(0.01 + 0.9 * gap, true));
  EXPECT_EQ(pacer.skipped(), 2);
  EXPECT_TRUE(pacer.draw_now(0.01 + 1.1 * gap, true)) << "behind for a whole gap: draw anyway";
  EXPECT_FALSE(pacer.draw_now(0.02 + 1.1 * gap, true)) << "the forced draw restarted the gap";
  EXPECT_TRUE(pacer.draw_now(0.03 + 1.1 * gap, false));
  EXPECT_EQ(pacer.skipped(), 3);
}

TEST(SoftwareGl, MesaAndSwiftShaderRasterisersAreRecognisedGpusAreNot) {
  EXPECT_TRUE(app::is_software_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
  EXPECT_TRUE(app::is_software_renderer("Mesa softpipe"));
  EXPECT_TRUE(app::is_software_renderer("Google SwiftShader"));
  EXPECT_FALSE(app::is_software_renderer("NVIDIA GeForce RTX 3060/PCIe/SSE2"));
  EXPECT_FALSE(app::is_software_renderer("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
  EXPECT_FALSE(app::is_software_renderer(""));
}

TEST(RenderScale, HalfOnACpuRasteriserFullOnAGpuClampedAndWholePixels) {
  EXPECT_EQ(app::default_render_scale("llvmpipe (LLVM 15.0.6, 256 bits)"), app::kSoftwareRenderScale);
  EXPECT_EQ(app::default_render_scale("NVIDIA GeForce RTX 3060/PCIe/SSE2"), 1.0f);
  EXPECT_EQ(app::clamped_render_scale(std::nanf("")), 1.0f);
  EXPECT_EQ(app::clamped_render_scale(0.1f), app::kMinRenderScale);
  EXPECT_EQ(app::clamped_render_scale(2.0f), 1.0f);
  EXPECT_EQ(app::clamped_render_scale(0.75f), 0.75f);
  // Half of 1280 x 720 is exactly 640 x 360: the copy up is a whole multiple (scene_layer.cpp).
  EXPECT_EQ(app::scaled_layer_size(1280, 720, 0.5f), (app::LayerSize{640, 360}));
  EXPECT_EQ(app::scaled_layer_size(1281, 721, 0.5f), (app::LayerSize{641, 361})) << "rounded, not truncated";
  EXPECT_EQ(app::scaled_layer_size(1, 1, 0.25f), (app::LayerSize{1, 1})) << "never empty";
  EXPECT_EQ(app::scaled_layer_size(1280, 720, 0.01f), (app::LayerSize{320, 180})) << "clamped to 0.25";
}

TEST(Camera, ProjectInvertsRayThrough) {
  app::OrbitCamera cam;
  cam.set(glm::vec3(0.2f, 0.7f, -0.1f), 2.5f, 35.0f, 20.0f);
  const int w = 1024, h = 768;
  for (const auto& [x, y] :
       std::vector<std::pair<double, double>>{{512, 384}, {10, 20}, {1000, 700}, {300.5, 600.25}}) {
    const app::Ray ray = cam.ray_through(x, y, w, h);
    EXPECT_NEAR(glm::length(ray.direction), 1.0, 1e-9);
    for (double t : {0.5, 2.0, 10.0}) {
      const auto px = cam.project(ray.origin + t * ray.direction, w, h);
      ASSERT_TRUE(px);
      EXPECT_NEAR(px->x, x, 1e-3);
      EXPECT_NEAR(px->y, y, 1e-3);
    }
  }
}

TEST(Camera, NarrowViewportsKeepTheHorizontalFieldOfView) {
  // Wide windows keep the 45 degree vertical field of view.
  EXPECT_FLOAT_EQ(app::OrbitCamera::fov_y_deg(16.0f / 9.0f), app::OrbitCamera::kFovYDeg);
  // A pane a third as wide as high: the horizontal field of view is still kMinFovXDeg, so a
  // point at the edge of that cone projects onto the pane's edge.
  app::OrbitCamera camera;
  camera.set(glm::vec3(0.0f), 2.0f, 0.0f, 0.0f);  // eye at z = 2, looking down -z
  const double half = glm::radians(double(app::OrbitCamera::kMinFovXDeg)) / 2;
  const auto px = camera.project(glm::dvec3(2.0 * std::tan(half), 0.0, 0.0), 300, 900);
  ASSERT_TRUE(px);
  EXPECT_NEAR(px->x, 300.0, 0.05);
  EXPECT_NEAR(px->y, 450.0, 0.05);
}

TEST(Camera, TargetIsAtTheCentreAndUpIsUp) {
  app::OrbitCamera cam;
  cam.set(glm::vec3(0, 1, 0), 3.0f, 0.0f, 0.0f);
  const auto centre = cam.project(glm::dvec3(0, 1, 0), 800, 600);
  ASSERT_TRUE(centre);
  EXPECT_NEAR(centre->x, 400, 1e-6);
  EXPECT_NEAR(centre->y, 300, 1e-6);
  // Window y grows downwards: a point above the target is above the centre.
  EXPECT_LT(cam.project(glm::dvec3(0, 1.5, 0), 800, 600)->y, 300);
  // yaw 0 looks from +z: world +x is to the right.
  EXPECT_GT(cam.project(glm::dvec3(0.5, 1, 0), 800, 600)->x, 400);
  // Behind the eye: no pixel.
  EXPECT_FALSE(cam.project(glm::dvec3(0, 1, 10), 800, 600));
}

TEST(Camera, PitchIsClampedAndZoomStaysPositive) {
  app::OrbitCamera cam;
  cam.set(glm::vec3(0), 2.0f, 0.0f, 80.0f);
  cam.orbit(0.0f, 50.0f);
  EXPECT_LT(cam.eye().y, 2.0f);  // at most 89 degrees: never straight overhead (lookAt degenerates)
  EXPECT_TRUE(std::isfinite(cam.view()[0][0]));
  cam.zoom(1000.0f);
  EXPECT_GT(cam.distance(), 0.0f);
}

TEST(Camera, PanMovesTheTargetWithTheCursor) {
  app::OrbitCamera cam;
  cam.set(glm::vec3(0), 2.0f, 0.0f, 0.0f);
  const auto before = cam.project(glm::dvec3(0), 800, 600);
  cam.pan(50.0f, 0.0f, 600.0f);
  const auto after = cam.project(glm::dvec3(0), 800, 600);
  EXPECT_NEAR(after->x - before->x, 50.0, 0.5);  // the world point follows the cursor
}

TEST(Normals, FlatGridAndAreaWeighting) {
  // Two triangles of a unit square in the xz plane, counter-clockwise seen from +y.
  const std::vector<cloth::Vec3> x = {{0, 0, 0}, {1, 0, 0}, {1, 0, -1}, {0, 0, -1}};
  const std::vector<std::array<int, 3>> tris = {{0, 1, 2}, {0, 2, 3}};
  std::vector<glm::vec3> n;
  app::compute_vertex_normals(x, tris, n);
  ASSERT_EQ(n.size(), 4u);
  for (const glm::vec3& v : n) EXPECT_NEAR(v.y, 1.0f, 1e-6f);

  // A big triangle outweighs a sliver at a shared vertex.
  const std::vector<cloth::Vec3> y = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0.01}};
  const std::vector<std::array<int, 3>> t2 = {{0, 1, 2}, {0, 3, 1}};
  app::compute_vertex_normals(y, t2, n);
  EXPECT_GT(n[0].z, 0.99f);
}

TEST(Normals, IsolatedOrDegenerateVerticesGetUp) {
  // A collinear (zero-area) triangle and an unused vertex: no direction to take, so +y, not NaN.
  const std::vector<cloth::Vec3> x = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {5, 5, 5}};
  std::vector<glm::vec3> n;
  app::compute_vertex_normals(x, {{0, 1, 2}}, n);
  ASSERT_EQ(n.size(), 4u);
  for (const glm::vec3& v : n) EXPECT_EQ(v, glm::vec3(0, 1, 0));
}

TEST(ColliderMeshes, EverySolidIsDrawnOnItsSurfaceFacingOutward) {
  const std::vector<cloth::Shape> shapes = {
      cloth::SphereShape{cloth::Vec3(0.1, 0.2, 0), 0.3},
      cloth::EllipsoidShape{cloth::Vec3(0, 0.3, 0), cloth::Vec3(0.3, 0.1, 0.2),
                            Eigen::AngleAxisd(0.5, cloth::Vec3::UnitZ()).toRotationMatrix()},
      cloth::CapsuleShape{cloth::Vec3(-0.2, 0, 0), cloth::Vec3(0.3, 0.2, 0.1), 0.1},
      cloth::CylinderShape{cloth::Vec3(-0.2, 0, 0), cloth::Vec3(0.3, 0.2, 0.1), 0.1},
      cloth::BoxShape{cloth::Vec3(0, 0.1, 0), cloth::Vec3(0.3, 0.1, 0.2),
                      Eigen::AngleAxisd(0.3, cloth::Vec3::UnitY()).toRotationMatrix()}};
  EXPECT_FALSE(app::collider_mesh(cloth::PlaneShape{}).has_value()) << "planes are the ground";
  for (const cloth::Shape& shape : shapes) {
    const std::optional<app::SimpleMesh> m = app::collider_mesh(shape);
    ASSERT_TRUE(m.has_value()) << cloth::shape_name(shape);
    ASSERT_EQ(m->indices.size() % 3, 0u);
    ASSERT_EQ(m->normals.size(), m->positions.size());
    cloth::Vec3 n;
    auto d = [&](const glm::vec3& p) { return cloth::shape_signed_distance(shape, cloth::Vec3(p.x, p.y, p.z), &n); };
    for (const glm::vec3& p : m->positions) ASSERT_NEAR(d(p), 0.0, 1e-5) << cloth::shape_name(shape);
    int outward = 0, total = 0;
    for (size_t t = 0; t < m->indices.size(); t += 3) {
      const glm::vec3 a = m->positions[m->indices[t]], b = m->positions[m->indices[t + 1]],
                      c = m->positions[m->indices[t + 2]];
      const glm::vec3 cr = glm::cross(b - a, c - a);
      if (glm::length(cr) < 1e-7f) continue;  // the pole rows have zero-area triangles
      ++total;
      // Counter-clockwise from outside: a step along the winding normal leaves the solid.
      const glm::vec3 centre = (a + b + c) / 3.0f;
      outward += d(centre + 1e-3f * glm::normalize(cr)) > d(centre - 1e-3f * glm::normalize(cr)) ? 1 : 0;
    }
    EXPECT_GT(total, 10) << cloth::shape_name(shape);
    EXPECT_EQ(outward, total) << cloth::shape_name(shape);
  }
}

TEST(HeatMap, BlueAtZeroRedAtTheTopClampedAndContinuous) {
  const glm::vec3 cold = app::heat_color(0.0f), hot = app::heat_color(1.0f);
  EXPECT_GT(cold.b, cold.r + 0.5f) << "unstretched reads blue";
  EXPECT_GT(hot.r, hot.b + 0.5f) << "the top of the scale reads red";
  EXPECT_EQ(app::heat_color(-3.0f), cold) << "compression is shown as unstretched";
  EXPECT_EQ(app::heat_color(7.0f), hot) << "past the top stays red";
  EXPECT_EQ(app::heat_color(std::nanf("")), hot) << "NaN shows as the worst";
  // No jumps: neighbouring values give neighbouring colours, so the legend reads continuously.
  for (int k = 0; k < 1000; ++k) {
    const float t = k / 1000.0f;
    EXPECT_LT(glm::length(app::heat_color(t + 1e-3f) - app::heat_color(t)), 0.01f) << t;
  }
}

TEST(Recorder, RejectsOddSizesAndMissingFfmpeg) {
  EXPECT_EQ(app::even_floor(1001), 1000);
  EXPECT_EQ(app::even_floor(720), 720);
  EXPECT_EQ(app::even_floor(1), 2);
  app::Recorder r;
  EXPECT_THROW(r.start("x.mp4", 641, 480), std::runtime_error);
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  setenv("PATH", "/nonexistent", 1);
  try {
    r.start("x.mp4", 640, 480);
    ADD_FAILURE() << "start() without ffmpeg on PATH did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ffmpeg"), std::string::npos) << e.what();
  }
  setenv("PATH", saved.c_str(), 1);
  EXPECT_FALSE(r.active());
}

TEST(Recorder, WritesAPlayableVideo) {
  // scripts/install-deps.sh installs ffmpeg: its absence is a broken set-up, not a reason to skip.
  ASSERT_EQ(std::system("command -v ffmpeg >/dev/null 2>&1"), 0) << "ffmpeg not installed";
  const std::string path =
      (std::filesystem::temp_directory_path() / "clothsim_recorder_test.mp4").string();
  app::Recorder r;
  r.start(path, 64, 48, 30);
  std::vector<std::uint8_t> frame(64 * 48 * 3);
  for (int k = 0; k < 5; ++k) {
    for (size_t i = 0; i < frame.size(); ++i) frame[i] = std::uint8_t((i + size_t(k) * 40) & 255);
    r.add_frame(frame);
  }
  const app::RecordingSummary s = r.finish();
  EXPECT_EQ(s.frames, 5);
  EXPECT_NEAR(s.seconds, 5.0 / 30.0, 1e-9);
  EXPECT_GT(std::filesystem::file_size(path), 0u);
  std::filesystem::remove(path);
}

// Stopped before its first frame (V twice within one frame, SIGTERM right after V): ffmpeg's file
// would hold no video stream, so none is left behind and the message says so.
TEST(Recorder, StoppedBeforeItsFirstFrameLeavesNoFile) {
  ASSERT_EQ(std::system("command -v ffmpeg >/dev/null 2>&1"), 0) << "ffmpeg not installed";
  const std::string path =
      (std::filesystem::temp_directory_path() / "clothsim_recorder_empty_test.mp4").string();
  app::Recorder r;
  r.start(path, 64, 48, 30);
  const app::RecordingSummary s = r.finish();
  EXPECT_FALSE(r.active());
  EXPECT_EQ(s.frames, 0);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_NE(s.describe().find("no video written"), std::string::npos) << s.describe();
  EXPECT_EQ((app::RecordingSummary{"a.mp4", 30, 0.5}.describe()), "wrote video a.mp4 (30 frames, 0.5 s)");
}

// The handler only records the signal (the loops act on it), and fires once, so that a second
// Ctrl-C during a slow shutdown still kills the process.
TEST(ShutdownSignal, RecordsTheSignalOnceThenRestoresTheDefault) {
  app::install_shutdown_handlers();
  EXPECT_EQ(app::shutdown_signal(), 0);
  std::raise(SIGTERM);
  EXPECT_EQ(app::shutdown_signal(), SIGTERM);
  EXPECT_EQ(app::exit_status_for_signal(SIGTERM), 143);
  struct sigaction now = {};
  sigaction(SIGTERM, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
  sigaction(SIGINT, nullptr, &now);
  EXPECT_NE(now.sa_handler, SIG_DFL);  // still armed: a separate one-shot handler
}

}  // namespace
