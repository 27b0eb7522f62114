#pragma once
// Long-range attachments (T. Kim, N. Chentanez, M. Müller, "Long Range Attachments - A Method to
// Simulate Inextensible Clothing in Computer Games", SCA 2012): a strain limiter for the
// position-based integrators (xpbd, vbd), whose few iterations per step let a hanging cloth
// stretch far beyond its material (their pins' pull spreads one ring of vertices per sweep). Not
// for projective: applied after its local-global iterations on the 24 x 24 hanging test it raised
// the largest edge strain from 3% to 75% (LongRangeHanging), a conflict with its global step not
// yet understood; its prefactored solve already holds that cloth to 3%. Each free
// vertex is tethered to its nearest pinned vertex: after the iterations, a vertex farther than
// (1 + slack) L from that pin is moved back onto the sphere of that radius around it, a one-sided
// constraint that never pulls (sec. 4). The pin is the nearest along the mesh's edges and L the
// rest length of that shortest path of edges (Dijkstra), sec. 4.2's geodesic measured on the mesh:
// by the triangle inequality along the path, no vertex of a mesh whose edges are stretched by at
// most s can be farther than (1 + s) L from the pin, so the tethers never forbid what the edges
// allow. The straight rest distance would: it forbids the trellis shear that lets a woven cloth's
// diagonal lengthen with no thread stretched (on the 24 x 24 hanging test it tripled the
// projective step's strain). Moving pins are followed: the tether is to where the pin is now.
// With no pin nothing is tethered.
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "model/state.hpp"

namespace cloth {

class LongRangeAttachments {
 public:
  /// Rebuilds the tethers when the pinned set or the mesh's edges changed since the last call
  /// (a Ctrl+click pin, a tear); otherwise keeps them.
  void update(const ClothModel& model, const std::vector<std::uint8_t>& pinned);

  /// Moves each tethered vertex farther than (1 + slack) L from its pin back to that distance,
  /// along the line to the pin. Returns the number of vertices moved.
  int apply(std::vector<Vec3>& x, double slack) const;

  /// What the integrators call after their iterations: with slack >= 0, update then apply; a
  /// negative slack (the switch off) does nothing. Returns the number of vertices moved.
  int enforce(const ClothModel& model, const std::vector<std::uint8_t>& pinned, double slack,
              std::vector<Vec3>& x);

  /// The pin each vertex is tethered to (-1: pinned itself, or no pin reachable) and the rest
  /// distance L, m: what the tests read.
  const std::vector<int>& anchors() const { return anchor_; }
  const std::vector<double>& lengths() const { return length_; }

 private:
  std::vector<int> anchor_;
  std::vector<double> length_;
  std::vector<std::uint8_t> pinned_;  ///< the pinned set the tethers were built for
  std::vector<Edge> edges_;           ///< and the edges
};

}  // namespace cloth
