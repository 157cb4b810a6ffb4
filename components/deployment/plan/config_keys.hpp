// The keys of DnCX11's .config format that mwccm reads and writes, and
// mwccm's extensions to it (docs/deployment.md section 1). Internal.
#pragma once

namespace mwccm::deployment::detail::config_keys {

inline constexpr const char* kPrefix = "nl.remedy.it.";
inline constexpr const char* kComponent = "nl.remedy.it.CCM.Component";
inline constexpr const char* kLocalityManager = "nl.remedy.it.DnCX11.LocalityManager";
inline constexpr const char* kProperty = "nl.remedy.it.DnCX11.Property";
inline constexpr const char* kNode = "nl.remedy.it.DnCX11.Node";
inline constexpr const char* kLocality = "nl.remedy.it.DnCX11.Locality";
inline constexpr const char* kArtifact = "nl.remedy.it.DnCX11.Artifact";
inline constexpr const char* kConnection = "nl.remedy.it.DnCX11.Connection";
inline constexpr const char* kExternalConnection = "nl.remedy.it.DnCX11.ExternalConnection";
inline constexpr const char* kExecParameter = "nl.remedy.it.DnCX11.ExecParameter";
inline constexpr const char* kConfigProperty = "nl.remedy.it.DnCX11.ConfigProperty";

// Plan-level properties that carry the D&C plan's label and UUID, which the
// .config format has no place for (mwccm extension).
inline constexpr const char* kLabel = "mwccm.Label";
inline constexpr const char* kUuid = "mwccm.UUID";

// Links between ports. DnCX11's: "<" my receptacle uses the peer's facet,
// ">" my facet serves the peer's receptacle. mwccm's, for events: "=>" my
// event source sends to the peer's consumer, "<=" my consumer takes the
// peer's source.
inline constexpr const char* kUses = "<";
inline constexpr const char* kProvides = ">";
inline constexpr const char* kSends = "=>";
inline constexpr const char* kConsumes = "<=";

}  // namespace mwccm::deployment::detail::config_keys
