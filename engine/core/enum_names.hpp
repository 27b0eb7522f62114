#pragma once
// One name table per enum: the words a scene file, --set and the panel use for its values. Each
// enum E declares `std::span<const NamedValue<E>> value_names(E)` beside itself (found by
// argument-dependent lookup); name_of, value_named and the panel's combo boxes all read that one
// table, so a new value is named in one place.
#include <ostream>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace cloth {

template <class E>
struct NamedValue {
  E value;
  const char* name;
};

/// Whether a name table lists its enum's values in order, 0, 1, 2, ...: the UsedBy masks of
/// core/parameter.hpp give value i bit i.
template <class E, size_t N>
constexpr bool listed_in_enum_order(const NamedValue<E> (&table)[N]) {
  for (size_t i = 0; i < N; ++i) {
    if (table[i].value != E(i)) return false;
  }
  return true;
}

/// The names joined by ", ".
inline std::string joined(std::span<const char* const> names) {
  std::string out;
  for (const char* name : names) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

/// Every value of E in table order.
template <class E>
std::vector<E> all_values() {
  std::vector<E> out;
  for (const NamedValue<E>& n : value_names(E{})) out.push_back(n.value);
  return out;
}

/// The scene-file name of `value` ("?" for a value missing from its table).
template <class E>
const char* name_of(E value) {
  for (const NamedValue<E>& n : value_names(E{})) {
    if (n.value == value) return n.name;
  }
  return "?";
}


/// Every name of E in table order, joined by ", ".
template <class E>
std::string name_choices() {
  std::vector<const char*> names;
  for (const NamedValue<E>& n : value_names(E{})) names.push_back(n.name);
  return joined(names);
}

/// The value called `name`; throws InputError "KEY must be one of a, b, c, got "name"".
template <class E>
E value_named(std::string_view name, const std::string& key) {
  for (const NamedValue<E>& n : value_names(E{})) {
    if (name == n.name) return n.value;
  }
  throw InputError(key + " must be one of " + name_choices<E>() + ", got \"" + std::string(name) + "\"");
}

/// Writes a named enum's name (test messages and logs print "implicit", not a number).
template <class E>
  requires requires(E e) { value_names(e); }
std::ostream& operator<<(std::ostream& out, E value) {
  return out << name_of(value);
}

}  // namespace cloth
