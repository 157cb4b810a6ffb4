#include "omniorb_ami.hpp"

#include <string>

#include "omniorb_calls.hpp"
#include "omniorb_session.hpp"

namespace omniorb_driver {

Test::AMI_RoundTripHandler_ptr ReplyHandler::activate(CORBA::ORB_ptr orb) {
  CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
  poa_ = PortableServer::POA::_narrow(object);
  PortableServer::POAManager_var manager = poa_->the_POAManager();
  manager->activate();
  return _this();  // the RootPOA activates it implicitly
}

void ReplyHandler::deactivate() noexcept {
  if (CORBA::is_nil(poa_.in())) return;  // never activated
  try {
    PortableServer::ObjectId_var id = poa_->servant_to_id(this);
    poa_->deactivate_object(id.in());
  } catch (const CORBA::Exception&) {
    // Not active (already deactivated): nothing can reach it.
  }
}

void ReplyHandler::test_method(CORBA::ULongLong ami_return_val) {
  returned_ = ami_return_val;
  if (open_loop_ && by_echo_) {
    m_.completed(ami_return_val);
    return;
  }
  if (open_loop_) {
    const std::uint64_t expected = next_call_.load(std::memory_order_relaxed);
    if (ami_return_val != expected) {
      m_.fail("AMI reply of call " + std::to_string(ami_return_val) + " arrived as call " +
              std::to_string(expected) + "'s: omniORB reordered replies");
    }
  }
  arrived();
}

void ReplyHandler::get_octets(const Test::Octets& data) {
  if (verify_) check("octets_out", data);
  arrived();
}

void ReplyHandler::swap_octets(const Test::Octets& data) {
  if (verify_) check("octets_inout", data);
  arrived();
}

void ReplyHandler::check(const char* operation, const Test::Octets& data) {
  check_reply(m_, operation, data, size_);
}

void ReplyHandler::arrived() noexcept {
  if (open_loop_) {
    m_.completed(next_call_.fetch_add(1, std::memory_order_relaxed));
  } else {
    bell_.ring();
  }
}

void ReplyHandler::failed(const char* operation, Messaging::ExceptionHolder* holder) {
  try {
    holder->raise_exception();
    m_.fail(std::string("AMI ") + operation + ": an exception holder without an exception");
  } catch (const CORBA::Exception& e) {
    m_.fail(std::string("AMI ") + operation + " failed: " + describe(e));
  }
  arrived();  // the run stops on the failure; the waiting thread must not wait for it
}

void ReplyHandler::test_method_excep(Messaging::ExceptionHolder* h) { failed("test_method", h); }
void ReplyHandler::ping_excep(Messaging::ExceptionHolder* h) { failed("ping", h); }
void ReplyHandler::send_octets_excep(Messaging::ExceptionHolder* h) { failed("send_octets", h); }
void ReplyHandler::get_octets_excep(Messaging::ExceptionHolder* h) { failed("get_octets", h); }
void ReplyHandler::swap_octets_excep(Messaging::ExceptionHolder* h) { failed("swap_octets", h); }
void ReplyHandler::send_records_excep(Messaging::ExceptionHolder* h) { failed("send_records", h); }

}  // namespace omniorb_driver
