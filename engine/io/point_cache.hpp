#pragma once
// PC2 point caches ("Point Cache 2", the format Blender's Mesh Cache modifier and 3ds Max read):
// a 32-byte header, then one sample per frame of every vertex's position, all little-endian:
//   char[12] "POINTCACHE2\0", int32 version (1), int32 numPoints, float32 startFrame,
//   float32 sampleRate (frames between samples), int32 numSamples,
//   numSamples x numPoints x 3 float32 (x, y, z).
// Samples are written as they come and numSamples is patched on close, so a long run never
// holds its frames in memory.
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "core/vec.hpp"

namespace cloth {

class PointCacheWriter {
 public:
  /// Creates `path` (replacing it) with a header of zero samples. Throws InputError if it cannot
  /// be written, or if num_points < 1 or the frame numbers are not finite (sample_rate > 0).
  PointCacheWriter(const std::string& path, int num_points, float start_frame = 1.0f,
                   float sample_rate = 1.0f);
  /// Closes the file as close() does; a failure here is lost (call close() to see it).
  ~PointCacheWriter();
  PointCacheWriter(const PointCacheWriter&) = delete;
  PointCacheWriter& operator=(const PointCacheWriter&) = delete;

  /// Appends one sample (positions in m, rounded to float). Throws InputError if the vertex count
  /// is not num_points (a torn cloth), or on a write error.
  void add_sample(const std::vector<Vec3>& positions);
  /// Writes numSamples into the header and closes the file; later calls do nothing. Throws
  /// InputError on a write error.
  void close();

  const std::string& path() const { return path_; }
  int num_points() const { return num_points_; }
  int samples() const { return samples_; }
  bool is_open() const { return out_.is_open(); }

 private:
  std::string path_;
  std::ofstream out_;
  int num_points_ = 0;
  int samples_ = 0;
  std::vector<char> buffer_;  ///< one sample's bytes, reused
};

/// A PC2 file as read back.
struct PointCache {
  std::int32_t version = 0;
  std::int32_t num_points = 0;
  float start_frame = 0;
  float sample_rate = 0;
  std::int32_t num_samples = 0;
  std::vector<float> positions;  ///< num_samples x num_points x 3, sample-major

  /// Vertex i of sample s.
  Vec3 point(int s, int i) const {
    const size_t k = (size_t(s) * size_t(num_points) + size_t(i)) * 3;
    return Vec3(positions[k], positions[k + 1], positions[k + 2]);
  }
};

/// Reads a PC2 file. Throws InputError on a missing file, a wrong signature, a negative count or a
/// size that does not match the header.
PointCache read_point_cache(const std::string& path);

}  // namespace cloth
