// A plan's typed values as CORBA::Anys, both ways: the Any an attribute is
// set from, its TypeCode (for the DII), and the text of an Any an attribute
// returned. An enum is built from its type (repository id and members) with
// DynamicAny, so that no generated code is needed: the component's glue
// extracts it as its enum.
#pragma once

#include <omniORB4/CORBA.h>

#include <mwccm/deployment/plan.hpp>
#include <string>
#include <vector>

namespace mwccm::deployment {

CORBA::Any to_any(CORBA::ORB_ptr orb, const TypedValue& value);

// The TypeCode of a value of `kind` (an enum's from its type id and members).
CORBA::TypeCode_ptr type_code_of(CORBA::ORB_ptr orb, ValueKind kind,
                                 const std::string& enum_type_id = "",
                                 const std::vector<std::string>& enum_members = {});

// The value `any` holds, of `kind`, as a plan's text would give it.
std::string text_of(CORBA::ORB_ptr orb, ValueKind kind, const CORBA::Any& any);

}  // namespace mwccm::deployment
