#include "io/point_cache.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"

namespace cloth {
namespace {

constexpr std::array<char, 12> kSignature = {'P', 'O', 'I', 'N', 'T', 'C',
                                             'A', 'C', 'H', 'E', '2', '\0'};
constexpr std::int32_t kVersion = 1;
constexpr std::streamoff kHeaderBytes = 32;
constexpr std::streamoff kNumSamplesOffset = 28;

// The format is little-endian whatever the machine: bytes are placed one by one.
void put_u32(char* out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out[k] = static_cast<char>((v >> (8 * k)) & 0xffu);
}
void put_i32(char* out, std::int32_t v) {
  put_u32(out, static_cast<std::uint32_t>(v));
}
void put_f32(char* out, float v) {
  put_u32(out, std::bit_cast<std::uint32_t>(v));
}

std::uint32_t get_u32(const char* in) {
  std::uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v |= std::uint32_t(static_cast<unsigned char>(in[k])) << (8 * k);
  return v;
}
std::int32_t get_i32(const char* in) {
  return static_cast<std::int32_t>(get_u32(in));
}
float get_f32(const char* in) {
  return std::bit_cast<float>(get_u32(in));
}

}  // namespace

PointCacheWriter::PointCacheWriter(const std::string& path, int num_points, float start_frame,
                                   float sample_rate)
    : path_(path), num_points_(num_points) {
  if (num_points < 1) throw InputError("point cache " + path + ": no vertices to write");
  if (!std::isfinite(start_frame) || !std::isfinite(sample_rate) || sample_rate <= 0)
    throw InputError("point cache " + path +
                     ": start frame and sample rate must be finite, the rate positive");
  out_.open(path, std::ios::binary | std::ios::trunc);
  if (!out_) throw InputError("cannot write " + path);
  char header[kHeaderBytes];
  std::memcpy(header, kSignature.data(), kSignature.size());
  put_i32(header + 12, kVersion);
  put_i32(header + 16, num_points);
  put_f32(header + 20, start_frame);
  put_f32(header + 24, sample_rate);
  put_i32(header + kNumSamplesOffset, 0);
  out_.write(header, kHeaderBytes);
  if (!out_) throw InputError("error while writing " + path);
  buffer_.resize(size_t(num_points) * 12);
}

PointCacheWriter::~PointCacheWriter() {
  try {
    close();
  } catch (const InputError&) {
  }
}

void PointCacheWriter::add_sample(const std::vector<Vec3>& positions) {
  if (!out_.is_open()) throw InputError("point cache " + path_ + " is closed");
  if (positions.size() != size_t(num_points_))
    throw InputError("point cache " + path_ + ": the cloth has " +
                     std::to_string(positions.size()) + " vertices, the cache " +
                     std::to_string(num_points_) +
                     " (a torn or rebuilt cloth cannot go on in one cache)");
  char* p = buffer_.data();
  for (const Vec3& x : positions) {
    for (int k = 0; k < 3; ++k, p += 4) put_f32(p, static_cast<float>(x[k]));
  }
  out_.write(buffer_.data(), std::streamsize(buffer_.size()));
  if (!out_) throw InputError("error while writing " + path_);
  ++samples_;
}

void PointCacheWriter::close() {
  if (!out_.is_open()) return;
  char count[4];
  put_i32(count, samples_);
  out_.seekp(kNumSamplesOffset);
  out_.write(count, 4);
  out_.close();
  if (out_.fail()) throw InputError("error while writing " + path_);
}

PointCache read_point_cache(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path);
  char header[kHeaderBytes];
  if (!in.read(header, kHeaderBytes)) throw InputError(path + ": shorter than a PC2 header");
  if (std::memcmp(header, kSignature.data(), kSignature.size()) != 0)
    throw InputError(path + ": not a PC2 file (no POINTCACHE2 signature)");
  PointCache cache;
  cache.version = get_i32(header + 12);
  cache.num_points = get_i32(header + 16);
  cache.start_frame = get_f32(header + 20);
  cache.sample_rate = get_f32(header + 24);
  cache.num_samples = get_i32(header + kNumSamplesOffset);
  if (cache.num_points < 0 || cache.num_samples < 0)
    throw InputError(path + ": negative count in the PC2 header");
  const std::uintmax_t values =
      std::uintmax_t(cache.num_points) * std::uintmax_t(cache.num_samples) * 3;
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error || size != std::uintmax_t(kHeaderBytes) + 4 * values)
    throw InputError(path + ": size does not match the PC2 header's counts");
  std::vector<char> bytes(4 * values);
  if (!in.read(bytes.data(), std::streamsize(bytes.size())))
    throw InputError("cannot read " + path);
  cache.positions.resize(values);
  for (size_t k = 0; k < values; ++k) cache.positions[k] = get_f32(bytes.data() + 4 * k);
  return cache;
}

}  // namespace cloth
