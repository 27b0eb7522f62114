#pragma once
// The panel's widgets for declared scene parameters (engine/core/parameter.hpp): one slider,
// checkbox or combo per parameter, with its label, unit and tooltip from the declaration, shown
// only for the material model and integrator that use it, and while it applies (ParamInfo::
// visible). Used as the visitor of visit_material, visit_solver and their kin.
#include <concepts>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "core/enum_names.hpp"
#include "core/parameter.hpp"
#include "integrators/integrator_type.hpp"
#include "model/model_type.hpp"

/// A combo box over an enum's one name table (core/enum_names.hpp); true when the user picked
/// another value.
template <class E>
bool enum_combo(const char* label, E& value) {
  bool changed = false;
  if (ImGui::BeginCombo(label, cloth::name_of(value))) {
    for (const cloth::NamedValue<E>& n : value_names(E{})) {
      if (ImGui::Selectable(n.name, n.value == value) && n.value != value) {
        value = n.value;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

class ParameterWidgets {
 public:
  /// `integrator`: the running one. `drawn`, when given, collects the key of every widget
  /// drawn (tests compare it with the declarations).
  ParameterWidgets(cloth::ModelType model, cloth::IntegratorType integrator,
                   std::vector<std::string>* drawn = nullptr)
      : model_(model), integrator_(integrator), drawn_(drawn) {}

  void operator()(double& x, const cloth::ParamInfo& p);
  void operator()(int& x, const cloth::ParamInfo& p);
  void operator()(bool& x, const cloth::ParamInfo& p);
  void operator()(cloth::Vec3& x, const cloth::ParamInfo& p);
  void operator()(cloth::Pair<double> x, const cloth::ParamInfo& p);
  void operator()(cloth::Pair<int> x, const cloth::ParamInfo& p);
  void operator()(cloth::Direction<cloth::Vec3> d, const cloth::ParamInfo& p);
  void operator()(cloth::Choice<std::string> c, const cloth::ParamInfo& p);
  void operator()(cloth::Switchable<double> s, const cloth::ParamInfo& p);
  void operator()(cloth::Optional<std::optional<double>> o, const cloth::ParamInfo& p);
  void operator()(cloth::Optional<std::optional<cloth::Vec3>> o, const cloth::ParamInfo& p);
  /// An unsigned seed: an int slider (its declared range fits one).
  template <cloth::IntegerField I>
    requires(!std::same_as<I, int>)
  void operator()(I& x, const cloth::ParamInfo& p) {
    const bool before = changed_;
    changed_ = false;
    int value = int(x);
    (*this)(value, p);
    if (changed_) x = I(value);
    changed_ |= before;
  }
  template <class E>
    requires std::is_enum_v<E>
  void operator()(E& x, const cloth::ParamInfo& p) {
    if (!shown(p)) return;
    changed_ |= enum_combo(p.shown_label(), x);
    tooltip(p);
  }

  /// Whether the user changed a value through any widget drawn so far.
  bool changed() const { return changed_; }
  /// Counts a change made beside the declared widgets (e.g. which key a selector uses).
  void mark_changed() { changed_ = true; }

 private:
  bool shown(const cloth::ParamInfo& p);
  bool combo(const cloth::ParamInfo& p, int& index, const std::vector<const char*>& names);
  void tooltip(const cloth::ParamInfo& p) const;
  /// An optional value's checkbox, switching it between absent and its on-value; whether it is
  /// present now (its own widget then follows).
  template <class T>
  bool presence_checkbox(cloth::Optional<std::optional<T>> o, const cloth::ParamInfo& p);
  cloth::ModelType model_;
  cloth::IntegratorType integrator_;
  std::vector<std::string>* drawn_;
  bool changed_ = false;
};
