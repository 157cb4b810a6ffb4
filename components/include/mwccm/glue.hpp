// Everything generated glue includes (see README.md, "What generated glue calls").
#pragma once

#include <mwccm/component_servant.hpp>
#include <mwccm/cookie.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/home_registry.hpp>
#include <mwccm/home_servant.hpp>
#include <mwccm/local_object.hpp>
#include <mwccm/ports.hpp>
