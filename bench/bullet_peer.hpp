// Bullet's soft-body cloth on the benchmark's scene (bench_common.hpp), the frame benchmark's peer:
// the same grid, pins, mass, gravity and sphere, stepped by Bullet's position-based soft-body
// solver. Built only where Bullet is installed (bench/CMakeLists.txt).
#pragma once

#include <memory>

#include "bench_common.hpp"

class btSoftBody;

namespace bench {

struct BulletWorld;  // Bullet's world, its parts and the sphere (bullet_peer.cpp)

class BulletCloth {
 public:
  static constexpr int kSubsteps = 4;          // per frame: 4 steps of 1/240 s
  static constexpr int kPositionIterations = 10;  // m_cfg.piterations

  // n x n nodes; with_sphere: the static sphere below, else the cloth hangs free; Gauss-Seidel
  // passes over the links per step; steps per frame.
  BulletCloth(int n, bool with_sphere, int position_iterations = kPositionIterations, int substeps = kSubsteps);
  ~BulletCloth();
  BulletCloth(const BulletCloth&) = delete;
  BulletCloth& operator=(const BulletCloth&) = delete;

  void frame();  // advances 1/60 s
  int substeps() const { return substeps_; }
  StrainSummary strain() const;  // over the patch's links (every mesh edge, diagonals included)
  double total_mass() const;     // kg, free nodes only (Bullet keeps no mass on pinned ones)

 private:
  std::unique_ptr<BulletWorld> world_;
  btSoftBody* cloth_ = nullptr;  // owned by world_
  int substeps_ = kSubsteps;
};

}  // namespace bench
