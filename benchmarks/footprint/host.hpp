// What footprint_main.cpp links one of: plain_host.cpp (N plain servants) or
// component_host.cpp (N components). Both make N objects reachable, keep a
// reference to each, and call the first once so that it is known to work.
#pragma once

#include <omniORB4/CORBA.h>

#include <memory>

namespace footprint {

class Host {
 public:
  virtual ~Host() = default;
  virtual const char* kind() const = 0;
  virtual void host(unsigned long count) = 0;  // creates and activates `count` objects
  virtual CORBA::ULong call_first() = 0;       // one call through the first object
};

std::unique_ptr<Host> make_host(CORBA::ORB_ptr orb);

}  // namespace footprint
