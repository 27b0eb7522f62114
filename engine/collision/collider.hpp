#pragma once
// Solid colliders as signed-distance shapes (Feynman section 7.2 treats solids the same way: a
// point may not enter them). Every shape gives the signed distance of a point and the outward
// normal at its closest surface point; the contact response (contact.hpp) needs nothing else.
#include <memory>
#include <optional>
#include <variant>

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
};

/// An oriented ellipsoid (Feynman section 7.2: spheres, disks, cylinders and planes are its
/// limits). The distance is exact: the closest point comes from Eberly's root of
/// sum (r_i p_i / (t + r_i^2))^2 = 1, found by bisection.
struct EllipsoidShape {
  Vec3 center = Vec3::Zero();                          ///< m
  Vec3 radii = Vec3(0.3, 0.2, 0.3);                    ///< semi-axes along the local axes, m
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
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

/// Signed distance from p to the collider's surface (negative inside), m; also the outward unit
/// normal at the closest surface point. The collider is where its motion puts it at time `t`, s.
double signed_distance(const Collider& c, const Vec3& p, Vec3* normal, double t = 0);

/// The shape's own signed distance (no motion).
double shape_signed_distance(const Shape& shape, const Vec3& p, Vec3* normal);

/// Short name of the shape type ("plane", "sphere", ...), as in scene files.
const char* shape_name(const Shape& shape);

}  // namespace cloth
