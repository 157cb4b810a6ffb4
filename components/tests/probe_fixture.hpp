// A container with the Probe home installed from the static registry, and
// Probe components in it, for the port, event and lifecycle tests.
#pragma once

#include <gtest/gtest.h>

#include "probe/probe_executor.hpp"
#include "test_support.hpp"

namespace mwccm_test {

struct ProbeNode {
  Probe::Node_var ref;
  Probe_glue::Node_servant* servant;  // borrowed
  probe::NodeExec* exec;              // borrowed
};

class ProbeFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    Probe_glue::register_value_factories(orb());
    container_ = &server().create_local_container(unique_name("probe"));
    Components::ConfigValues none;
    Components::CCMHome_var home =
        container_->install_home("NodeHome", "mwccm_home_Probe_NodeHome", none);
    home_ = Probe::NodeHome::_narrow(home.in());
  }

  void TearDown() override {
    Components::Deployment::Container_var ref =
        Components::Deployment::Container::_duplicate(container_->reference());
    server().remove_container(ref.in());
  }

  ProbeNode create(const std::string& key) {
    Components::CCMObject_var created = home_->create_named_component(key.c_str());
    ProbeNode node;
    node.ref = Probe::Node::_narrow(created.in());
    node.servant = dynamic_cast<Probe_glue::Node_servant*>(container_->find_servant(key));
    node.exec = dynamic_cast<probe::NodeExec*>(node.servant->executor());
    return node;
  }

  Probe::Counter_ptr facet(const ProbeNode& node) { return node.ref->provide_count(); }

  mwccm::Container* container_ = nullptr;
  Probe::NodeHome_var home_;
};

}  // namespace mwccm_test
