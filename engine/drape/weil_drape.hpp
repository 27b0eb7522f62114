#pragma once
// Weil's geometric drape (J. Weil, "The Synthesis of Cloth Objects", SIGGRAPH 1986, as described
// in Karthikeyan & Ranganathan 1998, "Tutorial on Cloth Modelling", sections "The work of
// Weil" and "Another geometric method"): a cloth hanging from a few constraint points, shaped
// without any physics of the cloth itself.
//
//  1. The cloth's border between two consecutive constraint points hangs as a cable: a catenary
//     "y = a cosh(x/b)" in the vertical plane through the two points, with the arc length of the
//     border at rest (the cloth is taken as inextensible: "we totally ignore the fact that the
//     cloth stretches"). Rest lengths are (u, v) distances, times Baraff-Witkin's rest stretch
//     b_u, b_v for that model.
//  2. On a grid with as many vertices along both sides (so that its diagonals run through
//     vertices) whose opposite corners are both held, the diagonals hang as catenaries
//     too (Weil: "we fit catenary curves between the 2 diagonals"). "These two will naturally
//     intersect. What we have to do is find a resultant curve, but to simplify matters we will
//     just ignore the lower of the two curves": when both are hung and their heights where they
//     cross differ (by more than 1e-9 of the diagonal's length), only the higher one is kept;
//     when they meet, both are, and a vertex they share takes their average (the tutorial's
//     "we take either the average" for its six curves).
//  3. Every other point is the average of its four grid neighbours,
//     H(i,j) = (H(i,j-1) + H(i,j+1) + H(i-1,j) + H(i+1,j)) / 4, iterated in place until
//     "abs(H^k - H^k+1) <= minvalue" (the tutorial's appendix program). We average all three
//     coordinates, not the height alone: with the tutorial's borders (horizontal positions linear
//     along each side) the horizontal coordinates are already a fixed point of the averaging, so
//     this is the tutorial's scheme; on our catenaries, parametrised by arc length, it also places
//     the points horizontally (a discrete harmonic map of the wireframe).
//
// Solids, the material and stretch play no part. The shape is a quick, plausible start for a
// dynamic run or a physical drape, not an equilibrium. SI units throughout.
#include <functional>
#include <string>
#include <vector>

#include "drape/static_drape.hpp"
#include "core/vec.hpp"

namespace cloth {

/// The name of Weil's model among the drape methods (--drape, the app's list).
inline constexpr char kGeometricDrapeName[] = "geometric";

/// A uniform inextensible cable of arc length `length` hanging between two points under
/// gravity: y = a cosh((x - x_m)/a) + c in the vertical plane through them, x horizontal.
/// The one unknown is t = d / (2a) (d the horizontal span, v the rise from p0 to p1), the root of
/// sinh(t)/t = sqrt(L^2 - v^2)/d, found by Newton's method inside a bracket; everything else is
/// closed form, written so that it stays accurate as a -> infinity (L just above the chord).
/// Limits: a taut string (L at most the chord, down to 1e-9 relative below it for round-off in
/// the pins) is the straight segment; ends on one vertical line (d at most 1e-12 of L) hang as a
/// doubled vertical line, the catenary's limit as a -> 0.
class Catenary {
 public:
  /// Throws InputError (one line) for non-finite input, zero gravity, a non-positive length, or
  /// a length shorter than the chord |p1 - p0| by more than 1e-9 relative (the cable would have
  /// to stretch; we reject rather than clamp, so a mistake in the pins is seen).
  Catenary(const Vec3& p0, const Vec3& p1, double length, const Vec3& gravity);

  /// The point at arc length s from p0 (s in [0, length]); at(0) = p0, at(length) = p1 to
  /// round-off (exactly for a taut string).
  Vec3 at(double s) const;

  double length() const { return length_; }
  bool taut() const { return kind_ == Kind::Taut; }
  /// a, m: the radius of curvature at the lowest point; infinite when taut, 0 for the vertical fold.
  double parameter() const { return a_; }

 private:
  enum class Kind { Taut, Hanging, Fold };
  Kind kind_ = Kind::Taut;
  Vec3 p0_, p1_;
  Vec3 up_ = Vec3::Zero();      ///< -gravity / |gravity|
  Vec3 across_ = Vec3::Zero();  ///< horizontal span p0 -> p1 (length d), m
  double length_ = 0;           ///< L, m
  double rise_ = 0;             ///< v = (p1 - p0) . up, m
  double a_ = 0;                ///< m
  double u0_ = 0;               ///< (0 - x_m) / a: the curve's parameter at p0
};

struct WeilOptions {
  double tolerance = 1e-9;  ///< minvalue: stop when no point moved more than this in a sweep, m
  int max_sweeps = 1000000;
  bool diagonals = true;    ///< hang the diagonals of an n x n grid whose opposite corners are held
  /// Called after every averaging sweep with its number and largest move (m); may be empty. An
  /// exception thrown here ends the solve (the app's cancel).
  std::function<void(int sweep, double change)> on_sweep;
};

struct WeilResult {
  std::vector<Vec3> x;          ///< positions, m
  bool converged = false;       ///< the last sweep moved no point more than the tolerance
  int catenaries = 0;           ///< curves hung (borders between constraint points, diagonals)
  int sweeps = 0;               ///< averaging sweeps done
  std::vector<double> changes;  ///< largest move of each sweep, m
};

/// Weil's shape for the problem's cloth: a generated grid whose pinned vertices (at least two on
/// its border) are the constraint points, held at problem.start; free points start from
/// problem.start too. Throws InputError (one line) for a mesh that is not a generated grid, fewer
/// than two pinned border vertices, a stretch of border or diagonal shorter than the distance
/// between its constraint points, zero gravity, or a bad tolerance / sweep cap.
WeilResult weil_drape(const DrapeProblem& problem, const WeilOptions& options);

/// weil_drape reported like the physical methods, for the CLI and the app: iterations and
/// fine_sweeps = averaging sweeps, converged = the averaging converged, and energy and max_force
/// those of the shape under the problem's physical model (drape_energy, drape_max_force: how far
/// Weil's shape is from an equilibrium). history stays empty.
DrapeResult geometric_drape(const DrapeProblem& problem, const WeilOptions& options);

}  // namespace cloth
