// current_exception_message (errors.hpp): one wording for every exception a
// step may end with, whatever process raised it.
#include <exception>
#include <mwccm/errors.hpp>

namespace mwccm {
namespace {

template <class E>
std::string with_message(const E& error) {
  return std::string(error._name()) + ": " + error.message.in();
}

}  // namespace

std::string current_exception_message() {
  try {
    throw;
  } catch (const Components::InvalidName& e) {
    return with_message(e);
  } catch (const Components::InvalidConnection& e) {
    return with_message(e);
  } catch (const Components::AlreadyConnected& e) {
    return with_message(e);
  } catch (const Components::NoConnection& e) {
    return with_message(e);
  } catch (const Components::ExceededConnectionLimit& e) {
    return with_message(e);
  } catch (const Components::CookieRequired& e) {
    return with_message(e);
  } catch (const Components::BadEventType& e) {
    return with_message(e);
  } catch (const Components::InvalidConfiguration& e) {
    return with_message(e);
  } catch (const Components::CreateFailure& e) {
    return with_message(e);
  } catch (const Components::RemoveFailure& e) {
    return with_message(e);
  } catch (const Components::IllegalState& e) {
    return with_message(e);
  } catch (const Components::CCMException& e) {
    return with_message(e);
  } catch (const Components::Deployment::InstallationFailure& e) {
    return with_message(e);
  } catch (const Components::Deployment::ImplEntryPointNotFound& e) {
    return with_message(e);
  } catch (const Components::Deployment::InvalidConfiguration& e) {
    return with_message(e);
  } catch (const Components::Deployment::RegistrationFailure& e) {
    return with_message(e);
  } catch (const CORBA::SystemException& e) {
    return std::string(e._name()) + " (minor " + std::to_string(e.minor()) + ", " +
           (e.completed() == CORBA::COMPLETED_YES  ? "completed"
            : e.completed() == CORBA::COMPLETED_NO ? "not completed"
                                                   : "maybe completed") +
           ")";
  } catch (const CORBA::Exception& e) {
    return e._name();
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an unknown exception";
  }
}

}  // namespace mwccm
