#pragma once
// Per-frame exports of a cloth for animation tools, shared by the headless runner and the window
// app: an OBJ per frame (--export-sequence, the Scene panel) and a PC2 point cache (--export-pc2).
// Each is started and stopped on its own; every simulated frame goes to whichever is running.
#include <memory>
#include <string>

#include "io/obj_sequence.hpp"
#include "io/point_cache.hpp"

namespace app {

class FrameExports {
 public:
  /// Starts the OBJ sequence in `dir` (created when missing). Throws cloth::InputError.
  void start_sequence(const std::string& dir);
  /// Starts a point cache of `num_points` vertices at `path`, one sample per frame from frame 1.
  /// Throws cloth::InputError.
  void start_point_cache(const std::string& path, int num_points);
  /// Stops the OBJ sequence; returns what was written ("" when none ran).
  std::string stop_sequence();
  /// Closes the point cache (numSamples patched in); returns what was written ("" when none ran).
  /// Throws cloth::InputError if the file cannot be finished.
  std::string stop_point_cache();

  /// Writes one frame to each running export. An export that fails is stopped (a point cache is
  /// still closed with the samples it has) and the first failure is thrown as cloth::InputError.
  void add_frame(const cloth::RestMesh& mesh, const cloth::ClothState& state);

  bool sequence_running() const { return sequence_ != nullptr; }
  bool point_cache_running() const { return cache_ != nullptr; }
  std::string sequence_dir() const { return sequence_ ? sequence_->dir() : ""; }
  int sequence_frames() const { return sequence_ ? sequence_->frames() : 0; }
  std::string point_cache_path() const { return cache_ ? cache_->path() : ""; }
  int point_cache_samples() const { return cache_ ? cache_->samples() : 0; }

 private:
  std::unique_ptr<cloth::ObjSequenceWriter> sequence_;
  std::unique_ptr<cloth::PointCacheWriter> cache_;
};

/// Starts what the command line asks for (--export-sequence DIR, --export-pc2 PATH; "" = not
/// asked) for a cloth of `num_points` vertices. Throws cloth::InputError naming the option.
void start_requested_exports(FrameExports& exports, const std::string& sequence_dir,
                             const std::string& pc2_path, int num_points);

}  // namespace app
