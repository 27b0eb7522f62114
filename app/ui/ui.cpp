#include "ui/ui.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // ClosePopupsExceptModals

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "collision/collider.hpp"
#include "core/error.hpp"
#include "drape/drape_settings.hpp"
#include "elements/breen_energy.hpp"
#include "forces/forces.hpp"
#include "integrators/integrator.hpp"
#include "model/material_parameters.hpp"
#include "model/material_presets.hpp"
#include "model/model.hpp"
#include "core/parallel.hpp"
#include "io/scene.hpp"
#include "simulation/simulation_view.hpp"
#include "forces/wind.hpp"
#include "render/heat_map.hpp"
#include "input/key_bindings.hpp"
#include "ui/parameter_widgets.hpp"
#include "run/paths.hpp"

#include "ui/picture_overlay.hpp"
#include "render/render_scale.hpp"
#include "ui/replay_timeline.hpp"

namespace app {
namespace {

const ImVec4 kErrorColor(1.0f, 0.35f, 0.30f, 1.0f);

/// Tooltip on the previous widget: its unit and meaning in one line.
void tip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

bool slider_double(const char* label, double* v, double lo, double hi, const char* fmt,
                   bool log_scale) {
  return ImGui::SliderScalar(label, ImGuiDataType_Double, v, &lo, &hi, fmt,
                             log_scale ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
}

/// Runs a live change of the simulation; `error` keeps the one-line reason it was refused (the
/// engine then kept its previous settings), or is cleared.
template <class Change>
void apply_live(std::string& error, Change&& change) {
  try {
    change();
    error.clear();
  } catch (const std::exception& e) {
    error = e.what();
  }
}

}  // namespace

void error_line(const std::string& error) {
  if (error.empty()) return;
  // Wrapped at the panel's width: a long message (a JSON parser's) must not widen the panel,
  // which sizes itself to its contents, over the picture.
  ImGui::PushTextWrapPos(ImGui::GetWindowContentRegionMax().x);
  ImGui::TextColored(kErrorColor, "%s", error.c_str());
  ImGui::PopTextWrapPos();
}

// true: the backend installs its callbacks and chains to the App's, installed before this.
Ui::Ui(GLFWwindow* window, const std::string& ini_path) : imgui_(window, true, ini_path) {}

void Ui::begin_frame() {
  imgui_.begin_frame();
}

void Ui::render() {
  imgui_.render();
}

bool Ui::panel_laid_out() const {
  return ImGui::GetFrameCount() >= 2;
}

bool Ui::covers(double x, double y) const {
  const ImVec2 point{float(x), float(y)};
  for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    if (!w->WasActive || w->Hidden || w->IsFallbackWindow || (w->Flags & ImGuiWindowFlags_Tooltip)) continue;
    if (w->Rect().Contains(point)) return true;
  }
  return popup_open();
}
bool Ui::wants_keyboard() const {
  return ImGui::GetIO().WantCaptureKeyboard;
}

namespace {

/// Below this fraction of the speed asked for (the slow-motion slider), the picture says the run
/// is slower than real time.
constexpr double kSlowRun = 0.9;

/// The picture's status line: REC and its length, paused, or how far behind real time the run is
/// and what it runs (the cost a user can change).
std::string run_status(const cloth::Simulation& sim, const UiState& state, const UiStats& stats) {
  std::string line;
  const auto add = [&](const std::string& part) { line += (line.empty() ? "" : "   ") + part; };
  if (stats.quit_asked) add("Esc again to quit");
  char text[160];
  if (stats.recording) {
    std::snprintf(text, sizeof text, "REC %.1f s", stats.recorded_seconds);
    add(text);
  }
  if (state.replay.active()) return line;  // the replay's badge says the rest
  if (state.paused) {
    add("paused");
  } else if (sim.divergence().empty() && stats.realtime_factor >= 0 &&
             stats.realtime_factor < kSlowRun * state.time_scale) {
    // The cost that makes it slow, with the way out.
    std::snprintf(text, sizeof text, "%.2gx real time: %s at %d substeps", stats.realtime_factor,
                  cloth::name_of(sim.solver().integrator), sim.substeps());
    add(text);
  }
  return line;
}

}  // namespace

bool Ui::popup_open() const {
  return ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
}

void Ui::close_popups() { ImGui::ClosePopupsExceptModals(); }

void Ui::set_scale(float scale) {
  imgui_.set_scale(scale);
  resize_panel_ = true;
}

UiActions Ui::build(cloth::Simulation& sim, cloth::DrapeSettings& drape, const ClothLayout& layout, UiState& state,
                    const UiStats& stats, const std::vector<PaneSummary>& panes) {
  UiActions actions;
  draw_pane_labels(panes);
  {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float left = panel_docked_ ? panel_rect_.left + panel_rect_.width : 0.0f;
    const PaneRect picture{vp->Pos.x + left, vp->Pos.y, vp->Size.x - left, vp->Size.y};
    draw_picture_overlay(state.view.caption ? stats.caption : "",
                         state.view.strain_heat_map ? state.view.heat_map_top : 0.0f, picture,
                         replay_badge(state.replay), run_status(sim, state, stats));
    if (stats.timeline) replay_timeline_window(state.replay, *stats.timeline, picture);
  }
  ImGui::SetNextWindowPos(ImVec2(kPanelPosition, kPanelPosition), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth * scale(), 0),
                           resize_panel_ ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  if (resize_panel_) widest_panel_ = 0;
  resize_panel_ = false;
  // The panel fits its content but never narrows, and always has its scrollbar (a panel taller
  // than the window would widen by it whenever a line comes or goes): the panes beside it keep
  // their place while its content changes (another integrator's settings, a pane made active,
  // a section closed).
  ImGui::SetNextWindowSizeConstraints(ImVec2(widest_panel_, 0), ImVec2(FLT_MAX, FLT_MAX));
  ImGui::Begin("clothsim", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_AlwaysVerticalScrollbar);
  {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    widest_panel_ = std::max(widest_panel_, size.x);
    panel_rect_ = PaneRect{pos.x, pos.y, size.x, size.y};
    panel_docked_ = !ImGui::IsWindowCollapsed() && pos.x < kDockedPanelSlack;
  }
  if (save_path_scene_ != stats.scene_path) {  // a new scene proposes its own file name
    save_path_scene_ = stats.scene_path;
    std::snprintf(save_path_, sizeof save_path_, "%s", default_save_path(stats.scene_path).c_str());
  }
  ImGui::TextDisabled("F1: help");
  error_line(stats.scene_error);  // above the sections: the Scene section may be closed
  apply_finished_drape(sim);  // even with its section closed
  if (ImGui::CollapsingHeader("Scene")) scene_section(stats, panes.size() > 1, actions);
  if (panes.size() > 1 && ImGui::CollapsingHeader("Compare", ImGuiTreeNodeFlags_DefaultOpen))
    actions.activate_pane = compare_section(panes);
  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen))
    simulation_section(sim, state, stats.timeline, actions);
  // Material, Forces and View open on a click: closed, the Stats stay in view in a 720 px window.
  if (ImGui::CollapsingHeader("Material")) material_section(sim);
  if (ImGui::CollapsingHeader("Forces")) forces_section(sim);
  if (ImGui::CollapsingHeader("Collisions")) collisions_section(sim, stats, actions);
  if (ImGui::CollapsingHeader("Tearing")) tearing_section(sim);
  if (ImGui::CollapsingHeader("Static drape")) drape_section(sim, drape);
  if (ImGui::CollapsingHeader("Cloth")) cloth_section(sim, layout, actions);
  if (ImGui::CollapsingHeader("View"))
    view_section(state, stats, actions);
  if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) stats_section(sim, stats);
  ImGui::End();
  if (state.show_plots) plots_window(sim, state, stats.history);
  if (state.show_help) help_overlay(state);
  return actions;
}

void Ui::scene_section(const UiStats& stats, bool side_by_side, UiActions& actions) {
  scene_picker(stats.scene_path, actions);
  const bool entered = ImGui::InputTextWithHint("##open-path", "path of a scene file", open_path_,
                                                sizeof open_path_, ImGuiInputTextFlags_EnterReturnsTrue);
  tip("Open a scene file of your own (Enter or Open): its path, absolute or relative to the folder "
      "clothsim was started in (docs/scene-format.md); a broken file keeps this scene and says why");
  ImGui::SameLine();
  const bool open = ImGui::Button("Open");
  if ((open || entered) && open_path_[0] != '\0') actions.load_scene = open_path_;
  if (ImGui::Button("Reload from disk")) actions.load_scene = stats.scene_path;
  tip("Read the scene file again, e.g. after editing it (L); a broken file keeps this scene");
  ImGui::TextWrapped("%s", stats.scene_path.c_str());
  if (!stats.caption.empty()) tip(stats.caption.c_str());
  ImGui::InputText("##save-path", save_path_, sizeof save_path_);
  tip("Where Save writes the scene (a JSON file; relative to the folder clothsim was started in)");
  ImGui::SameLine();
  if (ImGui::Button("Save")) actions.save_scene = save_path_;
  tip("Save the running scene with every change made here (material, solver, forces, pins, "
      "moved solids, camera) as a scene file (Ctrl+S); side by side, the pane being edited");
  const bool sequence = !stats.sequence_dir.empty(), cache = !stats.point_cache_path.empty();
  if (ImGui::Button(sequence ? "Stop OBJ frames" : "Export OBJ frames")) actions.toggle_sequence = true;
  tip("Write every simulated frame of the (first) cloth to out/sequence-<time>/frame_00001.obj, ... "
      "with normals and texture coordinates, for animation tools (--export-sequence)");
  ImGui::SameLine();
  if (ImGui::Button(cache ? "Stop PC2" : "Export PC2")) actions.toggle_point_cache = true;
  tip("Write every simulated frame of the (first) cloth to a point cache out/cache-<time>.pc2 "
      "(Blender: Mesh Cache modifier on an OBJ of the cloth; --export-pc2)");
  if (sequence) ImGui::Text("OBJ frames: %s (%d)", stats.sequence_dir.c_str(), stats.sequence_frames);
  if (cache) ImGui::Text("PC2: %s (%d frames)", stats.point_cache_path.c_str(), stats.point_cache_samples);
  compare_setup(side_by_side, actions);
}

void Ui::scene_picker(const std::string& scene_path, UiActions& actions) {
  const std::filesystem::path current(scene_path);
  std::error_code ec;  // a path that cannot be resolved is a file of the user's
  const bool builtin = std::filesystem::equivalent(current.parent_path(),
                                                   std::filesystem::path(default_scene_path()).parent_path(), ec);
  const std::string preview = builtin ? current.stem().string() : "your file: " + current.filename().string();
  if (ImGui::BeginCombo("scene", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
    if (ImGui::IsWindowAppearing()) scene_files_ = builtin_scenes();  // files added since show up
    for (const SceneFile& file : scene_files_) {
      const std::string stem = std::filesystem::path(file.path).stem().string();
      if (ImGui::Selectable(stem.c_str(), std::filesystem::equivalent(file.path, scene_path, ec)))
        actions.load_scene = file.path;
      if (!file.name.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", file.name.c_str());
      ImGui::SameLine(ImGui::GetFontSize() * 19);
      ImGui::TextDisabled("%s", file.summary.c_str());
    }
    ImGui::EndCombo();
  }
  tip("Load one of the scenes shipped in assets/scenes (docs/scenes.md says what each shows)");
}

void Ui::compare_setup(bool side_by_side, UiActions& actions) {
  ImGui::Separator();
  const std::vector<ComparePreset>& presets = compare_presets();
  if (ImGui::BeginCombo("compare", presets[size_t(compare_preset_)].key.c_str())) {
    for (int k = 0; k < int(presets.size()); ++k) {
      if (ImGui::Selectable(presets[size_t(k)].key.c_str(), k == compare_preset_)) {
        compare_preset_ = k;
        compare_draft_ = compare_draft(k);
        compare_error_.clear();
      }
    }
    ImGui::EndCombo();
  }
  tip("The parameter the side-by-side panes differ in (--compare); each pane runs the scene with "
      "one of the values below");
  for (size_t i = 0; i < compare_draft_.values.size(); ++i) {
    std::string& value = compare_draft_.values[i];
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "%s", value.c_str());
    // A width from the font, not from the panel: the panel fits its content, so a share of its
    // width would widen it a little every frame.
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.5f);
    const std::string id = "##compare-value-" + std::to_string(i);
    if (ImGui::InputText(id.c_str(), buffer, sizeof buffer)) value = buffer;
    tip("A value for one pane, in the parameter's SI unit or name (empty: no pane)");
    if (i + 1 < compare_draft_.values.size()) ImGui::SameLine();
  }
  if (ImGui::Button("Side by side")) {
    try {
      actions.compare = compare_spec(compare_draft_);
      compare_error_.clear();
    } catch (const std::exception& e) {
      compare_error_ = e.what();
    }
  }
  tip("Run this scene 2 to 4 times side by side, one pane per value (a bad value keeps the "
      "running scene and says why above)");
  if (side_by_side) {
    ImGui::SameLine();
    if (ImGui::Button("One cloth")) actions.compare = std::string();
    tip("Back to the scene alone");
  }
  error_line(compare_error_);
}

void Ui::simulation_section(cloth::Simulation& sim, UiState& state, const cloth::ReplayBuffer* timeline,
                            UiActions& actions) {
  if (ImGui::Button(state.paused ? "Run" : "Pause")) state.paused = !state.paused;
  tip("Pause / resume the simulation (Space)");
  ImGui::SameLine();
  if (ImGui::Button("Step")) actions.step = true;
  tip("Advance one fixed step dt while paused (N)");
  ImGui::SameLine();
  if (ImGui::Button("Reset")) actions.reset = true;
  tip("Back to the initial positions and pins; settings are kept (R)");
  ImGui::SameLine();
  if (ImGui::Button("Replay") && timeline) state.replay.play_from_start(*timeline);
  tip("Play the last seconds of the run again, in slow motion, and scrub them (Home; Left / Right: "
      "one frame; End: back to live); V records what the replay shows");
  ImGui::SliderFloat("speed", &state.time_scale, 0.05f, 1.0f, "%.2f x real time", ImGuiSliderFlags_Logarithmic);
  tip("Slow motion: simulated seconds per real second (each step is still dt; fewer are taken)");

  cloth::SolverSettings solver = sim.solver();
  ParameterWidgets widgets(sim.model().type, solver.integrator);
  cloth::visit_solver(widgets, solver);
  const bool changed = widgets.changed();
  if (solver.adaptive) {
    ImGui::Text("step now %.3g s (dt/%.0f)", sim.current_step(), sim.solver().dt / sim.current_step());
    tip("The step the adaptive controller will try next, s");
  }
  if (changed) {
    apply_live(solver_error_, [&] { sim.set_solver(solver); });
  }
  error_line(solver_error_);
}

void Ui::material_section(cloth::Simulation& sim) {
  cloth::ModelType type = sim.model().type;
  if (enum_combo("model", type)) {
    // Rebuilds the elements on the same mesh and keeps the motion.
    apply_live(material_error_, [&] { sim.set_model_type(type); });
  }
  tip("Material model: Hooke springs (Yu), Baraff-Witkin (1998), "
      "edge-area (implicit cloth project), Feynman (1986), "
      "Breen (via Karthikeyan & Ranganathan); rebuilt live on the same mesh");
  cloth::SpringMaterial m = sim.model().material;
  bool changed = false;
  // The combo names the fabric the material is (its constants as the preset sets them), so a
  // pick stays visible; "custom" once a slider has moved one of them.
  std::string fabric_now = "custom";
  const auto same_fabric = [&](const cloth::SpringMaterial& f) {
    return f.stretch == m.stretch && f.shear == m.shear && f.bending == m.bending && f.density == m.density;
  };
  if (type == cloth::ModelType::Breen) {
    for (const std::string& name : cloth::breen_preset_names()) {
      if (same_fabric(cloth::breen_fabric_material(name))) fabric_now = name;
    }
  } else {
    for (const cloth::MaterialPreset& p : cloth::material_presets()) {
      if (same_fabric(p.material)) fabric_now = p.name;
    }
  }
  if (ImGui::BeginCombo("preset", fabric_now.c_str())) {
    if (type == cloth::ModelType::Breen) {
      // The Breen model's own fabrics, fitted to Kawabata curves (as "preset" in a scene file).
      for (const std::string& name : cloth::breen_preset_names()) {
        if (ImGui::Selectable(name.c_str())) {
          const double velocity_damping = m.velocity_damping;
          m = cloth::breen_fabric_material(name);
          m.velocity_damping = velocity_damping;
          changed = true;
        }
      }
    } else {
      for (const cloth::MaterialPreset& p : cloth::material_presets()) {
        if (ImGui::Selectable(p.name)) {
          // A fabric replaces the material's constants; the velocity damping (a numerical aid)
          // and the Baraff-Witkin anisotropy factors are the scene's, not the fabric's.
          cloth::SpringMaterial fabric = p.material;
          fabric.velocity_damping = m.velocity_damping;
          fabric.rest_stretch_u = m.rest_stretch_u;
          fabric.rest_stretch_v = m.rest_stretch_v;
          fabric.bend_k_u = m.bend_k_u;
          fabric.bend_k_v = m.bend_k_v;
          m = fabric;
          changed = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description);
      }
    }
    ImGui::EndCombo();
  }
  tip("Typical fabric constants (Kawabata KES classes, SI units; docs/models.md); for the Breen "
      "model, its Kawabata-fitted fabrics");
  ParameterWidgets widgets(sim.model().type, sim.solver().integrator);
  cloth::visit_material(widgets, m);
  cloth::visit_density_pattern(widgets, m.density_pattern);
  changed |= widgets.changed();
  if (changed) {
    apply_live(material_error_, [&] { sim.set_material(m); });
  }
  error_line(material_error_);
}

void Ui::collisions_section(cloth::Simulation& sim, const UiStats& stats, UiActions& actions) {
  for (int k = 0; k < int(sim.colliders().size()); ++k) {
    cloth::Collider c = sim.colliders()[size_t(k)];
    ImGui::PushID(k);
    const bool open = ImGui::TreeNode("solid", "%s: thickness %.1f mm%s", cloth::shape_name(c.shape),
                                      1e3 * c.thickness, c.motion.moves() ? ", moving" : "");
    tip("This solid's thickness, friction, sizes and path, changed live; Shift + drag moves it");
    if (open) {
      // The declared parameters (collision/collider.hpp, kinematics/motion_path.hpp).
      ParameterWidgets widgets(sim.model().type, sim.solver().integrator);
      cloth::visit_collider(widgets, c);
      std::visit([&](auto& shape) { cloth::visit_shape(widgets, shape); }, c.shape);
      ParameterWidgets motion(sim.model().type, sim.solver().integrator);
      const bool pinned_to = std::find(stats.solids_pins_follow.begin(), stats.solids_pins_follow.end(), k) !=
                             stats.solids_pins_follow.end();
      ImGui::BeginDisabled(pinned_to);
      cloth::visit_motion(motion, c.motion);
      ImGui::EndDisabled();
      if (pinned_to) tip("Pins follow this solid: its path stays as the scene file gives it");
      if (widgets.changed() || motion.changed()) {
        apply_live(collider_error_, [&] {
          cloth::update_rotation(c.shape);
          if (motion.changed()) cloth::make_axes_perpendicular(c.motion, "colliders." + std::to_string(k) + ".motion");
          sim.colliders().replace(k, c);  // checks a typed-in value against its declared range
        });
      }
      if (ImGui::SmallButton("Remove")) actions.remove_solid = k;
      tip("Take this solid out of the scene (Save keeps it out)");
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  error_line(collider_error_);
  ImGui::TextUnformatted("Add:");
  for (const char* type : {"sphere", "box", "capsule"}) {
    ImGui::SameLine();
    if (ImGui::SmallButton(type)) actions.add_solid = type;
  }
  tip("Add a solid a third of the cloth's size just below it; Shift + drag moves it");
  const cloth::FrameReport& r = sim.statistics().last_report;
  ImGui::Text("solid contacts %d, collision %.2f ms/frame", r.integration.contacts, r.integration.timings.collision_ms);
  tip("Vertices touching a solid in the last substep; wall time of the collision stage");
  cloth::SelfCollisionSettings s = sim.self_collision();
  ParameterWidgets widgets(sim.model().type, sim.solver().integrator);
  cloth::visit_self_collision(widgets, s);
  const bool changed = widgets.changed();
  if (s.enabled) ImGui::Text("cloth-cloth pairs %d", r.integration.self_contacts);
  if (changed) {
    apply_live(solver_error_, [&] { sim.set_self_collision(s); });
  }
  error_line(solver_error_);
}

void Ui::tearing_section(cloth::Simulation& sim) {
  cloth::TearSettings t = sim.tearing().settings();
  ParameterWidgets widgets(sim.model().type, sim.solver().integrator);
  cloth::visit_tearing(widgets, t);
  const bool changed = widgets.changed();
  ImGui::Text("edges broken %d, pieces %d", sim.tearing().torn_edges(), cloth::connected_pieces(sim.model().mesh));
  if (changed) {
    apply_live(tearing_error_, [&] { sim.set_tearing(t); });
  }
  error_line(tearing_error_);
}

void Ui::cloth_section(const cloth::Simulation& sim, const ClothLayout& layout, UiActions& actions) {
  if (draft_of_ != &layout || !(grid_edited_ || pins_edited_ || slides_edited_)) {
    layout_draft_ = layout;  // the running cloth's, unless an edit is under way
    draft_of_ = &layout;
    grid_edited_ = pins_edited_ = slides_edited_ = false;
  }
  const cloth::ModelType model = sim.model().type;
  const cloth::IntegratorType integrator = sim.solver().integrator;
  if (layout_draft_.grid) {
    ImGui::TextUnformatted("grid");
    tip("A change rebuilds the cloth with every setting made here kept (pins move to the same "
        "place on the new grid)");
    ParameterWidgets grid(model, integrator);
    cloth::visit_grid(grid, *layout_draft_.grid);
    grid_edited_ |= grid.changed();
  } else {
    ImGui::TextDisabled("mesh from a file: %d vertices", sim.tearing().intact_mesh().vertex_count());
  }
  // Which vertices: a combo over the selector's four keys, then the chosen key's widget.
  const auto selector = [&](cloth::VertexSelector& s, ParameterWidgets& widgets) {
    static const char* const kBy[] = {"corner", "edge", "column", "row", "vertex"};
    int by = int(s.kind);
    if (ImGui::Combo("by", &by, kBy, 5) && by != int(s.kind)) {
      s.kind = cloth::VertexSelector::Kind(by);
      widgets.mark_changed();
    }
    tip("Which vertices: a corner, a side of the grid, a grid column or row, or one vertex");
    cloth::visit_selector(widgets, s);
  };
  for (size_t k = 0; k < layout_draft_.pins.size(); ++k) {
    cloth::PinSpec& pin = layout_draft_.pins[k];
    ImGui::PushID(int(k));
    const char* how = pin.collider >= 0 ? "follows a solid" : pin.motion.moves() ? "moving" : "fixed";
    if (ImGui::TreeNode("pin", "pin %zu: %s", k, how)) {
      ParameterWidgets widgets(model, integrator);
      selector(pin, widgets);
      cloth::visit_pin(widgets, pin);
      ImGui::BeginDisabled(pin.collider >= 0);
      cloth::visit_motion(widgets, pin.motion);
      ImGui::EndDisabled();
      if (pin.collider >= 0) tip("This pin follows the path of its solid");
      pins_edited_ |= widgets.changed();
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  for (size_t k = 0; k < layout_draft_.slides.size(); ++k) {
    cloth::SlideSpec& slide = layout_draft_.slides[k];
    ImGui::PushID(int(1000 + k));
    const bool line = slide.kind == cloth::SlideConstraint::Kind::Line;
    if (ImGui::TreeNode("slide", "slide %zu: on a %s", k, line ? "line" : "plane")) {
      ParameterWidgets widgets(model, integrator);
      selector(slide, widgets);
      static const char* const kOn[] = {"line", "plane"};
      int on = line ? 0 : 1;
      if (ImGui::Combo("on", &on, kOn, 2) && on != (line ? 0 : 1)) {
        slide.kind = on == 0 ? cloth::SlideConstraint::Kind::Line : cloth::SlideConstraint::Kind::Plane;
        widgets.mark_changed();
      }
      tip("Held on a line (free along its direction) or in a plane (free across its normal)");
      cloth::visit_slide(widgets, slide);
      slides_edited_ |= widgets.changed();
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  // An edit is complete once no widget is held (a slider released, a value typed in): then the
  // cloth is rebuilt once, not on every frame of a drag.
  if ((grid_edited_ || pins_edited_ || slides_edited_) && !ImGui::IsAnyItemActive()) {
    ClothEdit edit;
    if (grid_edited_) edit.grid = layout_draft_.grid;
    if (pins_edited_) edit.pins = layout_draft_.pins;
    if (slides_edited_) edit.slides = layout_draft_.slides;
    actions.rebuild = edit;
    grid_edited_ = pins_edited_ = slides_edited_ = false;
  }
}

void Ui::apply_finished_drape(cloth::Simulation& sim) {
  if (std::optional<cloth::DrapeResult> r = drape_.take_result()) {
    char line[256];
    std::snprintf(line, sizeof line, "%s: %d iterations, E = %.6g J, max |f| = %.2g N",
                  r->converged ? "converged" : r->message.c_str(), r->iterations, r->energy, r->max_force);
    drape_status_ = line;
    try {
      if (!r->x.empty()) sim.set_positions(r->x);  // the cloth at rest in its equilibrium shape
    } catch (const cloth::InputError& e) {  // e.g. the cloth tore while the drape was solved
      drape_status_ = std::string("not applied: ") + e.what();
    }
  }
}

void Ui::drape_section(cloth::Simulation& sim, cloth::DrapeSettings& settings) {
  const bool running = drape_.running();
  ImGui::BeginDisabled(running);
  // The declared settings (drape/drape_settings.hpp), each shown for the methods that use it;
  // Save writes them as the scene's "drape".
  ParameterWidgets widgets(sim.model().type, sim.solver().integrator);
  cloth::visit_drape(widgets, settings);
  if (ImGui::Button("Drape it")) {
    try {
      cloth::visit_drape(cloth::RangeCheck("drape"), std::as_const(settings));  // a typed-in value
      drape_.start(sim, settings);
      drape_status_ = "solving...";
    } catch (const std::exception& e) {
      drape_status_ = e.what();
    }
  }
  tip("Find the resting shape directly (energy minimisation) from the current one; the "
      "simulation then continues from it at rest");
  ImGui::EndDisabled();
  if (running) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) drape_.cancel();
  }
  const std::vector<cloth::DrapeProgress> progress = drape_.progress();
  if (!progress.empty()) {
    std::vector<float> log_force;
    log_force.reserve(progress.size());
    for (const cloth::DrapeProgress& p : progress) log_force.push_back(float(std::log10(std::max(p.max_force, 1e-30))));
    const cloth::DrapeProgress& last = progress.back();
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "#%d  E %.6g J", last.iteration, last.energy);
    ImGui::PlotLines("log10 max|f|", log_force.data(), int(log_force.size()), 0, overlay, FLT_MAX,
                     FLT_MAX, ImVec2(0, 70 * scale()));
    tip("Largest residual force per sweep / cycle / iteration, log10 N");
  }
  if (!drape_status_.empty()) ImGui::TextWrapped("%s", drape_status_.c_str());
}

void Ui::forces_section(cloth::Simulation& sim) {
  cloth::ExternalForces f = sim.external_forces();
  ParameterWidgets widgets(sim.model().type, sim.solver().integrator);
  cloth::visit_forces(widgets, f);
  bool changed = widgets.changed();
  if (ImGui::Button("Earth")) {
    f.gravity = cloth::Vec3(0, -9.81, 0);
    changed = true;
  }
  tip("Reset gravity to (0, -9.81, 0) m/s^2");
  ImGui::SameLine();
  if (ImGui::Button("Zero-g")) {
    f.gravity.setZero();
    changed = true;
  }
  tip("No gravity, m/s^2");
  ParameterWidgets wind(sim.model().type, sim.solver().integrator);
  const cloth::WindField::Type wind_before = f.wind.type;
  cloth::visit_wind(wind, f.wind);
  changed |= wind.changed();
  // Wind picked from none starts blowing: a still "wind" would look like a broken control.
  if (wind_before == cloth::WindField::Type::None && f.wind.type != wind_before && f.wind.speed == 0)
    f.wind.speed = kFirstWindSpeed;
  if (f.wind.type != cloth::WindField::Type::None && !cloth::air_drag(f, sim.model().material).any()) {
    ImGui::TextDisabled("(wind acts through air drag: set the air density or q > 0)");
  }
  if (changed) {
    apply_live(forces_error_, [&] { sim.set_external_forces(f); });
  }
  // The mouse: placed kinematically, or B&W's "mouse forces" (sec. 2) as a damped spring.
  cloth::GrabSettings grab = sim.mouse().settings();
  bool grab_changed = false;
  const char* const kGrabModes[] = {"kinematic", "spring"};
  int mode = grab.mode == cloth::GrabMode::Spring ? 1 : 0;
  if (ImGui::Combo("mouse grab", &mode, kGrabModes, 2)) {
    grab.mode = mode == 1 ? cloth::GrabMode::Spring : cloth::GrabMode::Kinematic;
    grab_changed = true;
  }
  tip("Kinematic: the grabbed vertex follows the cursor (at most 20 m/s). Spring: a damped "
      "zero-length spring pulls it, f = k (cursor - x) - c v");
  if (grab.mode == cloth::GrabMode::Spring) {
    grab_changed |= slider_double("grab stiffness", &grab.stiffness, 0.1, 1e4, "%.3g N/m", true);
    tip("k of the mouse spring, N/m: a cloth held by it hangs its weight / k below the cursor");
    grab_changed |= slider_double("grab damping", &grab.damping, 0.0, 1.0, "%.3g N*s/m", false);
    tip("c of the mouse spring, N*s/m: drag on the grabbed vertex's velocity");
  }
  if (grab_changed) {
    apply_live(forces_error_, [&] { sim.mouse().set_settings(grab); });
  }
  error_line(forces_error_);
}

void Ui::heat_map_legend(float top) {
  // The scale as a bar, labelled at both ends and the middle.
  const float width = ImGui::GetContentRegionAvail().x, height = ImGui::GetTextLineHeight();
  draw_heat_bar(ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), ImVec2(width, height));
  ImGui::Dummy(ImVec2(width, height));
  ImGui::Text("0 %%");
  ImGui::SameLine(width * 0.5f - 2.0f * height);
  ImGui::Text("%.1f %%", 50.0f * top);
  ImGui::SameLine(width - 3.5f * height);
  ImGui::Text("%.1f %%+", 100.0f * top);
}

void Ui::view_section(UiState& state, const UiStats& stats, UiActions& actions) {
  ImGui::Checkbox("wireframe", &state.view.wireframe);
  tip("Draw triangle edges over the cloth (W)");
  ImGui::SameLine();
  ImGui::Checkbox("pins", &state.view.show_pins);
  tip("Mark pinned vertices (yellow) and the grabbed one (green)");
  ImGui::SameLine();
  ImGui::Checkbox("ground", &state.view.show_ground);
  tip("Ground plane with 1 m / 0.1 m grid lines");
  ImGui::SameLine();
  ImGui::Checkbox("shadow", &state.view.show_shadow);
  tip("The cloth's shadow on the ground, cast by the key light");
  ImGui::SameLine();
  ImGui::Checkbox("plots", &state.show_plots);
  tip("Live plots of the last steps: time split, CG iterations, energy, step size (P)");
  ImGui::SliderFloat("resolution", &state.render_scale, kMinRenderScale, 1.0f, "%.2f x window");
  state.render_scale = clamped_render_scale(state.render_scale);
  tip("Draw the cloth's picture at this fraction of the window's width and height, scaled up "
      "under the panel: below 1 a software renderer (no GPU) draws faster; 0.5 is its default "
      "(--render-scale)");
  if (ImGui::BeginCombo("texture", cloth_texture_name(state.view.texture))) {
    for (ClothTexture t : {ClothTexture::None, ClothTexture::Checker, ClothTexture::Fabric}) {
      if (ImGui::Selectable(cloth_texture_name(t), t == state.view.texture)) state.view.texture = t;
    }
    ImGui::EndCombo();
  }
  tip("An image on the cloth's front: a checker (8 squares per 25 cm: shows stretch and shear) "
      "or a woven fabric (5 mm threads)");
  ImGui::Checkbox("strain heat map", &state.view.strain_heat_map);
  tip("Colour the cloth by how stretched it is: each vertex shows the largest strain "
      "(|x_i - x_j| / rest - 1) of its edges");
  if (state.view.strain_heat_map) {
    float top_percent = 100.0f * state.view.heat_map_top;
    if (ImGui::SliderFloat("red at", &top_percent, 0.5f, 100.0f, "%.1f %% strain", ImGuiSliderFlags_Logarithmic))
      state.view.heat_map_top = std::max(top_percent, 0.1f) / 100.0f;
    tip("Strain shown in red (and above); blue is unstretched or compressed");
    heat_map_legend(state.view.heat_map_top);
  }
  ImGui::Checkbox("velocity", &state.view.velocity_arrows);
  tip("Green arrows: vertex velocity, 10 cm per m/s");
  ImGui::SameLine();
  ImGui::Checkbox("force", &state.view.force_arrows);
  tip("Red arrows: applied force / mass on the vertex (gravity, damping, drag and wind; not the "
      "material's, see the heat map), 1 cm per m/s^2 (g is about 10 cm)");
  ImGui::SameLine();
  ImGui::Checkbox("wind", &state.view.wind_arrows);
  tip("Blue arrows: air velocity at the vertex, 2 cm per m/s");
  ImGui::SameLine();
  ImGui::Checkbox("caption", &state.view.caption);
  tip("The scene's name along the bottom of the picture, in screenshots and videos too (C)");
  ImGui::SameLine();
  ImGui::Checkbox("contacts", &state.view.show_contacts);
  tip("Cyan dots: vertices touching a solid or the ground (within its contact offset + 1 mm)");
  ImGui::SameLine();
  ImGui::Checkbox("springs", &state.view.show_springs);
  tip("The model's springs: structural white, shear yellow, bend magenta (mass-spring model; the "
      "other models show their triangle edges in white)");
  if (ImGui::Button("Reset camera")) actions.reset_camera = true;
  tip("Back to the scene's camera");
  for (const auto& [label, preset] : {std::pair{"Front", CameraPreset::Front}, std::pair{"Side", CameraPreset::Side},
                                      std::pair{"Top", CameraPreset::Top}}) {
    ImGui::SameLine();
    if (ImGui::Button(label)) actions.camera_preset = preset;
  }
  tip("Look at the same point from the front (along -z), the side (along -x) or from above");
  if (ImGui::Button("Screenshot")) actions.screenshot = true;
  tip("Save a PNG of the window to out/ (F12)");
  ImGui::SameLine();
  if (ImGui::Button(stats.recording ? "Stop recording" : "Record")) actions.toggle_recording = true;
  tip("Record the window to out/recording-<time>.mp4 through ffmpeg (V)");
  if (stats.recording)
    ImGui::TextColored(kErrorColor, "REC %s (%d frames, %.1f s)", stats.recording_path.c_str(),
                       stats.recorded_frames, stats.recorded_seconds);
  if (!stats.message.empty()) ImGui::TextWrapped("%s", stats.message.c_str());
}

// A VBD step whose last iteration still moves a tenth as far as its first has not converged:
// (test Vbd.LastMoveShrinksWithIterations: 39% after 2 iterations, 0.14% after 40).
constexpr double kVbdUnconverged = 0.1;

void Ui::stats_section(const cloth::Simulation& sim, const UiStats& stats) {
  ImGui::Text("%.1f fps, %.2f ms/frame", stats.fps, stats.frame_ms);
  tip("Display rate and wall time per displayed frame");
  ImGui::Text("simulation %.2f ms/frame (%d steps)", stats.sim_ms, stats.steps_per_frame);
  tip("Wall time in the solver per displayed frame, and fixed steps taken in it");
  if (stats.skipped_draws > 0) {
    ImGui::Text("%lld draws skipped", stats.skipped_draws);
    tip("Draws left out so that the simulation keeps real time (at least 4 draws a second)");
  }
  ImGui::Text("sim time %.3f s, %lld steps", sim.time(), static_cast<long long>(sim.statistics().steps));
  tip("Simulated time, s, and fixed steps taken");
  ImGui::Text("substeps %d%s", sim.substeps(),
              sim.substeps_raised() ? " (raised by the blow-up guard)" : sim.solver().substeps == 0 ? " (auto)" : "");
  tip("Substeps each step runs now: the panel's, the explicit integrators' stability bound when it "
      "is 0 (auto), or more while the blow-up guard recovers (halved back once stable)");
  if (stats.behind) {
    ImGui::TextColored(kErrorColor, "slower than real time: %d steps dropped", stats.dropped_steps);
    tip("The solver cannot keep up; the simulation runs in slow motion (fewer substeps help)");
  }
  const cloth::Energies e = sim.energies();
  ImGui::Text("kinetic %.4g J, elastic %.4g J", e.kinetic, e.elastic);
  tip("Kinetic energy sum 1/2 m v^2 and spring energy, J");
  ImGui::Text("max edge strain %.2f%%", 100.0 * cloth::SimulationView(sim).max_edge_strain());
  tip("Largest relative elongation of a mesh edge (dimensionless, shown in %)");
  if (const double cg = sim.statistics().mean_solver_iterations();
      cg >= 0 && sim.solver().integrator == cloth::IntegratorType::Implicit) {
    ImGui::Text("CG iterations %.1f per solve", cg);
    tip("Mean modified-PCG iterations per implicit step since the start");
  }
  // Only after a VBD step: 0 until then (a step that moved nothing reports 0 too).
  if (const double ratio = sim.statistics().last_report.integration.last_move_ratio;
      sim.solver().integrator == cloth::IntegratorType::Vbd && ratio > 0) {
    if (ratio > kVbdUnconverged) {
      ImGui::TextColored(kErrorColor, "vbd unconverged: last iteration moved %.0f%% of the first", 100 * ratio);
      tip("The descent stopped far from the backward Euler step: the cloth is softer and more damped "
          "than its material says. Raise vbd iterations or substeps");
    } else {
      ImGui::Text("vbd last iteration moved %.1f%% of the first", 100 * ratio);
      tip("How far the descent is from converged (0: converged), per step");
    }
  }
  ImGui::Text("rejected steps: %lld", static_cast<long long>(sim.statistics().rejected_steps));
  tip("Proposed steps discarded: blow-ups, and the adaptive controller's stretch test");
  ImGui::Text("pinned %d of %d vertices", sim.pins().pinned_count(), sim.model().vertex_count());
  tip("Ctrl+click a vertex to pin / unpin it");
  if (sim.statistics().instabilities > 0) {
    ImGui::TextColored(kErrorColor, "instabilities: %d", sim.statistics().instabilities);
    tip("Steps that blew up and were rolled back (lower dt or stiffness, or add substeps)");
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 320.0f);
    ImGui::TextColored(kErrorColor, "%s", sim.statistics().last_instability.c_str());
    ImGui::PopTextWrapPos();
  } else {
    ImGui::Text("instabilities: 0");
    tip("Steps that blew up and were rolled back");
  }
}

void Ui::plots_window(const cloth::Simulation& sim, UiState& state, const StepHistory& h) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 10.0f, vp->WorkPos.y + 10.0f),
                          ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
  if (!ImGui::Begin("Plots (P to close)", &state.show_plots, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  const ImVec2 size(310.0f * scale(), 40.0f * scale());
  char overlay[96];
  // One small line plot per series, over the last StepHistory::kCapacity steps; the overlay shows
  // the latest value and the plot's top, so the scale is never a guess.
  const auto plot = [&](const char* id, StepHistory::Series s, const char* fmt, float lo) {
    std::snprintf(overlay, sizeof overlay, fmt, h.latest(s), h.max(s));
    ImGui::PlotLines(id, h.data(s), h.size(), h.offset(), overlay, lo, std::max(h.max(s), lo + 1e-6f), size);
  };
  ImGui::TextUnformatted("per step, last 300 steps:");
  plot("##assembly", StepHistory::AssemblyMs, "assembly %.3f ms (top %.3f)", 0.0f);
  tip("Building forces (and, implicit, the Jacobians and the system matrix) per step, ms");
  plot("##solve", StepHistory::SolveMs, "solve %.3f ms (top %.3f)", 0.0f);
  tip("The linear solve (implicit) or the state update and projections (others) per step, ms");
  plot("##collision", StepHistory::CollisionMs, "collision %.3f ms (top %.3f)", 0.0f);
  tip("Contact detection and response per step, ms");
  if (sim.solver().integrator == cloth::IntegratorType::Implicit && !sim.solver().direct_solve) {
    plot("##cg", StepHistory::CgIterations, "CG iterations %.0f (top %.0f)", 0.0f);
    tip("Modified-PCG iterations per step (B&W sec. 5.3)");
  }
  // Energy is plotted between its own extremes: its changes matter, not its offset.
  std::snprintf(overlay, sizeof overlay, "total energy %.4g J", h.latest(StepHistory::TotalEnergy));
  ImGui::PlotLines("##energy", h.data(StepHistory::TotalEnergy), h.size(), h.offset(), overlay,
                   h.min(StepHistory::TotalEnergy), h.max(StepHistory::TotalEnergy) + 1e-9f, size);
  tip("Kinetic + gravitational + elastic energy, J: flat without damping, falling with it");
  plot("##kinetic", StepHistory::KineticEnergy, "kinetic %.4g J (top %.4g)", 0.0f);
  tip("Kinetic energy sum 1/2 m v^2, J");
  if (sim.solver().adaptive) {
    plot("##step", StepHistory::StepSize, "step %.3g s (top %.3g)", 0.0f);
    tip("Shortest accepted step of each frame, s (adaptive stepping)");
    plot("##rejected", StepHistory::RejectedSteps, "rejected %.0f (top %.0f)", 0.0f);
    tip("Steps discarded by the stretch test or a blow-up, per frame");
  }
  ImGui::End();
}

void Ui::help_overlay(UiState& state) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(
      ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
      ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.95f);
  if (!ImGui::Begin("Help (F1 to close)", &state.show_help,
                    ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  if (ImGui::BeginTable("bindings", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    const auto row = [](const char* label, const char* what) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(label);
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(what);
    };
    for (const PointerBinding& b : kPointerBindings) row(b.label, b.what);
    for (const KeyBinding& b : kKeyBindings) row(b.label, b.what);
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace app
