#pragma once
// The reference table of the declared scene parameters (core/parameter.hpp), in Markdown:
// docs/scene-format.md carries it between the markers below (the test
// ParameterReference.DocsMatchTheDeclarations holds them equal; `clothsim --parameter-reference`
// prints it).
#include <string>

namespace cloth {

inline constexpr const char* kParameterReferenceBegin = "<!-- parameter-reference:begin -->";
inline constexpr const char* kParameterReferenceEnd = "<!-- parameter-reference:end -->";

/// One table per section: key, unit, accepted range, default, the models that use it, meaning.
std::string parameter_reference_markdown();

}  // namespace cloth
