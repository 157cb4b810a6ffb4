// Reading the D&C elements that plans (.cdp) and component interface
// descriptions (.ccd) share: children by name, required texts, references,
// booleans, typed values and properties. Internal to the deployment library.
#pragma once

#include <functional>
#include <initializer_list>
#include <mwccm/deployment/plan.hpp>
#include <string>
#include <utility>
#include <vector>

#include "xml_document.hpp"

namespace mwccm::deployment::detail {

using Handler = std::function<void(const XmlElement&)>;

// Calls the handler named by each child element; `ignored` children are
// skipped; any other is a PlanError listing what `element` may hold.
void read_children(const XmlElement& element,
                   std::initializer_list<std::pair<const char*, Handler>> handlers,
                   std::initializer_list<const char*> ignored = {});
// The same for the root's children, as the document streams them.
void read_children(XmlDocument& document,
                   std::initializer_list<std::pair<const char*, Handler>> handlers,
                   std::initializer_list<const char*> ignored = {});

// The text of a child that must be there once: pass reader() to
// read_children, then get() (PlanError when it was missing).
class Required {
 public:
  Required(const XmlElement& parent, const char* name) : parent_(parent), name_(name) {}
  Handler reader();
  std::string get() const;
  SourceLocation where() const { return where_; }  // of the child once read

 private:
  const XmlElement& parent_;
  std::string name_;
  std::string text_;
  SourceLocation where_;
  bool found_ = false;
};

std::string idref(const XmlElement& element);  // xmi:idref, required
bool read_boolean(const XmlElement& element);  // true/false/1/0

// A DataType: <type><kind>tk_enum</kind><enum><typeId/><member/>...</enum></type>
struct ValueType {
  ValueKind kind = ValueKind::String;
  std::string enum_type_id;
  std::vector<std::string> enum_members;
};
ValueType read_value_type(const XmlElement& type);

// <value><type>...</type><value><long>5</long></value></value>
TypedValue read_typed_value(const XmlElement& value);
// <name/> and <value/>: configProperty, execParameter, infoProperty, property.
Property read_property(const XmlElement& element);

}  // namespace mwccm::deployment::detail
