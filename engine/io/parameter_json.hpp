#pragma once
// Declared parameters (core/parameter.hpp) written into a scene document's JSON object: numbers as
// numbers, vectors and pairs as arrays, enums and choices by name; an unset Optional as no key.
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/enum_names.hpp"
#include "core/parameter.hpp"

namespace cloth {

struct WriteParameters {
  nlohmann::json& out;
  void operator()(double x, const ParamInfo& p) const { out[p.key] = x; }
  template <IntegerField I>
  void operator()(I x, const ParamInfo& p) const {
    out[p.key] = x;
  }
  void operator()(bool x, const ParamInfo& p) const { out[p.key] = x; }
  void operator()(const Vec3& x, const ParamInfo& p) const { out[p.key] = {x.x(), x.y(), x.z()}; }
  template <class T>
  void operator()(Pair<T> x, const ParamInfo& p) const {
    out[p.key] = {x.a, x.b};
  }
  template <class T>
  void operator()(Switchable<T> s, const ParamInfo& p) const {
    (*this)(s.value, p);
  }
  template <class O>
  void operator()(Optional<O> o, const ParamInfo& p) const {  // unset: no key
    if (o.value) {
      (*this)(*o.value, p);
    } else {
      out.erase(p.key);
    }
  }
  template <class V>
  void operator()(Direction<V> d, const ParamInfo& p) const {
    (*this)(d.value, p);
  }
  template <class S>
  void operator()(Choice<S> c, const ParamInfo& p) const {
    out[p.key] = std::string(c.value);
  }
  template <class E>
    requires std::is_enum_v<E>
  void operator()(E x, const ParamInfo& p) const {
    out[p.key] = name_of(x);
  }
};

/// WriteParameters for the parameters that apply now (ParamInfo::visible) and no key for the
/// others: a selector's one key of four.
struct WriteVisibleParameters {
  nlohmann::json& out;
  template <class F>
  void operator()(F&& x, const ParamInfo& p) const {
    if (p.visible) {
      WriteParameters{out}(std::forward<F>(x), p);
    } else {
      out.erase(p.key);
    }
  }
};

}  // namespace cloth
