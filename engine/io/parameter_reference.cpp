#include "io/parameter_reference.hpp"

#include <initializer_list>
#include <sstream>
#include <variant>

#include "core/enum_names.hpp"
#include "core/parameter.hpp"
#include "io/scene.hpp"
#include "model/material_parameters.hpp"
#include "integrators/solver_settings.hpp"

namespace cloth {

namespace {

// Which models, or which integrators, use a parameter ("all" when every one does).
std::string used_by_column(const ParamInfo& p) {
  std::string out;
  if (p.models != kUsedByAll) {
    for (const NamedValue<ModelType>& n : value_names(ModelType{})) {
      if (p.models & used_by(n.value)) out += (out.empty() ? "" : ", ") + std::string(n.name);
    }
  }
  if (p.integrators != kUsedByAll) {
    for (const NamedValue<IntegratorType>& n : value_names(IntegratorType{})) {
      if (p.integrators & used_by(n.value)) out += (out.empty() ? "" : ", ") + std::string(n.name);
    }
  }
  return out.empty() ? "all" : out;
}

// "[a, b, c]": a vector, a pair or a range as the table shows them.
std::string bracketed(std::initializer_list<double> values) {
  std::ostringstream out;
  out << "[";
  for (const double* v = values.begin(); v != values.end(); ++v) out << (v == values.begin() ? "" : ", ") << *v;
  out << "]";
  return out.str();
}

// One table row per parameter, its default being the value visited (a default-made struct).
class ReferenceRows {
 public:
  explicit ReferenceRows(std::ostringstream& out) : out_(out) {}
  void operator()(double x, const ParamInfo& p) const { row(format_number(x), p); }
  template <IntegerField I>
  void operator()(I x, const ParamInfo& p) const {
    std::ostringstream range;  // whole numbers, each in full
    range << "[" << static_cast<long long>(p.lo) << ", " << static_cast<long long>(p.hi) << "]";
    row(std::to_string(x), p, range.str());
  }
  void operator()(bool x, const ParamInfo& p) const { row(x ? "true" : "false", p); }
  void operator()(const Vec3& x, const ParamInfo& p) const {
    row(bracketed({x.x(), x.y(), x.z()}), p);
  }
  template <class T>
  void operator()(Pair<T> x, const ParamInfo& p) const {
    row(bracketed({double(x.a), double(x.b)}), p);
  }
  template <class T>
  void operator()(Switchable<T> s, const ParamInfo& p) const {
    (*this)(s.value, p);
  }
  template <class O>
  void operator()(Optional<O> o, const ParamInfo& p) const {
    if (!o.value) return row("unset", p);
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(*o.value)>, Vec3>) {
      row(bracketed({o.value->x(), o.value->y(), o.value->z()}), p);
    } else {
      row(format_number(*o.value), p);
    }
  }
  template <class V>
  void operator()(Direction<V> d, const ParamInfo& p) const {
    row(bracketed({d.value.x(), d.value.y(), d.value.z()}), p, "any non-zero vector, made unit");
  }
  template <class S>
  void operator()(Choice<S> c, const ParamInfo& p) const {
    row(std::string(c.value), p, "one of " + joined(c.names));
  }
  template <class E>
    requires std::is_enum_v<E>
  void operator()(E x, const ParamInfo& p) const {
    row(name_of(x), p, "one of " + name_choices<E>());
  }

 private:
  // `range`: the accepted names of a choice; numbers show [lo, hi], flags (no range) both values.
  void row(const std::string& value, const ParamInfo& p, const std::string& range = "") const {
    const std::string accepted = !range.empty()  ? range
                                 : p.lo == p.hi ? "true, false"
                                                : bracketed({p.lo, p.hi});
    out_ << "| `" << p.key << "` | " << (*p.unit ? p.unit : "-") << " | " << accepted << " | " << value
         << " | " << used_by_column(p) << " | " << p.tip << " |\n";
  }

  std::ostringstream& out_;
};

// A section's table: the rows of its parameters, `defaults` being what a scene file gets for a
// key it leaves out. `title`: the heading, the section's dotted path in backquotes.
template <class Settings, class Visit>
void section(std::ostringstream& out, const std::string& title, const Settings& defaults, Visit visit) {
  out << "\n### " << title << "\n\n"
      << "| key | unit | range | default | used by | meaning |\n"
      << "|---|---|---|---|---|---|\n";
  visit(ReferenceRows(out), defaults);
}

}  // namespace

std::string parameter_reference_markdown() {
  std::ostringstream out;
  out << kParameterReferenceBegin << "\n";
  // As parse_scene reads them: an object that is present switches self-collision and tearing
  // on, makes the wind blow and the density pattern stripes; the solver's threads are the
  // machine's (0).
  SelfCollisionSettings self_collision;
  self_collision.enabled = true;
  TearSettings tearing;
  tearing.enabled = true;
  WindField wind;
  wind.type = WindField::Type::Constant;
  SolverSettings solver;
  solver.threads = 0;
  section(out, "`cloth.material`", SpringMaterial{}, [](auto&& v, const auto& s) { visit_material(v, s); });
  DensityPattern pattern;
  pattern.kind = DensityPattern::Kind::Stripes;
  section(out, "`cloth.material.density_pattern`", pattern,
          [](auto&& v, const auto& s) { visit_density_pattern(v, s); });
  section(out, "`cloth.self_collision`", self_collision, [](auto&& v, const auto& s) { visit_self_collision(v, s); });
  section(out, "`cloth.tearing`", tearing, [](auto&& v, const auto& s) { visit_tearing(v, s); });
  section(out, "`cloth.mesh.grid`", GridSpec{}, [](auto&& v, const auto& s) { visit_grid(v, s); });
  section(out, "`cloth.pins.N`, `cloth.slides.N`: which vertices (exactly one key)", VertexSelector{},
          [](auto&& v, const auto& s) { visit_selector(v, s); });
  section(out, "`cloth.pins.N`", PinSpec{}, [](auto&& v, const auto& s) { visit_pin(v, s); });
  SlideSpec line, plane;
  plane.kind = SlideConstraint::Kind::Plane;
  section(out, "`cloth.slides.N.line`", line, [](auto&& v, const auto& s) { visit_slide(v, s); });
  section(out, "`cloth.slides.N.plane`", plane, [](auto&& v, const auto& s) { visit_slide(v, s); });
  section(out, "`colliders.N`: every solid", Collider{}, [](auto&& v, const auto& s) { visit_collider(v, s); });
  for (const Shape& defaults : {Shape(PlaneShape{}), Shape(SphereShape{}), Shape(CapsuleShape{}), Shape(CylinderShape{}),
                                Shape(BoxShape{}), Shape(EllipsoidShape{}), Shape(MeshShape{})}) {
    std::visit(
        [&](const auto& shape) {
          section(out, "`colliders.N` of type `" + std::string(shape_name(defaults)) + "`", shape,
                  [](auto&& v, const auto& s) { visit_shape(v, s); });
        },
        defaults);
  }
  section(out, "`colliders.N.motion`, `cloth.pins.N.motion`", MotionPath{},
          [](auto&& v, const auto& s) { visit_motion(v, s); });
  section(out, "`forces`", ExternalForces{}, [](auto&& v, const auto& s) { visit_forces(v, s); });
  section(out, "`forces.wind`", wind, [](auto&& v, const auto& s) { visit_wind(v, s); });
  section(out, "`solver`", solver, [](auto&& v, const auto& s) { visit_solver(v, s); });
  section(out, "`camera`", CameraSpec{}, [](auto&& v, const auto& s) { visit_camera(v, s); });
  section(out, "`drape`", DrapeSettings{}, [](auto&& v, const auto& s) { visit_drape(v, s); });
  out << "\n" << kParameterReferenceEnd << "\n";
  return out.str();
}

}  // namespace cloth
