// Filtered exact orient2d / orient3d. The filter is Shewchuk's error bound A; the exact fallback
// evaluates the determinant as a nonoverlapping expansion (Two-Sum / Two-Product via fma) with
// zero elimination, so exactly-degenerate inputs (e.g. a flat cloth) stay cheap.
#include "geometry/exact_predicates.hpp"

#include <cmath>

// The error-free transformations below must not be contracted into fused multiply-adds.
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace cloth {
namespace {

constexpr double kEps = 1.1102230246251565e-16;  // 2^-53, half an ulp of 1
constexpr double kCcwErrBoundA = (3.0 + 16.0 * kEps) * kEps;
constexpr double kO3dErrBoundA = (7.0 + 56.0 * kEps) * kEps;

inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double bv = x - a;
  const double av = x - bv;
  y = (a - av) + (b - bv);
}

inline void two_diff(double a, double b, double& x, double& y) {
  x = a - b;
  const double bv = a - x;
  const double av = x + bv;
  y = (a - av) + (bv - b);
}

inline void two_product(double a, double b, double& x, double& y) {
  x = a * b;
  y = std::fma(a, b, -x);
}

/// Fixed-capacity expansion: components nonoverlapping, increasing magnitude, no zeros.
template <int N>
struct Expansion {
  double c[N];
  int n = 0;
  int sign() const { return n == 0 ? 0 : (c[n - 1] > 0 ? 1 : -1); }
};

/// h = e + f by repeated Grow-Expansion (Shewchuk's EXPANSION-SUM) with zero elimination.
/// Needs e.n + f.n <= N (each growth adds at most one component); callers size N for that.
template <int N, int M, int K>
void sum(const Expansion<M>& e, const Expansion<K>& f, Expansion<N>& h) {
  Expansion<N> a, b;
  a.n = e.n;
  for (int i = 0; i < e.n; ++i) a.c[i] = e.c[i];
  Expansion<N>* cur = &a;
  Expansion<N>* nxt = &b;
  for (int j = 0; j < f.n; ++j) {
    double q = f.c[j];
    nxt->n = 0;
    for (int i = 0; i < cur->n; ++i) {
      double qn, hh;
      two_sum(q, cur->c[i], qn, hh);
      q = qn;
      if (hh != 0) nxt->c[nxt->n++] = hh;
    }
    if (q != 0) nxt->c[nxt->n++] = q;
    std::swap(cur, nxt);
  }
  h = *cur;
}

/// h = e * b (SCALE-EXPANSION with zero elimination). Capacity N >= 2 * e.n.
template <int N, int M>
void scale(const Expansion<M>& e, double b, Expansion<N>& h) {
  static_assert(N >= 2 * M);
  h.n = 0;
  if (e.n == 0 || b == 0) return;
  double q, hh;
  two_product(e.c[0], b, q, hh);
  if (hh != 0) h.c[h.n++] = hh;
  for (int i = 1; i < e.n; ++i) {
    double p1, p0, s;
    two_product(e.c[i], b, p1, p0);
    two_sum(q, p0, s, hh);
    if (hh != 0) h.c[h.n++] = hh;
    two_sum(p1, s, q, hh);  // p1 >= s in magnitude: Fast-Two-Sum would do, Two-Sum is safe
    if (hh != 0) h.c[h.n++] = hh;
  }
  if (q != 0) h.c[h.n++] = q;
}

/// h = e * f: the sum of e scaled by each component of f.
template <int N, int M, int K>
void multiply(const Expansion<M>& e, const Expansion<K>& f, Expansion<N>& h) {
  static_assert(N >= 2 * M * K);
  h.n = 0;
  for (int j = 0; j < f.n; ++j) {
    Expansion<2 * M> part;
    scale(e, f.c[j], part);
    Expansion<N> acc;
    sum(h, part, acc);  // h.n + part.n <= N by the bound above
    h = acc;
  }
}

template <int N>
Expansion<N> negate(Expansion<N> e) {
  for (int i = 0; i < e.n; ++i) e.c[i] = -e.c[i];
  return e;
}

Expansion<2> exact_diff(double a, double b) {
  Expansion<2> e;
  double x, y;
  two_diff(a, b, x, y);
  if (y != 0) e.c[e.n++] = y;
  if (x != 0) e.c[e.n++] = x;
  return e;
}

int orient2d_exact(const Vec2& a, const Vec2& b, const Vec2& c) {
  const auto acx = exact_diff(a.x(), c.x()), bcy = exact_diff(b.y(), c.y());
  const auto acy = exact_diff(a.y(), c.y()), bcx = exact_diff(b.x(), c.x());
  Expansion<8> l, r;
  multiply(acx, bcy, l);
  multiply(acy, bcx, r);
  Expansion<16> d;
  sum(l, negate(r), d);
  return d.sign();
}

// Shewchuk's orient3d: sign of det[a - d; b - d; c - d].
int shewchuk_orient3d_exact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const auto adx = exact_diff(a.x(), d.x()), ady = exact_diff(a.y(), d.y()),
             adz = exact_diff(a.z(), d.z());
  const auto bdx = exact_diff(b.x(), d.x()), bdy = exact_diff(b.y(), d.y()),
             bdz = exact_diff(b.z(), d.z());
  const auto cdx = exact_diff(c.x(), d.x()), cdy = exact_diff(c.y(), d.y()),
             cdz = exact_diff(c.z(), d.z());
  // minor(u, v) = u.x v.y - u.y v.x of two rows.
  auto minor = [](const Expansion<2>& ux, const Expansion<2>& uy, const Expansion<2>& vx,
                  const Expansion<2>& vy) {
    Expansion<8> p, q;
    multiply(ux, vy, p);
    multiply(uy, vx, q);
    Expansion<16> m;
    sum(p, negate(q), m);
    return m;
  };
  const Expansion<16> bc = minor(bdx, bdy, cdx, cdy);
  const Expansion<16> ca = minor(cdx, cdy, adx, ady);
  const Expansion<16> ab = minor(adx, ady, bdx, bdy);
  Expansion<64> ta, tb, tc;
  multiply(bc, adz, ta);
  multiply(ca, bdz, tb);
  multiply(ab, cdz, tc);
  Expansion<128> tab;
  sum(ta, tb, tab);
  Expansion<192> det;
  sum(tab, tc, det);
  return det.sign();
}

}  // namespace

int orient2d(const Vec2& a, const Vec2& b, const Vec2& c) {
  const double detleft = (a.x() - c.x()) * (b.y() - c.y());
  const double detright = (a.y() - c.y()) * (b.x() - c.x());
  const double det = detleft - detright;
  const double bound = kCcwErrBoundA * (std::abs(detleft) + std::abs(detright));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return orient2d_exact(a, b, c);
}

int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  // ((b - a) x (c - a)) . (d - a) = -det[a - d; b - d; c - d] (Shewchuk's sign convention).
  const double adx = a.x() - d.x(), bdx = b.x() - d.x(), cdx = c.x() - d.x();
  const double ady = a.y() - d.y(), bdy = b.y() - d.y(), cdy = c.y() - d.y();
  const double adz = a.z() - d.z(), bdz = b.z() - d.z(), cdz = c.z() - d.z();
  const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
  const double cdxady = cdx * ady, adxcdy = adx * cdy;
  const double adxbdy = adx * bdy, bdxady = bdx * ady;
  const double det =
      adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
  const double permanent = (std::abs(bdxcdy) + std::abs(cdxbdy)) * std::abs(adz) +
                           (std::abs(cdxady) + std::abs(adxcdy)) * std::abs(bdz) +
                           (std::abs(adxbdy) + std::abs(bdxady)) * std::abs(cdz);
  const double bound = kO3dErrBoundA * permanent;
  if (det > bound) return -1;
  if (-det > bound) return 1;
  return -shewchuk_orient3d_exact(a, b, c, d);
}

}  // namespace cloth
