// Typed values to CORBA::Any (any_value.hpp).
#include <omniORB4/CORBA.h>
#include <omniORB4/dynAny.h>

#include <mwccm/deployment/detail/any_value.hpp>
#include <stdexcept>
#include <string>

namespace mwccm::deployment {
namespace {

CORBA::Any enum_any(CORBA::ORB_ptr orb, const TypedValue& value) {
  CORBA::EnumMemberSeq members;
  members.length(static_cast<CORBA::ULong>(value.enum_members.size()));
  for (CORBA::ULong i = 0; i < members.length(); ++i) {
    members[i] = value.enum_members[i].c_str();
  }
  const std::string& id = value.enum_type_id;
  const std::string name = id.substr(id.rfind('/') + 1, id.rfind(':') - id.rfind('/') - 1);
  CORBA::TypeCode_var type = orb->create_enum_tc(id.c_str(), name.c_str(), members);
  CORBA::Object_var object = orb->resolve_initial_references("DynAnyFactory");
  DynamicAny::DynAnyFactory_var factory = DynamicAny::DynAnyFactory::_narrow(object.in());
  DynamicAny::DynAny_var dynamic = factory->create_dyn_any_from_type_code(type.in());
  DynamicAny::DynEnum_var enumeration = DynamicAny::DynEnum::_narrow(dynamic.in());
  enumeration->set_as_string(value.text.c_str());
  CORBA::Any_var any = enumeration->to_any();
  enumeration->destroy();
  return any.in();
}

}  // namespace

CORBA::Any to_any(CORBA::ORB_ptr orb, const TypedValue& value) {
  CORBA::Any any;
  const std::string& text = value.text;
  switch (value.kind) {
    case ValueKind::Boolean:
      any <<= CORBA::Any::from_boolean(text == "true");
      break;
    case ValueKind::Char:
      any <<= CORBA::Any::from_char(text.at(0));
      break;
    case ValueKind::Octet:
      any <<= CORBA::Any::from_octet(static_cast<CORBA::Octet>(std::stoul(text)));
      break;
    case ValueKind::Short:
      any <<= static_cast<CORBA::Short>(std::stol(text));
      break;
    case ValueKind::UShort:
      any <<= static_cast<CORBA::UShort>(std::stoul(text));
      break;
    case ValueKind::Long:
      any <<= static_cast<CORBA::Long>(std::stol(text));
      break;
    case ValueKind::ULong:
      any <<= static_cast<CORBA::ULong>(std::stoul(text));
      break;
    case ValueKind::LongLong:
      any <<= static_cast<CORBA::LongLong>(std::stoll(text));
      break;
    case ValueKind::ULongLong:
      any <<= static_cast<CORBA::ULongLong>(std::stoull(text));
      break;
    case ValueKind::Float:
      any <<= std::stof(text);
      break;
    case ValueKind::Double:
      any <<= std::stod(text);
      break;
    case ValueKind::String:
      any <<= text.c_str();
      break;
    case ValueKind::Enum:
      if (value.enum_members.empty()) {
        throw std::invalid_argument("the enum value '" + text + "' has no type (complete_plan)");
      }
      return enum_any(orb, value);
  }
  return any;
}

}  // namespace mwccm::deployment
