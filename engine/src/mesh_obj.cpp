// OBJ meshes through tinyobjloader (no hand-written parser). Rest (u, v) from the file's texture
// coordinates, or from a planar projection when the file has none.
#include <tiny_obj_loader.h>

#include <filesystem>
#include <map>
#include <string>

#include <Eigen/Eigenvalues>

#include "cloth/error.hpp"
#include "cloth/mesh.hpp"

namespace cloth {

namespace {

// Projects the rest shape onto its best-fit plane (the two principal directions of largest
// spread), giving (u, v) in metres that preserve lengths for a flat mesh.
void planar_projection_uv(RestMesh& mesh) {
  Vec3 mean = Vec3::Zero();
  for (const Vec3& p : mesh.positions) mean += p;
  mean /= static_cast<double>(mesh.positions.size());
  Eigen::Matrix3d cov = Eigen::Matrix3d::Zero();
  for (const Vec3& p : mesh.positions) cov += (p - mean) * (p - mean).transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(cov);  // eigenvalues ascending
  const Vec3 e_u = eig.eigenvectors().col(2);
  const Vec3 e_v = eig.eigenvectors().col(1);
  mesh.uv.clear();
  mesh.uv.reserve(mesh.positions.size());
  for (const Vec3& p : mesh.positions) mesh.uv.emplace_back((p - mean).dot(e_u), (p - mean).dot(e_v));
}

}  // namespace

RestMesh load_obj(const std::string& path) {
  if (!std::filesystem::exists(path)) throw InputError("mesh file not found: " + path);

  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(path, config)) {
    std::string why = reader.Error();
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    for (char& ch : why) if (ch == '\n') ch = ' ';
    throw InputError("cannot read mesh " + path + ": " + (why.empty() ? "parse error" : why));
  }
  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  const size_t n = attrib.vertices.size() / 3;
  if (n == 0) throw InputError("mesh " + path + " has no vertices");

  RestMesh mesh;
  mesh.positions.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    mesh.positions.emplace_back(attrib.vertices[3 * i], attrib.vertices[3 * i + 1],
                                attrib.vertices[3 * i + 2]);
  }
  // A cloth vertex has exactly one rest (u, v). OBJ indexes texcoords per face corner, so a
  // vertex on a texture seam would have two; we then fall back to the planar projection.
  std::vector<int> texcoord_of(n, -1);
  bool texcoords_usable = !attrib.texcoords.empty();
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    const auto& idx = shape.mesh.indices;
    for (size_t c = 0; c + 2 < idx.size(); c += 3) {
      std::array<int, 3> tri{};
      for (int k = 0; k < 3; ++k) {
        const tinyobj::index_t& id = idx[c + k];
        if (id.vertex_index < 0 || static_cast<size_t>(id.vertex_index) >= n) {
          throw InputError("mesh " + path + " has a face with a vertex index out of range");
        }
        tri[k] = id.vertex_index;
        if (id.texcoord_index < 0) {
          texcoords_usable = false;
        } else if (texcoord_of[id.vertex_index] < 0) {
          texcoord_of[id.vertex_index] = id.texcoord_index;
        } else if (texcoord_of[id.vertex_index] != id.texcoord_index) {
          texcoords_usable = false;
        }
      }
      mesh.triangles.push_back(tri);
    }
  }
  if (mesh.triangles.empty()) throw InputError("mesh " + path + " has no faces");
  for (int t : texcoord_of) texcoords_usable = texcoords_usable && t >= 0;

  if (texcoords_usable) {
    mesh.uv.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      const int t = texcoord_of[i];
      mesh.uv.emplace_back(attrib.texcoords[2 * t], attrib.texcoords[2 * t + 1]);
    }
  } else {
    planar_projection_uv(mesh);
  }
  validate_mesh(mesh, path);
  return mesh;
}

}  // namespace cloth
