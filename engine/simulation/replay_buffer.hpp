#pragma once
// ReplayBuffer: the last stretch of a run (30 s by default) kept frame by frame, so that a display
// can scrub back and replay it, e.g. the moment an explicit step blew up, again in slow motion.
// A ring of frames one display interval apart (1/60 s simulated), in single precision, within a
// memory budget: a large cloth keeps fewer seconds (seconds_held() says how many).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "simulation/replay_frame.hpp"
#include "simulation/simulation.hpp"

namespace cloth {

class ReplayBuffer {
 public:
  static constexpr double kDefaultSeconds = 30.0;
  static constexpr double kDefaultInterval = 1.0 / 60.0;
  static constexpr std::size_t kDefaultBudgetBytes = std::size_t(256) << 20;

  /// Keeps at most `seconds` of run, one frame per `interval` of simulated time, in at most
  /// about `budget_bytes` of states. Throws InputError for a non-positive or non-finite value.
  explicit ReplayBuffer(double seconds = kDefaultSeconds, double interval = kDefaultInterval,
                        std::size_t budget_bytes = kDefaultBudgetBytes);

  /// Keeps `sim`'s state when at least one interval of simulated time has passed since the last
  /// frame kept (call it after every step). Time running backwards (a reset, a new scene) or a
  /// solid added or removed starts the buffer over.
  void record(const Simulation& sim);
  void clear();

  int size() const { return int(frames_.size()); }
  bool empty() const { return frames_.empty(); }
  double oldest_time() const;  ///< s; 0 when empty
  double newest_time() const;  ///< s; 0 when empty
  double seconds_held() const { return newest_time() - oldest_time(); }
  /// The time of frame i (0 = oldest), s.
  double time_of(int i) const;
  /// The last frame at or before `t` (0 before the oldest).
  int index_at(double t) const;
  /// The run at time `t`, clamped to what is held, into `out`: between two frames of the same
  /// mesh the state and the solids are interpolated linearly; pins and grab are the earlier
  /// frame's. Precondition: !empty().
  void load(double t, ReplayFrame& out) const;
  /// Frames that fit the budget for a cloth of `vertices` vertices (at least 2).
  std::size_t capacity(int vertices) const;

 private:
  struct Stored {
    double time = 0;
    std::vector<float> xv;  ///< 6 per vertex: position, then velocity
    std::shared_ptr<const ClothModel> model;
    std::uint64_t topology_version = 0;
    std::vector<int> pinned;
    std::optional<Grab> grab;
    std::vector<Vec3> collider_displacements;
  };

  double seconds_;
  double interval_;
  std::size_t budget_bytes_;
  std::deque<Stored> frames_;
  std::shared_ptr<const ClothModel> model_;  ///< the model copy the newest frames share
  std::uint64_t model_topology_ = 0;
  std::optional<std::uint64_t> collider_version_;
  mutable std::uint64_t loads_ = 0;  ///< ReplayFrame::version of the last load()
};

}  // namespace cloth
