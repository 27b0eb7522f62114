#pragma once
// Solid colliders as signed-distance shapes (Feynman section 7.2 treats solids the same way: a
// point may not enter them). Every shape gives the signed distance of a point and the outward
// normal at its closest surface point; the contact response (contact.hpp) needs nothing else.
#include <memory>
#include <optional>
#include <type_traits>
#include <variant>

#include "core/parameter.hpp"
#include "kinematics/motion_path.hpp"
#include "core/vec.hpp"

namespace cloth {

class TriangleMeshSdf;  // mesh_collider.hpp

struct PlaneShape {
  Vec3 point = Vec3::Zero();       ///< any point on the plane, m
  Vec3 normal = Vec3::UnitY();     ///< unit normal pointing into the free side
};

struct SphereShape {
  Vec3 center = Vec3::Zero();  ///< m
  double radius = 0.25;        ///< m
};

/// All points within `radius` of the segment a-b (a cylinder with hemispherical ends).
struct CapsuleShape {
  Vec3 a = Vec3(-0.5, 0, 0);  ///< axis end points, m
  Vec3 b = Vec3(0.5, 0, 0);
  double radius = 0.1;  ///< m
};

/// A solid cylinder with flat ends: axis a-b, `radius` (B&W figure 1 drapes cloth on one).
struct CylinderShape {
  Vec3 a = Vec3(-0.5, 0, 0);  ///< centres of the end disks, m
  Vec3 b = Vec3(0.5, 0, 0);
  double radius = 0.1;  ///< m
};

/// An oriented box: `rotation`'s columns are the box's local x, y, z axes in world space.
struct BoxShape {
  Vec3 center = Vec3::Zero();                          ///< m
  Vec3 half_extents = Vec3(0.5, 0.5, 0.5);             ///< m, along the local axes
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  /// The rotation as a scene file and the panel give it, degrees (rotation_from_degrees);
  /// whoever sets it sets `rotation` from it (update_rotation).
  Vec3 rotation_deg = Vec3::Zero();
};

/// An oriented ellipsoid (Feynman section 7.2: spheres, disks, cylinders and planes are its
/// limits). The distance is exact: the closest point comes from Eberly's root of
/// sum (r_i p_i / (t + r_i^2))^2 = 1, found by bisection.
struct EllipsoidShape {
  Vec3 center = Vec3::Zero();                          ///< m
  Vec3 radii = Vec3(0.3, 0.2, 0.3);                    ///< semi-axes along the local axes, m
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Vec3 rotation_deg = Vec3::Zero();  ///< as BoxShape's
};

/// A closed triangle mesh (OBJ) with a bounding-volume hierarchy; see mesh_collider.hpp.
struct MeshShape {
  std::shared_ptr<const TriangleMeshSdf> mesh;
  Vec3 offset = Vec3::Zero();  ///< translation of the mesh from its file coordinates, m
};

using Shape = std::variant<PlaneShape, SphereShape, CapsuleShape, CylinderShape, BoxShape,
                           EllipsoidShape, MeshShape>;

struct Collider {
  Collider(Shape shape_ = PlaneShape{}, double thickness_ = 0.005, double friction_ = 0.3,
           std::optional<double> kinetic_friction_ = std::nullopt)
      : shape(std::move(shape_)), thickness(thickness_), friction(friction_),
        kinetic_friction(kinetic_friction_) {}

  Shape shape;
  double thickness = 0.005;  ///< contact offset kept between cloth vertices and the surface, m
  double friction = 0.3;     ///< Coulomb coefficient of static friction mu_s (dimensionless)
  /// Coulomb coefficient of kinetic (sliding) friction mu_k; unset = the same as mu_s.
  std::optional<double> kinetic_friction;
  /// Scripted motion of the whole solid (translation); fixed by default.
  MotionPath motion;
  /// Translation set by hand (the app's mouse drag), on top of the motion, m.
  Vec3 offset = Vec3::Zero();

  /// Where the solid is at time t relative to where the scene put it, m.
  Vec3 displacement(double t) const { return motion.offset(t) + offset; }

  double mu_kinetic() const { return kinetic_friction.value_or(friction); }
};

/// The rotation of "rotation_deg" [rx, ry, rz]: turned about x, then y, then z (world axes), degrees.
Eigen::Matrix3d rotation_from_degrees(const Vec3& degrees);

/// A box's or an ellipsoid's `rotation` made from its `rotation_deg`; other shapes are unchanged.
void update_rotation(Shape& shape);

/// Calls v(field, ParamInfo) for each parameter every solid has (an entry of "colliders"; its
/// shape's own are visit_shape's, its "motion" object visit_motion's).
template <class Visitor, class C>
void visit_collider(Visitor&& v, C& c) {
  v(c.thickness, {.key = "thickness", .unit = "m", .lo = 0, .hi = 1,
                  .tip = "Contact offset kept between cloth vertices and the surface", .ui_lo = 0,
                  .ui_hi = 0.05});
  v(c.friction, {.key = "friction", .lo = 0, .hi = 10, .label = "friction mu_s",
                 .tip = "Coulomb coefficient of static friction: the cloth sticks while the "
                        "tangential force is below mu_s times the normal force",
                 .ui_lo = 0, .ui_hi = 1.5});
  v(Optional{c.kinetic_friction, c.friction},
    {.key = "kinetic_friction", .lo = 0, .hi = 10, .label = "kinetic mu_k",
     .tip = "Coulomb coefficient of sliding friction mu_k (unset: the same as mu_s)", .ui_lo = 0,
     .ui_hi = 1.5});
}

/// Calls v(field, ParamInfo) for each size and position of a shape (PlaneShape, SphereShape, ...,
/// const or not): the keys of its "colliders" entry beside "type". A mesh's "path" is not a
/// parameter (the reader loads the file); a reader then checks what ranges cannot say
/// (a cylinder's ends differ) and calls update_rotation.
template <class Visitor, class S>
void visit_shape(Visitor&& v, S& s) {
  using T = std::remove_const_t<S>;
  constexpr double kWorld = 1e4;  // m: scenes are room-sized
  const auto position = [](const char* key, const char* tip) {
    return ParamInfo{.key = key, .unit = "m", .lo = -kWorld, .hi = kWorld, .tip = tip, .ui_lo = -3, .ui_hi = 3};
  };
  const auto size = [](const char* key, const char* tip) {
    return ParamInfo{.key = key, .unit = "m", .lo = 1e-4, .hi = 1e3, .tip = tip, .ui_lo = 0.005, .ui_hi = 2};
  };
  const ParamInfo rotation{.key = "rotation_deg", .unit = "deg", .lo = -360, .hi = 360,
                           .tip = "[rx, ry, rz]: turned about x, then y, then z (world axes)",
                           .ui_lo = -180, .ui_hi = 180};
  if constexpr (std::is_same_v<T, PlaneShape>) {
    v(s.point, position("point", "A point of the plane"));
    v(Direction{s.normal}, {.key = "normal", .lo = -1, .hi = 1,
                            .tip = "Normal pointing to the free side, made a unit vector"});
  } else if constexpr (std::is_same_v<T, SphereShape>) {
    v(s.center, position("center", "Centre of the sphere"));
    v(s.radius, size("radius", "Radius of the sphere"));
  } else if constexpr (std::is_same_v<T, CapsuleShape> || std::is_same_v<T, CylinderShape>) {
    const bool capsule = std::is_same_v<T, CapsuleShape>;
    v(s.a, position("a", capsule ? "One end of the axis segment" : "Centre of one end disk"));
    v(s.b, position("b", capsule ? "The other end of the axis segment" : "Centre of the other end disk (not a)"));
    v(s.radius, size("radius", capsule ? "All points within this distance of the segment a-b" : "Radius of the cylinder"));
  } else if constexpr (std::is_same_v<T, BoxShape>) {
    v(s.center, position("center", "Centre of the box"));
    v(s.half_extents, size("half_extents", "Half the box's sides along its own x, y, z"));
    v(s.rotation_deg, rotation);
  } else if constexpr (std::is_same_v<T, EllipsoidShape>) {
    v(s.center, position("center", "Centre of the ellipsoid"));
    v(s.radii, size("radii", "Semi-axes along its own x, y, z"));
    v(s.rotation_deg, rotation);
  } else {
    static_assert(std::is_same_v<T, MeshShape>);
    v(s.offset, position("offset", "Translation of the mesh from its file's coordinates"));
  }
}

/// Signed distance from p to the collider's surface (negative inside), m; also the outward unit
/// normal at the closest surface point. The collider is where its motion puts it at time `t`, s.
double signed_distance(const Collider& c, const Vec3& p, Vec3* normal, double t = 0);

/// The shape's own signed distance (no motion).
double shape_signed_distance(const Shape& shape, const Vec3& p, Vec3* normal);

/// Short name of the shape type ("plane", "sphere", ...), as in scene files.
const char* shape_name(const Shape& shape);

}  // namespace cloth
