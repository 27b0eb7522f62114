// OBJ meshes through tinyobjloader (no hand-written parser). Rest (u, v) from the file's texture
// coordinates, or from a planar projection when the file has none.
//
// tinyobjloader is lenient in ways a simulation cannot afford: a number it cannot read ("nan",
// "inf", "1,5") silently becomes 0, faces with a bad index are dropped with a warning, texture
// indices are not range-checked, and its ear clipping is cubic in a polygon's corner count. Its
// number parser also has undefined behaviour on some input (see has_long_exponent). So the file is
// read here under a size limit, its number fields and polygon sizes are checked first, and only
// then is the text handed to the parser.
#include <tiny_obj_loader.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <Eigen/Eigenvalues>

#include "core/error.hpp"
#include "mesh/mesh.hpp"

namespace cloth {

namespace {

constexpr std::uintmax_t kMaxObjBytes = 256u << 20;  // ~4M grid vertices as text; more is a mistake
constexpr int kMaxFaceCorners = 64;                   // triangulation is O(corners^3)
constexpr double kMaxObjCoordinate = 1e6;             // m (or texture units): beyond any cloth
constexpr size_t kMaxExponentDigits = 4;              // doubles end at 1e308: 3 digits suffice

std::string read_limited(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError("mesh file not found: " + path);
  // A FIFO or a device such as /dev/zero would block or never end.
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError("mesh " + path + " is not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxObjBytes) {
    throw InputError("mesh " + path + " is larger than the " + std::to_string(kMaxObjBytes >> 20) + " MiB limit");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open mesh " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Whether `token` is a plain decimal number (what tinyobjloader reads) that is finite and of
// sane magnitude.
bool is_coordinate(std::string_view token) {
  if (token.empty() || token.find_first_not_of("0123456789+-.eE") != std::string_view::npos) return false;
  if (token.front() == '+') token.remove_prefix(1);  // from_chars takes no '+'
  double value = 0;
  const auto [end, err] = std::from_chars(token.data(), token.data() + token.size(), value);
  return err == std::errc() && end == token.data() + token.size() && std::abs(value) <= kMaxObjCoordinate;
}

// Whether `text` holds an exponent ('e' or 'E', an optional sign, digits) of more than
// kMaxExponentDigits digits. tinyobjloader's tryParseDouble sums a number's exponent digits in an
// int, and its overflow guard lets one digit too many through: "0e-2147483648" overflows it
// (undefined behaviour, found by the OBJ fuzzer). from_chars reads that number as a harmless 0,
// so is_coordinate alone does not catch it.
bool has_long_exponent(std::string_view text) {
  for (size_t e = text.find_first_of("eE"); e != std::string_view::npos; e = text.find_first_of("eE", e + 1)) {
    size_t p = e + 1;
    if (p < text.size() && (text[p] == '+' || text[p] == '-')) ++p;
    size_t digits = 0;
    while (p + digits < text.size() && text[p + digits] >= '0' && text[p + digits] <= '9') ++digits;
    if (digits > kMaxExponentDigits) return true;
  }
  return false;
}

// Checks the lines tinyobjloader would read leniently: v / vt / vn number fields and the corner
// count of f lines; and the lines whose numbers its parser reads at all (v, vt, vn, t) for
// exponents it would overflow on. Line breaks and keywords follow tinyobjloader's own rules
// ("\n", "\r" or "\r\n" end a line; a keyword is the line's first field).
void check_obj_text(const std::string& text, const std::string& path) {
  int line_no = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find_first_of("\r\n", start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    ++line_no;
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    line.remove_prefix(first);
    const std::string_view key = line.substr(0, line.find_first_of(" \t"));
    const std::string where = "mesh " + path + " line " + std::to_string(line_no);
    // tinyobjloader's skin weights (an extension, no cloth uses them) convert numbers to int with
    // no range check: "vw 0 1e30 1" is undefined behaviour.
    if (key == "vw") throw InputError(where + ": 'vw' (skin weights) is not supported");
    // The whole line, comment included: tinyobjloader does not stop at a '#' inside a line.
    if ((key == "v" || key == "vt" || key == "vn" || key == "t") && has_long_exponent(line)) {
      throw InputError(where + ": a number with an exponent of more than " +
                       std::to_string(kMaxExponentDigits) + " digits");
    }

    line = line.substr(0, line.find('#'));
    std::vector<std::string_view> fields;
    for (size_t p = 0; p < line.size();) {
      const size_t q = std::min(line.find_first_of(" \t", p), line.size());
      if (q > p) fields.push_back(line.substr(p, q - p));
      p = q + 1;
    }
    if (key == "f" && fields.size() - 1 > kMaxFaceCorners) {
      throw InputError(where + ": a face with " + std::to_string(fields.size() - 1) +
                       " corners (at most " + std::to_string(kMaxFaceCorners) + ")");
    }
    const size_t needed = key == "v" ? 3 : key == "vt" ? 2 : key == "vn" ? 3 : 0;
    if (needed == 0) continue;
    if (fields.size() - 1 < needed) {
      throw InputError(where + ": '" + std::string(key) + "' needs " + std::to_string(needed) + " numbers");
    }
    for (size_t k = 1; k < fields.size(); ++k) {
      if (!is_coordinate(fields[k])) {
        throw InputError(where + ": '" + std::string(fields[k]) +
                         "' is not a finite number of magnitude at most 1e6");
      }
    }
  }
}

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

// tinyobjloader's messages span several lines; ours are one.
std::string flatten(std::string why) {
  while (!why.empty() && (why.back() == '\n' || why.back() == '\r' || why.back() == '.')) why.pop_back();
  for (char& ch : why) if (ch == '\n' || ch == '\r') ch = ' ';
  return why;
}

}  // namespace

ObjGeometry read_obj(const std::string& path) {
  const std::string text = read_limited(path);
  check_obj_text(text, path);

  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  // From text, with no material file: materials are not used, and `mtllib` must not make the
  // parser open arbitrary paths.
  if (!reader.ParseFromString(text, "", config)) {
    const std::string why = flatten(reader.Error());
    throw InputError("cannot read mesh " + path + ": " + (why.empty() ? "parse error" : why));
  }
  // Polygons with a bad index and faces of fewer than three corners are dropped, with only a
  // warning ("Degenerated face", "Face with invalid vertex index"): a mesh with a silently
  // missing face is a wrong mesh. (Bad indices of the faces it keeps are checked below.)
  std::string warning = reader.Warning();
  std::transform(warning.begin(), warning.end(), warning.begin(), [](unsigned char c) { return std::tolower(c); });
  if (warning.find("face") != std::string::npos) {
    throw InputError("mesh " + path + " has a bad face: " + flatten(reader.Warning()));
  }
  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  const size_t n = attrib.vertices.size() / 3;
  const size_t n_texcoords = attrib.texcoords.size() / 2;
  if (n == 0) throw InputError("mesh " + path + " has no vertices");

  ObjGeometry mesh;
  mesh.positions.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    mesh.positions.emplace_back(attrib.vertices[3 * i], attrib.vertices[3 * i + 1],
                                attrib.vertices[3 * i + 2]);
  }
  // A cloth vertex has exactly one rest (u, v). OBJ indexes texcoords per face corner, so a
  // vertex on a texture seam would have two; we then fall back to the planar projection.
  std::vector<int> texcoord_of(n, -1);
  bool texcoords_usable = n_texcoords > 0;
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    const auto& idx = shape.mesh.indices;
    for (size_t c = 0; c + 2 < idx.size(); c += 3) {
      std::array<int, 3> tri{};
      for (int k = 0; k < 3; ++k) {
        const tinyobj::index_t& id = idx[c + k];
        if (id.vertex_index < 0 || static_cast<size_t>(id.vertex_index) >= n) {
          throw InputError("mesh " + path + " has a face with a vertex index out of range");
        }
        if (id.texcoord_index >= 0 && static_cast<size_t>(id.texcoord_index) >= n_texcoords) {
          throw InputError("mesh " + path + " has a face with a texture coordinate index out of range");
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
  }
  return mesh;
}

RestMesh load_obj(const std::string& path) {
  ObjGeometry obj = read_obj(path);
  RestMesh mesh;
  mesh.positions = std::move(obj.positions);
  mesh.triangles = std::move(obj.triangles);
  mesh.uv = std::move(obj.uv);
  if (mesh.uv.empty()) planar_projection_uv(mesh);
  validate_mesh(mesh, path);
  return mesh;
}

}  // namespace cloth
