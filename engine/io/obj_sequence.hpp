#pragma once
// An OBJ per frame for animation tools: DIR/frame_00001.obj, frame_00002.obj, ... Each file holds
// positions (m), area-weighted vertex normals, texture coordinates and faces `f a/a/a`.
#include <string>
#include <vector>

#include "mesh/mesh.hpp"
#include "model/state.hpp"

namespace cloth {

/// Texture coordinates of the rest mesh: its (u, v) mapped onto [0, 1] per axis (u - u_min) /
/// (u_max - u_min), so a grid's vertex (i, j) gets (i / (nx - 1), j / (ny - 1)). An axis of zero
/// extent maps to 0.
std::vector<Vec2> normalized_uv(const RestMesh& mesh);

/// Writes one frame: `v` (positions), `vn` (vertex_normals), `vt` (normalized_uv), then `f a/a/a`
/// (1-based; vertex, texture and normal share the index). Throws InputError if `path` cannot be
/// written.
void write_obj_frame(const std::string& path, const RestMesh& mesh, const ClothState& state);

class ObjSequenceWriter {
 public:
  /// Creates `dir` (and its parents) when missing. Throws InputError when it cannot be created or
  /// is not a directory.
  explicit ObjSequenceWriter(const std::string& dir);

  /// Writes the next frame, DIR/frame_NNNNN.obj numbered from 1 (five digits, more past 99999).
  void add_frame(const RestMesh& mesh, const ClothState& state);

  const std::string& dir() const { return dir_; }
  int frames() const { return frames_; }
  /// The file of frame k (1-based).
  std::string frame_path(int k) const;

 private:
  std::string dir_;
  int frames_ = 0;
};

}  // namespace cloth
