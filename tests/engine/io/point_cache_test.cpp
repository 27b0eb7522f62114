// PC2 point caches (point_cache.hpp): a short simulated run written frame by frame reads back
// with the documented little-endian header, the right counts and the states that were written.
#include "io/point_cache.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/error.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"

namespace cloth {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("clothsim_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

Simulation small_falling_cloth() {
  GridSpec spec;
  spec.nx = 6;
  spec.ny = 5;
  SolverSettings solver;
  solver.integrator = IntegratorType::SymplecticEuler;
  solver.dt = 1.0 / 600;
  return Simulation(build_model(make_grid(spec), SpringMaterial{}), {}, {}, solver,
                    Vec3(0, -9.81, 0));
}

std::vector<char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Seven frames of a falling cloth: the header says 7 samples of 30 points from frame 1, one
// sample per frame, and every sample is that frame's state rounded to float, the last one the
// final state.
TEST(PointCache, ASimulatedRunReadsBackFrameByFrame) {
  const std::string path = temp_path("run.pc2");
  Simulation sim = small_falling_cloth();
  const int frames = 7;
  std::vector<std::vector<Vec3>> states;
  {
    PointCacheWriter writer(path, sim.model().vertex_count());
    for (int f = 0; f < frames; ++f) {
      sim.step();
      writer.add_sample(sim.state().x);
      states.push_back(sim.state().x);
    }
    writer.close();
    EXPECT_EQ(writer.samples(), frames);
  }
  const PointCache cache = read_point_cache(path);
  EXPECT_EQ(cache.version, 1);
  EXPECT_EQ(cache.num_points, 30);
  EXPECT_EQ(cache.start_frame, 1.0f);
  EXPECT_EQ(cache.sample_rate, 1.0f);
  ASSERT_EQ(cache.num_samples, frames);
  ASSERT_EQ(cache.positions.size(), size_t(frames) * 30 * 3);
  for (int s = 0; s < frames; ++s) {
    for (int i = 0; i < 30; ++i) {
      for (int k = 0; k < 3; ++k)
        ASSERT_EQ(float(cache.point(s, i)[k]), float(states[size_t(s)][size_t(i)][k]));
    }
  }
  for (int i = 0; i < 30; ++i) {
    const Vec3 last = cache.point(frames - 1, i);
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(float(last[k]), float(sim.state().x[size_t(i)][k])) << "vertex " << i;
  }
  // The cloth fell between the first and the last sample.
  EXPECT_LT(cache.point(frames - 1, 0).y(), cache.point(0, 0).y());

  // The bytes themselves: signature with its NUL, then little-endian version 1, 30 points, 1.0f
  // (0x3f800000) and 7 samples; the file is exactly header + data.
  const std::vector<char> bytes = file_bytes(path);
  ASSERT_EQ(bytes.size(), 32u + size_t(frames) * 30 * 12);
  EXPECT_EQ(std::string(bytes.data(), 12), std::string("POINTCACHE2\0", 12));
  const auto byte = [&](int k) { return static_cast<unsigned char>(bytes[size_t(k)]); };
  EXPECT_EQ(byte(12), 1);
  EXPECT_EQ(byte(13) | byte(14) | byte(15), 0);
  EXPECT_EQ(byte(16), 30);
  EXPECT_EQ(byte(20), 0x00);
  EXPECT_EQ(byte(22), 0x80);
  EXPECT_EQ(byte(23), 0x3f);
  EXPECT_EQ(byte(28), frames);
  std::filesystem::remove(path);
}

// A writer dropped without close() (an exception unwinding a run) still leaves a valid file
// whose header counts the samples written.
TEST(PointCache, DestructorPatchesTheSampleCount) {
  const std::string path = temp_path("dropped.pc2");
  {
    PointCacheWriter writer(path, 3);
    for (int s = 0; s < 4; ++s) writer.add_sample({Vec3(s, 0, 0), Vec3(0, s, 0), Vec3(0, 0, s)});
  }
  const PointCache cache = read_point_cache(path);
  EXPECT_EQ(cache.num_samples, 4);
  EXPECT_EQ(cache.point(3, 1), Vec3(0, 3, 0));
  std::filesystem::remove(path);
}

// Bad input is an InputError: a sample of another vertex count (a torn cloth), an unwritable
// path, a file that is not a PC2 or whose size does not match its header.
TEST(PointCache, BadInputIsAnInputError) {
  const std::string path = temp_path("bad.pc2");
  {
    PointCacheWriter writer(path, 2);
    EXPECT_THROW(writer.add_sample({Vec3::Zero(), Vec3::Zero(), Vec3::Zero()}), InputError);
    writer.add_sample({Vec3::Zero(), Vec3::Ones()});
  }
  EXPECT_EQ(read_point_cache(path).num_samples, 1);
  EXPECT_THROW(PointCacheWriter("/nonexistent_dir/x.pc2", 2), InputError);
  EXPECT_THROW(PointCacheWriter(path, 0), InputError);

  std::vector<char> bytes = file_bytes(path);
  bytes.pop_back();  // truncated
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  EXPECT_THROW(read_point_cache(path), InputError);
  bytes[0] = 'X';
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  EXPECT_THROW(read_point_cache(path), InputError);
  EXPECT_THROW(read_point_cache("/nonexistent_dir/x.pc2"), InputError);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace cloth
