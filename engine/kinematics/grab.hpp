#pragma once
// The mouse grab: how the user's cursor holds one vertex, placed kinematically or pulled by a
// spring (the "mouse forces" among Baraff & Witkin's external forces, section 2).
#include <optional>

#include "core/vec.hpp"

namespace cloth {

/// How the mouse holds a vertex.
enum class GrabMode {
  Kinematic,  ///< the vertex is placed: moved towards the cursor, at most Grab::max_speed fast
  Spring,     ///< B&W sec. 2's "mouse forces": a damped zero-length spring pulls it there
};

/// The mouse grab's settings (MouseGrab::set_settings validates them).
struct GrabSettings {
  GrabMode mode = GrabMode::Kinematic;
  /// Spring mode: k, N/m. 100 N/m lets a 1 m^2 cotton cloth (0.15 kg, 1.5 N) hang 1.5 cm below
  /// the cursor and denim (0.4 kg) 4 cm: a firm hand that still shows the cloth's weight.
  double stiffness = 100.0;
  /// Spring mode: c, N*s/m, on the grabbed vertex's absolute velocity. Keep h c / m_vertex < 2
  /// for the explicit integrators (a 64^2 cotton cloth's vertex is 3.6e-5 kg; at h = 1/6000 s,
  /// 0.05 N*s/m gives 0.23).
  double damping = 0.05;
};

/// A vertex held by the mouse: placed kinematically towards `target`, at most max_speed fast, or
/// pulled there by the spring f = k (target - x) - c v (GrabSettings).
struct Grab {
  int vertex = -1;
  Vec3 target = Vec3::Zero();  ///< m
  double max_speed = 20.0;     ///< m/s; keeps a fast mouse from teleporting the vertex (kinematic)
  GrabSettings settings;
  bool kinematic() const { return settings.mode == GrabMode::Kinematic; }
  /// The spring's force on the grabbed vertex at (x, v), N; dF/dx = -k I, dF/dv = -c I.
  Vec3 spring_force(const Vec3& x, const Vec3& v) const {
    return settings.stiffness * (target - x) - settings.damping * v;
  }
};

/// Where a kinematically grabbed vertex goes in a substep of length h starting from `from`:
/// towards the cursor, at most max_speed * h away, so a fast mouse flick cannot inject an
/// arbitrarily large displacement into one substep. Shared by every integrator.
Vec3 grab_destination(const Grab& grab, const Vec3& from, double h);

/// The simulation's mouse: at most one grabbed vertex and the settings the next grab takes.
/// Settings are kept when the simulation is reset; the grab itself is not.
class MouseGrab {
 public:
  /// The cloth's vertex count: a grab is limited to its vertices. A grab in progress ends when
  /// its vertex is gone.
  void set_vertex_count(int count);
  /// Holds `vertex` at `target`, m, until released. Ignored for a vertex out of range or a
  /// non-finite target.
  void grab(int vertex, const Vec3& target);
  /// Moves the held vertex's target, m (ignored when nothing is held or it is not finite).
  void move(const Vec3& target);
  void release() { grab_.reset(); }
  /// The vertex held now, if any.
  const std::optional<Grab>& current() const { return grab_; }

  /// Kinematic or spring grab and the spring's k, c; also changes a grab in progress. Throws
  /// InputError for a stiffness outside (0, 1e6] N/m or a damping outside [0, 1e3] N*s/m (NaN
  /// included).
  void set_settings(const GrabSettings& settings);
  const GrabSettings& settings() const { return settings_; }

 private:
  std::optional<Grab> grab_;
  GrabSettings settings_;
  int vertex_count_ = 0;
};

}  // namespace cloth
