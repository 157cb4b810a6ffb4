// A sink as a plain C++ object: what a publisher in the same process pushes
// to when the deployment connects them as plain C++ objects (a plan's
// Local_Interface connection, docs/deployment.md section 7), and what a
// container's event channel delivers to (docs/events.md): one virtual call
// to the sink's executor, with no consumer servant, no POA and no
// reference. The glue makes one per sink; `Arg` is the event as the
// executor's push_<sink>() takes it (`Tick*` for an eventtype, `const S&`
// for a struct event).
#pragma once

#include <mwccm/event_codec.hpp>

namespace mwccm {

class LocalConsumerBase {
 public:
  virtual ~LocalConsumerBase() = default;
  // How events of this sink's type are marshalled and delivered.
  virtual const EventCodec& codec() const noexcept = 0;
};

template <class Arg>
class LocalConsumer : public LocalConsumerBase {
 public:
  virtual void push(Arg event) = 0;
  const EventCodec& codec() const noexcept override { return event_codec<Arg>(); }
};

}  // namespace mwccm
