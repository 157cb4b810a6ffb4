// The look-up operations, measured by a plain client against a component
// server (CCMPerf's "look-up times"). Each sample is one look-up:
//
//   lookup_home_naming  NamingContext::resolve of the home's name in the
//                       server's omniNames (one remote call to omniNames)
//   lookup_home_file    read the home's IOR file and string_to_object (no call)
//   provide_facet       CCMObject::provide_facet("control"), by name (one call)
//   find_component      Container::find_component("receiver"), by key (one call)
//
// What is found is checked against the reference the server published
// (_is_equivalent, a local comparison): always for the first look-up,
// before measuring, and for every one with verify=1.
#pragma once

#include <omniORB4/CORBA.h>

#include "ccm_assembly.hpp"
#include "mwbench/measurement.hpp"
#include "mwbench/options.hpp"

namespace ccm_driver {

void measure_lookups(const mwbench::DriverOptions& options, mwbench::Measurement& measurement,
                     CORBA::ORB_ptr orb, const Endpoint& endpoint);

}  // namespace ccm_driver
