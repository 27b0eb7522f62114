#pragma once
// The simulation's pins: vertices held still, pins on scripted paths and vertices that slide on
// a line or plane (Baraff & Witkin 1998, section 5.1), as the scene set them and as the user
// changed them since.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/vec.hpp"
#include "kinematics/kinematic_constraints.hpp"
#include "kinematics/kinematics.hpp"

namespace cloth {

class PinSet {
 public:
  PinSet() = default;
  /// `pinned_vertices` held where the cloth starts. Throws InputError for a vertex outside
  /// [0, vertex_count).
  PinSet(int vertex_count, const std::vector<int>& pinned_vertices);

  /// The scene's pins on paths and line / plane vertices, from the next restart on. Moving-pin
  /// vertices become pinned. Throws InputError for a vertex out of range, a bad path, a zero
  /// direction, a vertex that starts more than 1 mm off its line / plane (at `rest`), or a vertex
  /// given two such constraints.
  void set_paths(std::vector<MovingPin> moving_pins, std::vector<SlideConstraint> slides,
                 const std::vector<Vec3>& rest);
  /// Back to the scene's pins, held at `start` (the cloth's initial positions).
  void restart(const std::vector<Vec3>& start);

  /// Pins `vertex` at `at`, or releases it; either way a moving pin on it stops following its path.
  void set_pinned(int vertex, bool pinned, const Vec3& at);
  /// Every pinned vertex held where `x` puts it (the cloth placed as a whole).
  void hold_at(const std::vector<Vec3>& x);
  /// After the mesh was cut: vertex v of the new mesh takes its pin position from vertex
  /// parent[v]; only the vertices that kept their index keep their pin.
  void remap(const std::vector<int>& parent);

  bool is_pinned(int vertex) const { return pinned_[size_t(vertex)] != 0; }
  int pinned_count() const;
  const std::vector<MovingPin>& moving_pins() const { return moving_pins_; }
  const std::vector<SlideConstraint>& slides() const { return slides_; }
  /// The pins for one step, with the mouse's grab.
  Kinematics for_step(const std::optional<Grab>& grab) const;

 private:
  std::vector<std::uint8_t> initial_pinned_;
  std::vector<MovingPin> initial_moving_pins_;
  std::vector<std::uint8_t> pinned_;  ///< 1 = held at pin_positions_
  std::vector<Vec3> pin_positions_;   ///< m
  std::vector<MovingPin> moving_pins_;
  std::vector<SlideConstraint> slides_;
};

}  // namespace cloth
