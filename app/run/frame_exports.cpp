#include "run/frame_exports.hpp"

#include <exception>

#include "core/error.hpp"

namespace app {

void FrameExports::start_sequence(const std::string& dir) {
  sequence_ = std::make_unique<cloth::ObjSequenceWriter>(dir);
}

void FrameExports::start_point_cache(const std::string& path, int num_points) {
  cache_.reset();  // a running cache is finished first: never two writers on one file
  cache_ = std::make_unique<cloth::PointCacheWriter>(path, num_points);
}

std::string FrameExports::stop_sequence() {
  if (!sequence_) return "";
  const std::string line =
      "wrote " + std::to_string(sequence_->frames()) + " OBJ frames to " + sequence_->dir();
  sequence_.reset();
  return line;
}

std::string FrameExports::stop_point_cache() {
  if (!cache_) return "";
  const std::unique_ptr<cloth::PointCacheWriter> cache = std::move(cache_);
  cache->close();
  return "wrote point cache " + cache->path() + " (" + std::to_string(cache->samples()) +
         " frames, " + std::to_string(cache->num_points()) + " vertices)";
}

void FrameExports::add_frame(const cloth::RestMesh& mesh, const cloth::ClothState& state) {
  std::string failure;
  if (sequence_) {
    try {
      sequence_->add_frame(mesh, state);
    } catch (const std::exception& e) {
      failure = e.what();
      sequence_.reset();
    }
  }
  if (cache_) {
    try {
      cache_->add_sample(state.x);
    } catch (const std::exception& e) {
      if (failure.empty()) failure = e.what();
      cache_.reset();  // its destructor closes it with the samples it has
    }
  }
  if (!failure.empty()) throw cloth::InputError(failure);
}

void start_requested_exports(FrameExports& exports, const std::string& sequence_dir,
                             const std::string& pc2_path, int num_points) {
  try {
    if (!sequence_dir.empty()) exports.start_sequence(sequence_dir);
  } catch (const cloth::InputError& e) {
    throw cloth::InputError(std::string("--export-sequence: ") + e.what());
  }
  try {
    if (!pc2_path.empty()) exports.start_point_cache(pc2_path, num_points);
  } catch (const cloth::InputError& e) {
    throw cloth::InputError(std::string("--export-pc2: ") + e.what());
  }
}

}  // namespace app
