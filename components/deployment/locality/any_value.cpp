// Typed values to CORBA::Any (any_value.hpp).
#include <omniORB4/CORBA.h>
#include <omniORB4/dynAny.h>

#include <mwccm/deployment/any_value.hpp>
#include <mwccm/deployment/typed_value.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace mwccm::deployment {
namespace {

CORBA::TypeCode_ptr enum_type_code(CORBA::ORB_ptr orb, const std::string& id,
                                   const std::vector<std::string>& member_names) {
  CORBA::EnumMemberSeq members;
  members.length(static_cast<CORBA::ULong>(member_names.size()));
  for (CORBA::ULong i = 0; i < members.length(); ++i) members[i] = member_names[i].c_str();
  const std::string name = id.substr(id.rfind('/') + 1, id.rfind(':') - id.rfind('/') - 1);
  return orb->create_enum_tc(id.c_str(), name.c_str(), members);
}

DynamicAny::DynAnyFactory_ptr dyn_any_factory(CORBA::ORB_ptr orb) {
  CORBA::Object_var object = orb->resolve_initial_references("DynAnyFactory");
  return DynamicAny::DynAnyFactory::_narrow(object.in());
}

CORBA::Any enum_any(CORBA::ORB_ptr orb, const TypedValue& value) {
  CORBA::TypeCode_var type = enum_type_code(orb, value.enum_type_id, value.enum_members);
  DynamicAny::DynAnyFactory_var factory = dyn_any_factory(orb);
  DynamicAny::DynAny_var dynamic = factory->create_dyn_any_from_type_code(type.in());
  DynamicAny::DynEnum_var enumeration = DynamicAny::DynEnum::_narrow(dynamic.in());
  enumeration->set_as_string(value.text.c_str());
  CORBA::Any_var any = enumeration->to_any();
  enumeration->destroy();
  return any.in();
}

// A number's canonical text (make_value wrote it) as its C++ type.
template <class Number>
Number parsed(const std::string& text) {
  if constexpr (std::is_floating_point_v<Number>) {
    return static_cast<Number>(std::stod(text));
  } else if constexpr (std::is_signed_v<Number>) {
    return static_cast<Number>(std::stoll(text));
  } else {
    return static_cast<Number>(std::stoull(text));
  }
}

// The CORBA type of the same size and sign, which the Any's operators take.
template <class Number>
auto corba_number(Number number) {
  if constexpr (std::is_floating_point_v<Number>) {
    return number;
  } else if constexpr (sizeof(Number) == 2) {
    return static_cast<std::conditional_t<std::is_signed_v<Number>, CORBA::Short, CORBA::UShort>>(
        number);
  } else if constexpr (sizeof(Number) == 4) {
    return static_cast<std::conditional_t<std::is_signed_v<Number>, CORBA::Long, CORBA::ULong>>(
        number);
  } else {
    return static_cast<
        std::conditional_t<std::is_signed_v<Number>, CORBA::LongLong, CORBA::ULongLong>>(number);
  }
}

}  // namespace

CORBA::Any to_any(CORBA::ORB_ptr orb, const TypedValue& value) {
  CORBA::Any any;
  const std::string& text = value.text;  // checked and canonical (make_value)
  const bool number = visit_number_type(value.kind, [&](auto type) {
    using Number = decltype(type);
    if constexpr (std::is_same_v<Number, std::uint8_t>) {
      any <<= CORBA::Any::from_octet(static_cast<CORBA::Octet>(std::stoul(text)));
    } else {
      any <<= corba_number(parsed<Number>(text));
    }
  });
  if (number) return any;
  switch (value.kind) {
    case ValueKind::Boolean:
      any <<= CORBA::Any::from_boolean(text == "true");
      break;
    case ValueKind::Char:
      any <<= CORBA::Any::from_char(text.at(0));
      break;
    case ValueKind::String:
      any <<= text.c_str();
      break;
    case ValueKind::Enum:
      if (value.enum_members.empty()) {
        throw std::invalid_argument("the enum value '" + text + "' has no type (complete_plan)");
      }
      return enum_any(orb, value);
    default:  // the numbers, above
      break;
  }
  return any;
}

CORBA::TypeCode_ptr type_code_of(CORBA::ORB_ptr orb, ValueKind kind,
                                 const std::string& enum_type_id,
                                 const std::vector<std::string>& enum_members) {
  if (kind == ValueKind::Enum) return enum_type_code(orb, enum_type_id, enum_members);
  return to_any(orb, make_value(kind, "0")).type();  // "0" is a value of every other kind
}

std::string text_of(CORBA::ORB_ptr orb, ValueKind kind, const CORBA::Any& any) {
  std::string text;
  const bool number = visit_number_type(kind, [&](auto type) {
    if constexpr (std::is_same_v<decltype(type), std::uint8_t>) {
      CORBA::Octet value = 0;
      any >>= CORBA::Any::to_octet(value);
      text = std::to_string(value);
    } else {
      auto value = corba_number(type);
      any >>= value;
      text = std::to_string(value);
    }
  });
  if (number) return text;
  switch (kind) {
    case ValueKind::Boolean: {
      CORBA::Boolean value = false;
      any >>= CORBA::Any::to_boolean(value);
      return value ? "true" : "false";
    }
    case ValueKind::Char: {
      CORBA::Char value = 0;
      any >>= CORBA::Any::to_char(value);
      return std::string(1, value);
    }
    case ValueKind::String: {
      const char* value = "";
      any >>= value;
      return value;
    }
    case ValueKind::Enum: {
      DynamicAny::DynAnyFactory_var factory = dyn_any_factory(orb);
      DynamicAny::DynAny_var dynamic = factory->create_dyn_any(any);
      DynamicAny::DynEnum_var enumerated = DynamicAny::DynEnum::_narrow(dynamic.in());
      CORBA::String_var name = enumerated->get_as_string();
      dynamic->destroy();
      return name.in();
    }
    default:  // the numbers, above
      return "";
  }
}

}  // namespace mwccm::deployment
