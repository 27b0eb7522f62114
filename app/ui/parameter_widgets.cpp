#include "ui/parameter_widgets.hpp"

#include <imgui.h>

#include "integrators/integrator.hpp"

namespace {

// "%.4g N/m": the slider's number with the parameter's unit.
std::string number_format(const cloth::ParamInfo& p) {
  return std::string("%.4g") + (*p.unit ? std::string(" ") + p.unit : "");
}

}  // namespace

bool ParameterWidgets::shown(const cloth::ParamInfo& p) {
  if (!p.visible || !(p.models & cloth::used_by(model_))) return false;
  if (!(p.integrators & cloth::used_by(integrator_))) return false;
  if (drawn_) drawn_->push_back(p.key);
  return true;
}

void ParameterWidgets::tooltip(const cloth::ParamInfo& p) const {
  if (!ImGui::IsItemHovered()) return;
  if (*p.unit) {
    ImGui::SetTooltip("%s, %s (%s)", p.tip, p.unit, p.key);
  } else {
    ImGui::SetTooltip("%s (%s)", p.tip, p.key);
  }
}

void ParameterWidgets::operator()(double& x, const cloth::ParamInfo& p) {
  if (!shown(p)) return;
  const double lo = p.slider_lo(), hi = p.slider_hi();
  changed_ |= ImGui::SliderScalar(p.shown_label(), ImGuiDataType_Double, &x, &lo, &hi,
                                  number_format(p).c_str(),
                                  p.log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
  tooltip(p);
}

void ParameterWidgets::operator()(int& x, const cloth::ParamInfo& p) {
  if (!shown(p)) return;
  changed_ |= ImGui::SliderInt(p.shown_label(), &x, int(p.slider_lo()), int(p.slider_hi()), "%d",
                               p.log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
  tooltip(p);
}

void ParameterWidgets::operator()(bool& x, const cloth::ParamInfo& p) {
  if (!shown(p)) return;
  changed_ |= ImGui::Checkbox(p.shown_label(), &x);
  tooltip(p);
}

void ParameterWidgets::operator()(cloth::Vec3& x, const cloth::ParamInfo& p) {
  if (!shown(p)) return;
  const double lo = p.slider_lo(), hi = p.slider_hi();
  // The unit is in the tooltip: three numbers with it do not fit the panel's width.
  changed_ |= ImGui::SliderScalarN(p.shown_label(), ImGuiDataType_Double, x.data(), 3, &lo, &hi, "%.3g");
  tooltip(p);
}

void ParameterWidgets::operator()(cloth::Pair<double> x, const cloth::ParamInfo& p) {
  if (!shown(p)) return;
  double both[2] = {x.a, x.b};
  const double lo = p.slider_lo(), hi = p.slider_hi();
  if (ImGui::SliderScalarN(p.shown_label(), ImGuiDataType_Double, both, 2, &lo, &hi, "%.3g",
                           p.log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None)) {
    x.a = both[0];
    x.b = both[1];
    changed_ = true;
  }
  tooltip(p);
}

void ParameterWidgets::operator()(cloth::Pair<int> x, const cloth::ParamInfo& p) {
  if (!shown(p)) return;
  int both[2] = {x.a, x.b};
  if (ImGui::SliderInt2(p.shown_label(), both, int(p.slider_lo()), int(p.slider_hi()), "%d",
                        p.log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None)) {
    x.a = both[0];
    x.b = both[1];
    changed_ = true;
  }
  tooltip(p);
}

void ParameterWidgets::operator()(cloth::Switchable<double> s, const cloth::ParamInfo& p) {
  if (!shown(p)) return;
  bool on = s.value >= 0;
  if (ImGui::Checkbox(p.shown_label(), &on)) {
    s.value = on ? s.on_value : -1.0;
    changed_ = true;
  }
  tooltip(p);
  if (!on) return;
  ImGui::SameLine();
  const double lo = p.slider_lo(), hi = p.slider_hi();
  const std::string id = std::string("##") + p.key;
  changed_ |= ImGui::SliderScalar(id.c_str(), ImGuiDataType_Double, &s.value, &lo, &hi,
                                  number_format(p).c_str());
  tooltip(p);
}

template <class T>
bool ParameterWidgets::presence_checkbox(cloth::Optional<std::optional<T>> o, const cloth::ParamInfo& p) {
  bool on = o.value.has_value();
  if (ImGui::Checkbox(p.shown_label(), &on)) {
    if (on) {
      o.value = o.on_value;
    } else {
      o.value.reset();
    }
    changed_ = true;
  }
  tooltip(p);
  return on;
}

void ParameterWidgets::operator()(cloth::Optional<std::optional<double>> o, const cloth::ParamInfo& p) {
  if (!shown(p) || !presence_checkbox(o, p)) return;
  ImGui::SameLine();
  double x = *o.value;
  const double lo = p.slider_lo(), hi = p.slider_hi();
  const std::string id = std::string("##") + p.key;
  if (ImGui::SliderScalar(id.c_str(), ImGuiDataType_Double, &x, &lo, &hi, number_format(p).c_str(),
                          p.log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None)) {
    o.value = x;
    changed_ = true;
  }
  tooltip(p);
}

void ParameterWidgets::operator()(cloth::Optional<std::optional<cloth::Vec3>> o, const cloth::ParamInfo& p) {
  if (!shown(p) || !presence_checkbox(o, p)) return;
  cloth::Vec3 x = *o.value;
  const double lo = p.slider_lo(), hi = p.slider_hi();
  const std::string id = std::string("##") + p.key;
  if (ImGui::SliderScalarN(id.c_str(), ImGuiDataType_Double, x.data(), 3, &lo, &hi, "%.3g")) {
    o.value = x;
    changed_ = true;
  }
  tooltip(p);
}

void ParameterWidgets::operator()(cloth::Direction<cloth::Vec3> d, const cloth::ParamInfo& p) {
  if (!shown(p)) return;
  // While the slider is held or typed in, it edits a draft, shown as it is; the unit vector is
  // made when the edit ends. Made at each keystroke, it would rewrite the other two fields
  // under the cursor (typing 0.5 into x of (0, 0, 1) would give (1, 0, 0) at the "5").
  ImGuiStorage* storage = ImGui::GetStateStorage();
  ImGui::PushID(p.shown_label());
  const ImGuiID held = ImGui::GetID("held");
  const ImGuiID draft[3] = {ImGui::GetID("x"), ImGui::GetID("y"), ImGui::GetID("z")};
  ImGui::PopID();
  cloth::Vec3 edited = d.value;
  if (storage->GetBool(held))
    for (int k = 0; k < 3; ++k) edited[k] = double(storage->GetFloat(draft[k]));
  const double lo = p.slider_lo(), hi = p.slider_hi();
  ImGui::SliderScalarN(p.shown_label(), ImGuiDataType_Double, edited.data(), 3, &lo, &hi, "%.2f");
  const bool active = ImGui::IsItemActive();
  if (ImGui::IsItemDeactivatedAfterEdit() && edited.norm() > 1e-6) {
    d.value = edited.normalized();  // the engine keeps directions as unit vectors
    changed_ = true;
  }
  storage->SetBool(held, active);
  if (active)
    for (int k = 0; k < 3; ++k) storage->SetFloat(draft[k], float(edited[k]));
  tooltip(p);
}

void ParameterWidgets::operator()(cloth::Choice<std::string> c, const cloth::ParamInfo& p) {
  if (!shown(p)) return;
  int index = 0;
  for (size_t k = 0; k < c.names.size(); ++k) {
    if (c.value == c.names[k]) index = int(k);
  }
  if (combo(p, index, {c.names.begin(), c.names.end()})) c.value = c.names[size_t(index)];
}

bool ParameterWidgets::combo(const cloth::ParamInfo& p, int& index,
                             const std::vector<const char*>& names) {
  const int before = index;
  const bool picked = ImGui::Combo(p.shown_label(), &index, names.data(), int(names.size())) && index != before;
  tooltip(p);
  changed_ |= picked;
  return picked;
}
