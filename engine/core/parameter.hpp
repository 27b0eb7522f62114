#pragma once
// One declaration per scene parameter. A settings struct's parameters are listed once, beside the
// struct, by a function `visit_<section>(visitor, settings)` that calls visitor(field, ParamInfo)
// for each field. Every use walks that list: range validation (check_ranges below), the scene
// parser and writer (io/), the reference table of docs/scene-format.md (io/parameter_reference),
// and the app's panel, which draws one widget per entry. A new parameter is one field plus one line.
//
// Field kinds a visitor must accept: double, an integer (int, or an unsigned seed), bool, Vec3,
// an enum with a name table (core/enum_names.hpp), a Pair of doubles or of ints (written as a
// two-number array), a Direction (a unit Vec3), a Switchable double (negative = off), an Optional
// double or Vec3 (unset = absent from the file) and a Choice (a string from a fixed list of
// names).
#include <cmath>
#include <concepts>
#include <optional>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/vec.hpp"

namespace cloth {

/// Bit masks saying which material models or integrators use a parameter (the panel shows its
/// widget only for those). Bit i stands for the i-th entry of the name table.
using UsedBy = unsigned;
inline constexpr UsedBy kUsedByAll = ~0u;

/// The UsedBy mask of the given enum values: used_by(ModelType::Feynman, ModelType::Breen).
template <class... Values>
  requires(std::is_enum_v<Values> && ...)
constexpr UsedBy used_by(Values... values) {
  return ((UsedBy{1} << static_cast<unsigned>(values)) | ...);
}

struct ParamInfo {
  const char* key;              ///< JSON key inside its section, e.g. "stretch"
  const char* unit = "";        ///< SI unit, "" when dimensionless
  double lo = 0, hi = 0;        ///< accepted range, inclusive (numbers; each vector component)
  const char* label = nullptr;  ///< the panel's label; the key when null
  const char* tip = "";         ///< what it means and where it comes from, one line
  bool log = false;             ///< the panel's slider is logarithmic
  double ui_lo = std::numeric_limits<double>::quiet_NaN();  ///< the panel's slider range, when
  double ui_hi = std::numeric_limits<double>::quiet_NaN();  ///< narrower than [lo, hi]
  UsedBy models = kUsedByAll;       ///< material models that use it (model/model_type.hpp)
  UsedBy integrators = kUsedByAll;  ///< integrators that use it (integrators/integrator_type.hpp)
  bool visible = true;  ///< the panel shows it now (e.g. a wind gust only for gusty wind)

  const char* shown_label() const { return label ? label : key; }
  double slider_lo() const { return std::isnan(ui_lo) ? lo : ui_lo; }
  double slider_hi() const { return std::isnan(ui_hi) ? hi : ui_hi; }
};

/// Two doubles (e.g. b_u, b_v) or two ints (a grid's vertex counts) stored as separate fields and
/// written as one [a, b] array.
template <class T>
struct Pair {
  T& a;
  T& b;
};
template <class T>
Pair(T&, T&) -> Pair<T>;

/// A unit vector: a file or the panel may give any non-zero vector, which is normalised (one that
/// is unit to the last bit is kept as written, so a saved scene loads to the very same run).
template <class V>
struct Direction {
  V& value;
};
template <class V>
Direction(V&) -> Direction<V>;

/// `v` normalised, or unchanged when it is a unit vector to the last bit; throws InputError
/// naming `key` for a zero or non-finite vector.
inline Vec3 unit_direction(const Vec3& v, const std::string& key) {
  if (!v.allFinite() || v.norm() < 1e-9) throw InputError(key + " must be a non-zero direction");
  return std::abs(v.norm() - 1.0) <= 1e-15 ? v : v.normalized();
}

/// A number that may be switched off, off being any negative value: the panel shows a checkbox,
/// and while it is on a slider; switching it on sets `on_value`.
template <class T>
struct Switchable {
  T& value;
  double on_value;
};
template <class T>
Switchable(T&, double) -> Switchable<T>;

/// A number or a Vec3 that may be left unset (a std::optional<double> or <Vec3>): a file gives
/// its key or not, the panel shows a checkbox and, while it is set, a slider; setting it starts
/// at `on_value`.
template <class O>
struct Optional {
  O& value;
  typename std::remove_const_t<O>::value_type on_value;
};
template <class O, class V>
Optional(O&, V) -> Optional<O>;

/// An integer field other than bool: int, or an unsigned seed (read and shown through int, so its
/// declared range must fit one).
template <class T>
concept IntegerField = std::integral<T> && !std::same_as<T, bool>;

/// A string that must be one of `names` (the integrator, whose table is a list of names).
template <class S>
struct Choice {
  S& value;
  std::span<const char* const> names;
};
template <class S>
Choice(S&, std::span<const char* const>) -> Choice<S>;

/// A number as the messages and the reference table print it: 1e+08, 0.15, 20.
inline std::string format_number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

/// "KEY must be in [lo, hi] UNIT, got v": the one message of an out-of-range value.
inline InputError out_of_range(const std::string& key, const ParamInfo& p, double v) {
  return InputError(key + " must be in [" + format_number(p.lo) + ", " + format_number(p.hi) + "]" +
                    (*p.unit ? std::string(" ") + p.unit : "") + ", got " + format_number(v));
}

/// Visitor that throws InputError for the first value outside its range, naming `section.key`.
class RangeCheck {
 public:
  explicit RangeCheck(std::string section) : section_(std::move(section)) {}
  void operator()(double v, const ParamInfo& p) const { number(v, p); }
  template <IntegerField I>
  void operator()(I v, const ParamInfo& p) const {
    number(double(v), p);
  }
  void operator()(bool, const ParamInfo&) const {}
  void operator()(const Vec3& v, const ParamInfo& p) const {
    for (int k = 0; k < 3; ++k) number(v[k], p);
  }
  template <class T>
  void operator()(Pair<T> v, const ParamInfo& p) const {
    number(v.a, p);
    number(v.b, p);
  }
  template <class T>
  void operator()(Switchable<T> s, const ParamInfo& p) const {
    number(s.value, p);
  }
  template <class O>
  void operator()(Optional<O> o, const ParamInfo& p) const {
    if (o.value) (*this)(*o.value, p);
  }
  template <class V>
  void operator()(Direction<V> d, const ParamInfo& p) const {
    if (!d.value.allFinite() || std::abs(d.value.norm() - 1) > 1e-6) throw InputError(key(p) + " must be a unit vector");
  }
  template <class S>
  void operator()(Choice<S> c, const ParamInfo& p) const {
    for (const char* name : c.names) {
      if (c.value == name) return;
    }
    throw InputError(key(p) + " must be one of " + joined(c.names) + ", got \"" + std::string(c.value) + "\"");
  }
  template <class E>
    requires std::is_enum_v<E>
  void operator()(E, const ParamInfo&) const {}

 private:
  std::string key(const ParamInfo& p) const { return section_ + "." + p.key; }
  void number(double v, const ParamInfo& p) const {
    if (!std::isfinite(v) || v < p.lo || v > p.hi) throw out_of_range(key(p), p, v);
  }
  std::string section_;
};

}  // namespace cloth
