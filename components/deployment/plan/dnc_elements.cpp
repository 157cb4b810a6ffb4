// The D&C elements shared by the .cdp and .ccd readers.
#include "dnc_elements.hpp"

#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <mwccm/deployment/typed_value.hpp>
#include <optional>
#include <stdexcept>

namespace mwccm::deployment::detail {

namespace {

void read_child(const XmlElement& element, const XmlElement& child,
                std::initializer_list<std::pair<const char*, Handler>> handlers,
                std::initializer_list<const char*> ignored) {
  const std::string name = child.name();
  for (const auto& [expected, handler] : handlers) {
    if (name == expected) return handler(child);
  }
  for (const char* skip : ignored) {
    if (name == skip) return;
  }
  std::string allowed;
  for (const auto& handler : handlers)
    allowed += std::string(allowed.empty() ? "" : ", ") + handler.first;
  throw PlanError(child.where(), "<" + element.name() + "> has no element <" + shortened(name) +
                                     "> (it holds " + allowed + ")");
}

}  // namespace

void read_children(const XmlElement& element,
                   std::initializer_list<std::pair<const char*, Handler>> handlers,
                   std::initializer_list<const char*> ignored) {
  for (const XmlElement& child : element.children()) read_child(element, child, handlers, ignored);
}

void read_children(XmlDocument& document,
                   std::initializer_list<std::pair<const char*, Handler>> handlers,
                   std::initializer_list<const char*> ignored) {
  const XmlElement root = document.root();
  document.each_child([&](const XmlElement& child) { read_child(root, child, handlers, ignored); });
}

Handler Required::reader() {
  return [this](const XmlElement& e) {
    if (found_) throw PlanError(e.where(), "<" + parent_.name() + "> has a second <" + name_ + ">");
    text_ = e.text();
    where_ = e.where();
    found_ = true;
  };
}

std::string Required::get() const {
  if (!found_) throw PlanError(parent_.where(), "<" + parent_.name() + "> has no <" + name_ + ">");
  return text_;
}

std::string idref(const XmlElement& element) {
  std::string id = element.attribute("idref");
  if (id.empty()) throw PlanError(element.where(), "<" + element.name() + "> has no xmi:idref");
  return id;
}

bool read_boolean(const XmlElement& element) {
  const std::string text = element.text();
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  throw PlanError(element.where(), "<" + element.name() + "> is true or false, not " + quote(text));
}

ValueType read_value_type(const XmlElement& type) {
  ValueType result;
  Required kind(type, "kind");
  read_children(
      type, {{"kind", kind.reader()},
             {"enum", [&](const XmlElement& e) {
                read_children(
                    e, {{"name", [](const XmlElement&) {}},
                        {"typeId", [&](const XmlElement& t) { result.enum_type_id = t.text(); }},
                        {"member",
                         [&](const XmlElement& m) { result.enum_members.push_back(m.text()); }}});
              }}});
  const std::string tk = kind.get();
  auto value_kind = value_kind_from_tk(tk);
  if (!value_kind) {
    throw PlanError(kind.where(), "<kind> " + shortened(tk) +
                                      " is not a kind mwccm reads (tk_boolean, tk_char, tk_octet, "
                                      "tk_short, tk_ushort, tk_long, tk_ulong, tk_longlong, "
                                      "tk_ulonglong, tk_float, tk_double, tk_string, tk_enum)");
  }
  result.kind = *value_kind;
  if (result.kind == ValueKind::Enum && result.enum_members.empty()) {
    throw PlanError(type.where(), "a tk_enum <type> lists its <enum> <member>s");
  }
  return result;
}

// <value><type>...</type><value><long>5</long></value></value>
TypedValue read_typed_value(const XmlElement& value) {
  std::optional<ValueType> type;
  std::optional<XmlElement> data;
  read_children(value, {{"type", [&](const XmlElement& e) { type = read_value_type(e); }},
                        {"value", [&](const XmlElement& e) { data = e; }}});
  if (!type) throw PlanError(value.where(), "<value> has no <type>");
  if (!data) throw PlanError(value.where(), "<value> has no inner <value>");
  const auto items = data->children();
  if (items.size() != 1) {
    throw PlanError(data->where(), "the inner <value> holds one element, such as <" +
                                       tk_name(type->kind).substr(3) + ">");
  }
  const XmlElement& item = items.front();
  // "tk_long" → <long>; a tk_char is written <string> (D&C's DataValue has no <char>).
  const std::string expected =
      type->kind == ValueKind::Char ? "string" : tk_name(type->kind).substr(3);
  if (item.name() != expected && !(type->kind == ValueKind::Char && item.name() == "char")) {
    throw PlanError(item.where(), "a " + tk_name(type->kind) + " value is written <" + expected +
                                      ">, not <" + shortened(item.name()) + ">");
  }
  try {
    if (type->kind == ValueKind::Enum) {
      return make_enum_value(type->enum_type_id, type->enum_members, item.text());
    }
    return make_value(type->kind, item.text());
  } catch (const std::invalid_argument& e) {
    throw PlanError(item.where(), "<" + expected + "> must be " + e.what());
  }
}

Property read_property(const XmlElement& element) {
  Property property;
  property.where = element.where();
  Required name(element, "name");
  std::optional<TypedValue> value;
  read_children(element, {{"name", name.reader()},
                          {"value", [&](const XmlElement& e) { value = read_typed_value(e); }}});
  property.name = name.get();
  if (!value)
    throw PlanError(element.where(),
                    "<" + element.name() + "> " + quote(property.name) + " has no <value>");
  property.value = std::move(*value);
  // DAnCE's and DnCX11's spellings of what mwccm gives meaning to.
  property.name = properties::canonical_name(property.name.c_str());
  if (property.name == properties::kImplementationType) {
    property.value.text = properties::canonical_implementation_type(property.value.text.c_str());
  }
  return property;
}

}  // namespace mwccm::deployment::detail
