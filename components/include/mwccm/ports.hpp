// All port kinds and the port table in one include, for the glue.
#pragma once

#include <mwccm/event_source.hpp>
#include <mwccm/port.hpp>
#include <mwccm/port_table.hpp>
#include <mwccm/receptacles.hpp>
