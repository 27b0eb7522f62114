// What every benchmark of the frame (clothsim's integrators and the Bullet peer) shares, so that
// their rows of one CSV mean the same thing: the scene's constants (the solver benchmarks' fixed
// system, fixed_system.cpp, is built on them too), the per-frame clock and the heap figure.
#pragma once

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace bench {

// The scene: a 1 m x 1 m cloth of 0.1 kg whose grid lies in the plane y = 1 m,
// centred on the y axis, pinned at its two corners (-0.5, 1, -0.5) and (0.5, 1, -0.5), above a
// sphere of radius 0.3 m centred at (0, 0.4, 0.1); 60 frames per second; gravity 9.81 m/s^2.
constexpr double kFrameDt = 1.0 / 60.0;  // s
constexpr double kGravity = 9.81;         // m/s^2
constexpr double kMass = 0.1;             // kg
constexpr double kSphereRadius = 0.3;     // m
constexpr double kSphereX = 0.0, kSphereY = 0.4, kSphereZ = 0.1;  // m
constexpr int kWarmupFrames = 60;  // 1 s: the cloth swings down onto the sphere and settles
// Vertices per side of the benchmarked grids (n x n vertices).
constexpr int kGridSizes[] = {16, 32, 51, 64, 100, 128, 256};

// Bytes the process has allocated and not freed (glibc: arena chunks in use + mmapped blocks).
// Under a sanitizer, whose allocator glibc does not see, this reads ~0.
inline double heap_in_use_bytes() {
  const struct mallinfo2 mi = mallinfo2();
  return static_cast<double>(mi.uordblks) + static_cast<double>(mi.hblkhd);
}

// Peak heap of one configuration: sampled at frame boundaries (after construction, after every
// warm-up frame and after the timed frames), minus what was in use before it was built. Memory
// allocated and freed inside one frame is not seen.
class HeapPeak {
 public:
  HeapPeak() : base_(heap_in_use_bytes()) {}
  void sample() { peak_ = std::max(peak_, heap_in_use_bytes() - base_); }
  double mib() const { return peak_ / (1024.0 * 1024.0); }

 private:
  double base_;
  double peak_ = 0;
};

// Runs the timed loop of a benchmark, one frame per iteration, and adds the median and minimum
// of the single frames' wall-clock times (real_time is their mean) as counters.
// `after` runs after each frame, outside the single frame's clock (inside real_time's).
template <class Frame, class After = void (*)()>
void time_frames(benchmark::State& state, Frame&& frame, After&& after = [] {}) {
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(state.max_iterations));
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    frame();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    after();
  }
  if (ms.empty()) return;
  std::sort(ms.begin(), ms.end());
  state.counters["frame_min_ms"] = ms.front();
  state.counters["frame_median_ms"] = ms[ms.size() / 2];
}

// Mean of the edges' elongations |x_i - x_j| / rest - 1 (negative where compressed) and the max.
struct StrainSummary {
  double max = 0;
  double mean = 0;
};

inline void set_strain_counters(benchmark::State& state, const StrainSummary& s) {
  state.counters["max_edge_strain"] = s.max;
  state.counters["mean_edge_strain"] = s.mean;
}

// The accuracy the strain-target search asks for (step_bench.cpp, BM_Accurate): the largest edge strain
// at most 2% at every frame of the run, warm-up included.
constexpr double kStrainTarget = 0.02;
// Frames timed after the search's warm-up (short: the search itself runs many configurations).
constexpr int kAccurateFrames = 10;

// How a configuration was run, for the strain-target search; the frame benchmarks report the
// same counters (a CSV needs the same ones in every row). stiffness: the factor on the default
// material's springs (0 for Bullet, whose links are constraints); iterations: per substep (CG
// for the implicit step has none: 0); rung: the search's ladder rung (0 outside the search);
// run_max_strain: the largest edge strain at any frame of the run; met: run_max_strain <= target.
struct Setting {
  double stiffness = 0;
  int iterations = 0;
  int rung = 0;
  double run_max_strain = 0;
};

inline void set_setting_counters(benchmark::State& state, const Setting& s) {
  state.counters["stiffness"] = s.stiffness;
  state.counters["iterations"] = s.iterations;
  state.counters["rung"] = s.rung;
  state.counters["run_max_strain"] = s.run_max_strain;
  state.counters["met"] = s.run_max_strain <= kStrainTarget ? 1 : 0;
}

// A rung of the search that is run from rest: the cloth, its peak heap and its largest strain.
template <class Cloth>
struct Found {
  std::unique_ptr<Cloth> cloth;
  HeapPeak heap;
  int rung = 0;
  double run_max_strain = 0;
};

// A rung whose warm-up frames take more CPU time than this on average ends the search: the next,
// dearer rungs would take minutes each (ms; CPU time, so that a shared machine's waits do not
// end a search early).
constexpr double kSearchFrameCapMs = 1000;

// The strain-target search: builds rung 0, 1, ..., rungs - 1 of a ladder ordered from cheap to
// dear (make(rung)) and runs each from rest for kWarmupFrames frames (cloth.frame()), tracking
// the largest edge strain (strain(cloth)) after every frame; a rung is dropped at the first frame
// over kStrainTarget. Returns the first rung that holds through the warm-up, else the last one
// tried, run through the whole warm-up (run_max_strain then says by how much it missed).
template <class Cloth, class Make, class Strain>
Found<Cloth> search_ladder(int rungs, Make&& make, Strain&& strain) {
  Found<Cloth> f;
  for (int rung = 0; rung < rungs; ++rung) {
    f.cloth.reset();  // before the next rung's heap baseline
    f = Found<Cloth>{};
    f.rung = rung;
    f.cloth = make(rung);
    f.heap.sample();
    const std::clock_t t0 = std::clock();
    int frames = 0;
    auto run = [&](bool stop_over_target) {
      while (frames < kWarmupFrames && !(stop_over_target && f.run_max_strain > kStrainTarget)) {
        f.cloth->frame();
        f.heap.sample();
        f.run_max_strain = std::max(f.run_max_strain, strain(*f.cloth));
        ++frames;
      }
    };
    run(true);
    if (f.run_max_strain <= kStrainTarget) break;
    const double ms = 1000.0 * static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
    if (rung == rungs - 1 || ms / frames > kSearchFrameCapMs) {
      run(false);
      break;
    }
  }
  return f;
}

}  // namespace bench
