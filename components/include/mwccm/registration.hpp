// Publishing and finding references by a target string:
//   "naming:Bench/Sender"  a path of names in the naming service (the ORB's
//                          NameService initial reference); contexts are
//                          created as needed and the name is rebound
//   "file:/tmp/s.ior"      a file holding the IOR ("file:///tmp/s.ior" too)
//   "/tmp/s.ior"           the same (a target without a scheme is a file)
// Every failure is an mwccm::Error naming the target.
#pragma once

#include <omniORB4/CORBA.h>

#include <mwccm/errors.hpp>
#include <string>

namespace mwccm {

void register_reference(CORBA::ORB_ptr orb, CORBA::Object_ptr ref, const std::string& target);
// Unbinds the name, or removes the file; absent already is not an error.
void unregister_reference(CORBA::ORB_ptr orb, const std::string& target);
// A new reference (the caller releases it); never nil.
CORBA::Object_ptr resolve_reference(CORBA::ORB_ptr orb, const std::string& target);
// The IOR a file target ("file:PATH" or PATH) holds: its first word, the file
// read as mwccm/user_input.hpp reads input (a regular file of at most
// kIorFile's bound, UTF-8), so that no file blocks or exhausts the reader.
std::string read_ior_file(const std::string& target);

// resolve_reference narrowed to T; mwccm::Error if the object is not a T.
template <class T>
typename T::_ptr_type resolve(CORBA::ORB_ptr orb, const std::string& target) {
  CORBA::Object_var object = resolve_reference(orb, target);
  typename T::_var_type typed = T::_narrow(object.in());
  if (CORBA::is_nil(typed.in())) {
    throw Error("'" + target + "' is not a " + T::_PD_repoId);
  }
  return typed._retn();
}

}  // namespace mwccm
