// Breen-House-Wozny energy curves and fabric presets (Karthikeyan & Ranganathan 1998, "Repelling
// and Stretching" and "Cloth specific tuning of the model"): the stretch / repel well, the
// curvature of a bent thread from its angle, the Kawabata bending and shear curves, and the
// trellising energy integral.
#include <array>
#include <cmath>

#include "elements/breen_energy.hpp"
#include "core/error.hpp"

namespace cloth {

namespace {

// Sum of an alternating power series sum_{n >= n0} (-1)^n x^p(n) c(n) until the terms stop
// mattering (all the series below are entire and used for |x| <~ 1.6, so this takes < 20 terms).
template <typename Term>
double alternating_series(int n0, const Term& term) {
  double sum = 0;
  for (int n = n0; n < 60; ++n) {
    const double t = term(n);
    sum += (n % 2 ? -t : t);
    if (std::abs(t) <= 1e-18 * std::abs(sum)) break;
  }
  return sum;
}

// J_m(x) = integral_0^x a^m cos(a) da = sum_n (-1)^n x^(2n+m+1) / ((2n)! (2n+m+1)). The series has
// no cancellation for small x, unlike the closed forms (e.g. x sin x + cos x - 1 for m = 1).
double power_cos_integral(int m, double x) {
  return alternating_series(0, [&](int n) {
    return std::pow(x, 2 * n + m + 1) / (std::tgamma(2 * n + 1.0) * (2 * n + m + 1));
  });
}

// Si(t) = sum_n (-1)^n t^(2n+1) / ((2n+1) (2n+1)!).
double sine_integral(double t) {
  return alternating_series(0, [&](int n) { return std::pow(t, 2 * n + 1) / ((2 * n + 1) * std::tgamma(2 * n + 2.0)); });
}

// Ci(t) - gamma - ln t = sum_{n >= 1} (-1)^n t^(2n) / (2n (2n)!).
double cosine_integral_entire(double t) {
  return alternating_series(1, [&](int n) { return std::pow(t, 2 * n) / (2 * n * std::tgamma(2 * n + 1.0)); });
}

// The tutorial's rational branch F = a / (lock - |A|) + b, with a and b matching F and dF/dA of the
// polynomial at fit_end: dF/dA = a / (lock - A)^2 gives a, the value gives b.
struct RationalBranch {
  double a, b;
};

RationalBranch rational_branch(const ShearCurve& c) {
  const double e = c.fit_end, span = c.lock_angle - c.fit_end;
  const double f = c.g1 * e + c.g3 * e * e * e, df = c.g1 + 3 * c.g3 * e * e;
  return {df * span * span, f - df * span};
}

}  // namespace

Curve1D stretch_well(double s) {
  if (s <= 1) return {};
  const double d = s - 1;
  return {d * d * d * d * d, 5 * d * d * d * d, 20 * d * d * d};
}

Curve1D linear_stretch(double s) {
  if (s < 1) return {};  // at s = 1 the tension side's stiffness: a Newton step from rest has one
  return {0.5 * (s - 1) * (s - 1), s - 1, 1};
}

Curve1D repel_well(double s) {
  if (s > 1) return {};
  const double d = 1 - s;  // (1 - s)^5 / s and its derivatives by the quotient rule
  return {d * d * d * d * d / s, -5 * d * d * d * d / s - d * d * d * d * d / (s * s),
          20 * d * d * d / s + 10 * d * d * d * d / (s * s) + 2 * d * d * d * d * d / (s * s * s)};
}

// Circle through p and its two neighbours, both at distance w (the tutorial's fit): the chord
// between the neighbours is 2 w sin(theta/2) and subtends 2 (pi - theta) at the centre, so the
// radius is w / (2 cos(theta/2)). At theta = 0 this gives the finite 2 / w that the tutorial calls
// an anomaly, so below join_angle it uses a / theta + b with a = j^2 sin(j/2) / w (slope) and
// b = (2 cos(j/2) - j sin(j/2)) / w (value), j = join_angle.
Curve1D breen_curvature(double theta, double w, double join_angle) {
  if (theta >= join_angle) {
    const double c = std::cos(theta / 2), s = std::sin(theta / 2);
    return {2 * c / w, -s / w, -c / (2 * w)};
  }
  const double j = join_angle;
  const double a = j * j * std::sin(j / 2) / w;
  const double b = (2 * std::cos(j / 2) - j * std::sin(j / 2)) / w;
  return {a / theta + b, -a / (theta * theta), 2 * a / (theta * theta * theta)};
}

Curve1D bending_moment(const BendingCurve& c, double K) {
  return {c.b1 * K + c.b3 * K * K * K, c.b1 + 3 * c.b3 * K * K, 6 * c.b3 * K};
}

Curve1D shear_force(const ShearCurve& c, double A) {
  const double x = std::abs(A);
  if (x <= c.fit_end) return {c.g1 * A + c.g3 * A * A * A, c.g1 + 3 * c.g3 * A * A, 6 * c.g3 * A};
  const RationalBranch r = rational_branch(c);
  const double sign = A < 0 ? -1.0 : 1.0, t = c.lock_angle - x;
  return {sign * (r.a / t + r.b), r.a / (t * t), sign * 2 * r.a / (t * t * t)};
}

// I(A) = integral_0^|A| F cos. Beyond fit_end, with t = lock - a:
//   integral cos(a) / (lock - a) da from e to x = cos(lock) [Ci(t_e) - Ci(t_x)] + sin(lock) [Si(t_e) - Si(t_x)],
//   integral b cos(a) da = b (sin x - sin e).
Curve1D trellis_energy_density(const ShearCurve& c, double A) {
  const double x = std::abs(A);
  const Curve1D F = shear_force(c, A);
  const double ca = std::cos(A), sa = std::sin(A);
  const Curve1D deriv{0, F.f * ca, F.df * ca - F.f * sa};
  const auto poly = [&](double y) { return c.g1 * power_cos_integral(1, y) + c.g3 * power_cos_integral(3, y); };
  if (x <= c.fit_end) return {poly(x), deriv.df, deriv.d2f};
  const RationalBranch r = rational_branch(c);
  const double te = c.lock_angle - c.fit_end, tx = c.lock_angle - x;
  const double ci = std::log(te / tx) + cosine_integral_entire(te) - cosine_integral_entire(tx);
  const double si = sine_integral(te) - sine_integral(tx);
  const double rational = r.a * (std::cos(c.lock_angle) * ci + std::sin(c.lock_angle) * si) +
                          r.b * (std::sin(x) - std::sin(c.fit_end));
  return {poly(c.fit_end) + rational, deriv.df, deriv.d2f};
}

// Presets. Not in the tutorial: its table of fitted values ("Click here to see table") is a link
// that the text does not contain, and neither are the Kawabata curves it was fitted to. The values
// below are ours, typical KES-F magnitudes for each fabric class (bending rigidity B in gf cm^2/cm,
// shear rigidity G in gf/(cm deg)), ordered as the tutorial's drape results say (cotton is the
// stiff one in bending) and as KES surveys report for shear (polyester/cotton blends are the
// stiffest in shear: Journal of the Textile Institute 84(2), 192-198, 1993). Linear curves
// (b3 = g3 = 0): the non-linear terms need the measured curves. The stretch modulus C (N/m) is the
// class value of the engine's material presets (material_presets.cpp), Y = 490 N/m / EM from the
// KES extensibility EM at 500 gf/cm. docs/models.md has the tables and conversions.
namespace {

struct PresetRow {
  const char* name;
  double kes_bending, kes_shear, stretch;
};
constexpr std::array<PresetRow, 3> kPresets = {{
    {"cotton", 0.15, 1.2, 1.0e4},
    {"wool", 0.08, 0.5, 6.0e3},
    {"polyester-cotton", 0.10, 1.8, 1.2e4},
}};

}  // namespace

const std::vector<std::string>& breen_preset_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const PresetRow& row : kPresets) out.push_back(row.name);
    return out;
  }();
  return names;
}

BreenCurves breen_preset(const std::string& name) {
  constexpr double kBendingUnit = 9.80665e-3 * 1e-4 / 1e-2;                        // gf cm^2/cm -> N m
  constexpr double kShearUnit = 9.80665e-3 / 1e-2 / (3.141592653589793 / 180);  // gf/(cm deg) -> N/m/rad
  for (const PresetRow& row : kPresets) {
    if (name != row.name) continue;
    BreenCurves c;
    c.name = row.name;
    c.well_scale = row.stretch;
    c.warp.b1 = c.weft.b1 = row.kes_bending * kBendingUnit;
    c.shear.g1 = row.kes_shear * kShearUnit;
    return c;
  }
  std::string valid;
  for (const std::string& n : breen_preset_names()) valid += (valid.empty() ? "" : ", ") + n;
  throw InputError("unknown Breen fabric preset '" + name + "' (valid: " + valid + ")");
}

}  // namespace cloth
