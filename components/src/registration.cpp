// References in files (IOR) and in the naming service (a path of names,
// contexts created on the way, the leaf rebound).
#include <cstdio>
#include <fstream>
#include <mwccm/registration.hpp>
#include <mwccm/step_observer.hpp>
#include <mwccm/user_input.hpp>
#include <omniORB4/Naming.hh>

namespace mwccm {

namespace {

constexpr std::string_view naming_scheme = "naming:";
constexpr std::string_view file_scheme = "file:";

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// "file:PATH", "file:///ABSOLUTE" (a URL with no host) or PATH itself.
std::string file_path(const std::string& target) {
  if (starts_with(target, "file:///")) return target.substr(7);
  return starts_with(target, file_scheme) ? target.substr(file_scheme.size()) : target;
}

CosNaming::NamingContextExt_ptr naming_service(CORBA::ORB_ptr orb, const std::string& target) {
  try {
    CORBA::Object_var object = orb->resolve_initial_references("NameService");
    CosNaming::NamingContextExt_var root = CosNaming::NamingContextExt::_narrow(object.in());
    if (CORBA::is_nil(root.in()))
      throw Error(quote(target) + ": NameService is not a naming context");
    return root._retn();
  } catch (const CORBA::ORB::InvalidName&) {
    throw Error(quote(target) +
                ": no NameService (start the ORB with -ORBInitRef NameService=...)");
  } catch (const CORBA::SystemException& e) {
    throw Error(quote(target) + ": the naming service is unreachable (" + e._name() + ")");
  }
}

CosNaming::Name* to_name(CosNaming::NamingContextExt_ptr root, const std::string& target) {
  const std::string path = target.substr(naming_scheme.size());
  try {
    CosNaming::Name_var name = root->to_name(path.c_str());
    if (name->length() == 0) throw Error(quote(target) + ": empty naming path");
    return name._retn();
  } catch (const CosNaming::NamingContext::InvalidName&) {
    throw Error(quote(target) + ": not a valid naming path");
  }
}

void bind_in_naming(CORBA::ORB_ptr orb, CORBA::Object_ptr ref, const std::string& target) {
  CosNaming::NamingContextExt_var root = naming_service(orb, target);
  CosNaming::Name_var name = to_name(root.in(), target);
  try {
    CosNaming::NamingContext_var context = CosNaming::NamingContext::_duplicate(root.in());
    for (CORBA::ULong i = 0; i + 1 < name->length(); ++i) {
      CosNaming::Name step;
      step.length(1);
      step[0] = name[i];
      CORBA::Object_var next;
      try {
        next = context->resolve(step);
      } catch (const CosNaming::NamingContext::NotFound&) {
        next = context->bind_new_context(step);
      }
      context = CosNaming::NamingContext::_narrow(next.in());
      if (CORBA::is_nil(context.in())) throw Error(quote(target) + ": a step is not a context");
    }
    CosNaming::Name leaf;
    leaf.length(1);
    leaf[0] = name[name->length() - 1];
    context->rebind(leaf, ref);
  } catch (const CORBA::UserException& e) {
    throw Error(quote(target) + ": naming service refused (" + e._name() + ")");
  } catch (const CORBA::SystemException& e) {
    throw Error(quote(target) + ": naming service failed (" + e._name() + ")");
  }
}

}  // namespace

void register_reference(CORBA::ORB_ptr orb, CORBA::Object_ptr ref, const std::string& target) {
  if (starts_with(target, naming_scheme)) {
    ObservedStep observed(Step::RegistrationPublish, target);
    return bind_in_naming(orb, ref, target);
  }
  const std::string path = file_path(target);
  CORBA::String_var ior;
  {
    ObservedStep observed(Step::RegistrationStringify, target);
    ior = orb->object_to_string(ref);
  }
  ObservedStep observed(Step::RegistrationPublish, target);
  // Written aside and renamed, so a reader never sees half an IOR.
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::trunc);
    out << ior.in() << '\n';
    if (!out.flush()) throw Error("cannot write IOR file " + quote(path));
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    throw Error("cannot write IOR file " + quote(path));
  }
}

void unregister_reference(CORBA::ORB_ptr orb, const std::string& target) {
  if (!starts_with(target, naming_scheme)) {
    std::remove(file_path(target).c_str());
    return;
  }
  CosNaming::NamingContextExt_var root = naming_service(orb, target);
  CosNaming::Name_var name = to_name(root.in(), target);
  try {
    root->unbind(name.in());
  } catch (const CosNaming::NamingContext::NotFound&) {
  } catch (const CORBA::Exception& e) {
    throw Error(quote(target) + ": unbind failed (" + e._name() + ")");
  }
}

std::string read_ior_file(const std::string& target) {
  std::string text;
  try {
    text = read_text_file(file_path(target), kIorFile);
  } catch (const FileRefused& e) {
    throw Error(e.what());
  }
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw Error("IOR file " + quote(file_path(target)) + " is empty");
  return text.substr(first, text.find_first_of(" \t\r\n", first) - first);
}

CORBA::Object_ptr resolve_reference(CORBA::ORB_ptr orb, const std::string& target) {
  CORBA::Object_var object;
  if (starts_with(target, naming_scheme)) {
    CosNaming::NamingContextExt_var root = naming_service(orb, target);
    CosNaming::Name_var name = to_name(root.in(), target);
    try {
      object = root->resolve(name.in());
    } catch (const CosNaming::NamingContext::NotFound&) {
      throw Error(quote(target) + " is not bound in the naming service");
    } catch (const CORBA::Exception& e) {
      throw Error(quote(target) + ": resolve failed (" + e._name() + ")");
    }
  } else {
    const std::string ior = read_ior_file(target);
    try {
      object = orb->string_to_object(ior.c_str());
    } catch (const CORBA::SystemException& e) {
      throw Error("IOR file " + quote(file_path(target)) + " holds no valid IOR (" + e._name() +
                  ")");
    }
  }
  if (CORBA::is_nil(object.in())) throw Error(quote(target) + " holds a nil reference");
  return object._retn();
}

}  // namespace mwccm
