// dispatch=dsi: every operation of Test::RoundTrip through
// PortableServer::DynamicImplementation.
//
// For each request the servant builds the operation's argument list (each
// value given its type by inserting an empty one, so that the ORB knows what
// to unmarshal), lets the ORB fill it (ServerRequest::arguments), and calls
// the plain servant's code with what it extracted. Replies go back the same
// way: the result or the out value inserted into the list. The payloads are
// lent, never copied, as in the static skeleton.
#include <omniORB4/CORBA.h>

#include <cstring>

#include "omniorb_servant.hpp"

namespace omniorb_driver {

namespace {

// An out or inout value: the servant's reply, lent (the Any owns the
// sequence, not its buffer).
void insert_lent(CORBA::Any& value, Test::Octets& reply) {
  const CORBA::ULong length = reply.length();
  value <<= new Test::Octets(length, length, reply.get_buffer(), false);
}

// A sequence argument added to `arguments`, typed by an empty `Sequence`.
template <class Sequence>
CORBA::Any& sequence_argument(CORBA::NVList_ptr arguments, CORBA::Flags mode) {
  CORBA::Any& value = *arguments->add(mode)->value();
  value <<= Sequence();
  return value;
}

// The sequence the ORB unmarshalled into `value` (owned by the Any).
template <class Sequence>
const Sequence& unmarshalled(const CORBA::Any& value) {
  const Sequence* sequence = nullptr;
  value >>= sequence;
  return *sequence;
}

}  // namespace

void DsiRoundTripServant::invoke(CORBA::ServerRequest_ptr request) {
  const char* operation = request->operation();
  // Handed to the request, which reads it again to marshal the reply after
  // invoke() has returned, and releases it then: not a _var.
  CORBA::NVList_ptr arguments = CORBA::NVList::_nil();
  orb_->create_list(0, arguments);
  if (std::strcmp(operation, "ping") == 0) {
    request->arguments(arguments);
    work_.ping();
  } else if (std::strcmp(operation, "ping_oneway") == 0) {
    request->arguments(arguments);
    work_.ping_oneway();
  } else if (std::strcmp(operation, "test_method") == 0) {
    CORBA::Any& sent = *arguments->add(CORBA::ARG_IN)->value();
    sent <<= CORBA::ULongLong{0};
    request->arguments(arguments);
    CORBA::ULongLong send_time = 0;
    sent >>= send_time;
    CORBA::Any result;
    result <<= work_.test_method(send_time);
    request->set_result(result);
  } else if (std::strcmp(operation, "send_octets") == 0) {
    const CORBA::Any& data = sequence_argument<Test::Octets>(arguments, CORBA::ARG_IN);
    request->arguments(arguments);
    work_.send_octets(unmarshalled<Test::Octets>(data));
  } else if (std::strcmp(operation, "get_octets") == 0) {
    CORBA::Any& size = *arguments->add(CORBA::ARG_IN)->value();
    size <<= CORBA::ULong{0};
    CORBA::Any& data = sequence_argument<Test::Octets>(arguments, CORBA::ARG_OUT);
    request->arguments(arguments);
    CORBA::ULong wanted = 0;
    size >>= wanted;
    Test::Octets_var reply;
    work_.get_octets(wanted, reply.out());
    insert_lent(data, reply.inout());
  } else if (std::strcmp(operation, "swap_octets") == 0) {
    CORBA::Any& data = sequence_argument<Test::Octets>(arguments, CORBA::ARG_INOUT);
    request->arguments(arguments);
    const Test::Octets& octets = unmarshalled<Test::Octets>(data);
    // The plain servant's swap: the request checked, the reply lent.
    Test::Octets swapped(octets.length(), octets.length(),
                         const_cast<CORBA::Octet*>(octets.get_buffer()), false);
    work_.swap_octets(swapped);
    insert_lent(data, swapped);
  } else if (std::strcmp(operation, "send_records") == 0) {
    const CORBA::Any& data = sequence_argument<Test::Records>(arguments, CORBA::ARG_IN);
    request->arguments(arguments);
    work_.send_records(unmarshalled<Test::Records>(data));
  } else {
    CORBA::release(arguments);
    throw CORBA::BAD_OPERATION(0, CORBA::COMPLETED_NO);
  }
}

CORBA::RepositoryId DsiRoundTripServant::_primary_interface(const PortableServer::ObjectId&,
                                                            PortableServer::POA_ptr) {
  return CORBA::string_dup(Test::RoundTrip::_PD_repoId);
}

}  // namespace omniorb_driver
