// Bullet's soft-body cloth on the benchmark's scene, and its benchmarks "BM_Frame/bullet/N" (the
// sphere below) and "BM_Frame/bullet-free/N" (hanging free), registered beside clothsim's so one
// run writes both into one CSV with the same counters; "BM_Frame/bullet-100it/N" is the first
// with 100 passes instead of 10 (how much a stiffer Bullet cloth costs: clothsim-stiff's peer).
//
// Settings, and why (the peer runs at piterations = 10 and 4 substeps per frame):
//  - btSoftBodyHelpers::CreatePatch, n x n nodes over 1 m x 1 m at y = 1 m, with its diagonal
//    links (gendiags): one diagonal per cell, like clothsim's triangles (Bullet alternates their
//    direction, clothsim does not).
//  - Mass: setTotalMass(0.1 kg, from faces), i.e. lumped by triangle area like clothsim, then the
//    two corners pinned with setMass(i, 0) (so the free nodes carry 0.1 kg less two corner shares).
//  - Links: material kLST = 1, the default and the stiffest Bullet has (the position solver
//    projects each link fully to its rest length; what stretch remains is what 10 Gauss-Seidel
//    passes leave unresolved). There is no N/m to match clothsim's 1000 N/m springs: Bullet's links
//    are constraints, so its stiffness depends on iterations and resolution. No bending links.
//  - Time: each frame is 4 calls of stepSimulation(1/240 s, maxSubSteps = 0), i.e. exactly 4
//    internal steps of 1/240 s. stepSimulation(1/60, 4, 1/240) would do the same on average, but
//    its accumulator in single precision may take 3 or 5 steps in some frames.
//  - Damping: kDP = 0.5 s^-1 x 1/240 s, the fraction of velocity clothsim's velocity_damping
//    (0.5 s^-1) removes per 1/240 s; Bullet has no spring damping like clothsim's 0.02 N s/m.
//  - Contact: Bullet's default soft-rigid collision (SDF_RS, sparse signed-distance field of the
//    sphere), cloth margin 5 mm = clothsim's collider thickness, friction kDF x body friction
//    = 0.3 x 1 = clothsim's mu 0.3. No self-collision in either.
#include "bullet_peer.hpp"

#include <btBulletDynamicsCommon.h>

#include <BulletSoftBody/btSoftBody.h>
#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace bench {

struct BulletWorld {
  btSoftBodyRigidBodyCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btSoftRigidDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
  btSphereShape sphere_shape{btScalar(kSphereRadius)};
  std::unique_ptr<btRigidBody> sphere;
};

BulletCloth::BulletCloth(int n, bool with_sphere, int position_iterations, int substeps)
    : world_(std::make_unique<BulletWorld>()), substeps_(substeps) {
  btSoftRigidDynamicsWorld& world = world_->world;
  world.setGravity(btVector3(0, btScalar(-kGravity), 0));
  btSoftBodyWorldInfo& info = world.getWorldInfo();
  info.m_gravity = btVector3(0, btScalar(-kGravity), 0);  // the soft bodies read this one
  info.m_sparsesdf.Initialize();

  // Corner (ix, iy) of the patch is clothsim's grid vertex (i, j): x = -0.5 + i h, z = -0.5 + j h,
  // node index iy * n + ix in both, so nodes 0 and n - 1 are clothsim's pinned corners.
  const btScalar y = 1;
  cloth_ = btSoftBodyHelpers::CreatePatch(info, btVector3(-0.5, y, -0.5), btVector3(0.5, y, -0.5),
                                          btVector3(-0.5, y, 0.5), btVector3(0.5, y, 0.5), n, n,
                                          /*fixeds=*/0, /*gendiags=*/true);
  cloth_->setTotalMass(btScalar(kMass), /*fromfaces=*/true);
  cloth_->setMass(0, 0);
  cloth_->setMass(n - 1, 0);
  cloth_->m_materials[0]->m_kLST = 1;
  cloth_->m_cfg.piterations = position_iterations;
  cloth_->m_cfg.kDP = btScalar(0.5 * kFrameDt / substeps_);
  cloth_->m_cfg.kDF = btScalar(0.3);
  cloth_->getCollisionShape()->setMargin(btScalar(0.005));
  world.addSoftBody(cloth_);

  if (with_sphere) {
    btTransform at;
    at.setIdentity();
    at.setOrigin(btVector3(btScalar(kSphereX), btScalar(kSphereY), btScalar(kSphereZ)));
    btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, &world_->sphere_shape);  // mass 0: static
    ci.m_startWorldTransform = at;
    ci.m_friction = 1;
    world_->sphere = std::make_unique<btRigidBody>(ci);
    world.addRigidBody(world_->sphere.get());
  }
}

BulletCloth::~BulletCloth() {
  if (world_->sphere) world_->world.removeRigidBody(world_->sphere.get());
  world_->world.removeSoftBody(cloth_);
  delete cloth_;
}

void BulletCloth::frame() {
  const btScalar h = btScalar(kFrameDt / substeps_);
  for (int s = 0; s < substeps_; ++s) world_->world.stepSimulation(h, 0);
}

StrainSummary BulletCloth::strain() const {
  StrainSummary s;
  const auto& links = cloth_->m_links;
  if (links.size() == 0) return s;
  double sum = 0;
  s.max = -1;
  for (int k = 0; k < links.size(); ++k) {
    const btSoftBody::Link& l = links[k];
    const double e = double((l.m_n[0]->m_x - l.m_n[1]->m_x).length()) / double(l.m_rl) - 1.0;
    s.max = std::max(s.max, e);
    sum += e;
  }
  s.mean = sum / links.size();
  return s;
}

double BulletCloth::total_mass() const { return double(cloth_->getTotalMass()); }

namespace {

using Cached = Found<BulletCloth>;

double max_strain(const BulletCloth& c) { return c.strain().max; }

// One cloth per (variant, size), warmed up once and shared by the repetitions, as for clothsim.
Cached& warmed_up(bool with_sphere, int iterations, int n) {
  static std::map<std::tuple<bool, int, int>, std::unique_ptr<Cached>> cache;
  std::unique_ptr<Cached>& c = cache[{with_sphere, iterations, n}];
  if (!c) {
    // A ladder of one rung, run through its warm-up whatever its strain.
    c = std::make_unique<Cached>(search_ladder<BulletCloth>(
        1, [&](int) { return std::make_unique<BulletCloth>(n, with_sphere, iterations); },
        [](const BulletCloth&) { return 0.0; }));
  }
  return *c;
}

// Times the frames and sets the counters the clothsim rows have (step_bench.cpp) where Bullet has
// them. track_strain: run_max_strain follows every frame, else only the ends of the runs.
void time_frames(benchmark::State& state, int n, int iterations, Cached& c, bool track_strain) {
  bench::time_frames(state, [&] { c.cloth->frame(); }, [&] {
    if (track_strain) c.run_max_strain = std::max(c.run_max_strain, max_strain(*c.cloth));
  });
  c.heap.sample();
  state.counters["vertices"] = n * n;
  state.counters["substeps_per_frame"] = c.cloth->substeps();
  state.counters["steps_per_frame"] = c.cloth->substeps();
  state.counters["heap_mib"] = c.heap.mib();
  const StrainSummary end = c.cloth->strain();
  set_strain_counters(state, end);
  if (!track_strain) c.run_max_strain = std::max(c.run_max_strain, end.max);
  set_setting_counters(state, {0, iterations, c.rung, c.run_max_strain});
}

void BM_BulletFrame(benchmark::State& state, bool with_sphere, int iterations) {
  const int n = static_cast<int>(state.range(0));
  time_frames(state, n, iterations, warmed_up(with_sphere, iterations, n), false);
}

// Bullet's ladder for the strain-target search (step_bench.cpp's BM_Accurate): (steps per frame,
// passes per step), each rung about twice the work of the last; more steps first, since a
// Gauss-Seidel pass over a shorter step leaves less to resolve (Macklin et al. 2019, "Small Steps
// in Physics Simulation").
constexpr std::pair<int, int> kLadder[] = {{4, 10}, {8, 10}, {16, 10}, {32, 10}, {64, 10}, {128, 10}, {256, 10}};

void BM_BulletAccurate(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  static std::map<int, std::unique_ptr<Cached>> cache;
  std::unique_ptr<Cached>& c = cache[n];
  if (!c) {
    c = std::make_unique<Cached>(search_ladder<BulletCloth>(
        static_cast<int>(std::size(kLadder)),
        [&](int r) { return std::make_unique<BulletCloth>(n, true, kLadder[r].second, kLadder[r].first); }, max_strain));
  }
  time_frames(state, n, kLadder[c->rung].second, *c, true);
}

const bool kRegistered = [] {
  const std::tuple<const char*, bool, int> variants[] = {
      {"BM_Frame/bullet", true, BulletCloth::kPositionIterations},
      {"BM_Frame/bullet-free", false, BulletCloth::kPositionIterations},
      {"BM_Frame/bullet-100it", true, 100}};
  for (const auto& [name, with_sphere, iterations] : variants) {
    auto* b = benchmark::RegisterBenchmark(name, BM_BulletFrame, with_sphere, iterations);
    for (int n : kGridSizes) b->Arg(n);
    b->Unit(benchmark::kMillisecond)->Iterations(30);
  }
  auto* b = benchmark::RegisterBenchmark("BM_Accurate/bullet", BM_BulletAccurate);
  for (int n : kGridSizes) {
    if (n != 51 && n >= 32 && n <= 128) b->Arg(n);  // as clothsim's (step_bench.cpp)
  }
  b->Unit(benchmark::kMillisecond)->Iterations(kAccurateFrames);
  return true;
}();

}  // namespace
}  // namespace bench
