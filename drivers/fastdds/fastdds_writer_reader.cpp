// A writer, a reader and their WaitSet in Fast DDS's API.
#include "fastdds_writer_reader.hpp"

namespace fastdds_driver {

WriterReader::WriterReader(const WriterPlan& writes, const ReaderPlan& reads,
                           dds::DataReaderListener* listener, bool in_waitset)
    : publisher_(writes.parent),
      subscriber_(reads.parent),
      wait_what_(std::string("WaitSet::wait (") + reads.name + ")") {
  active_.reserve(4);
  const std::string create_writer = std::string("create_datawriter (") + writes.name + ")";
  const std::string create_reader_what = std::string("create_datareader (") + reads.name + ")";
  writer_ = check(publisher_->create_datawriter(writes.topic, writes.qos, nullptr),
                  create_writer.c_str());
  try {
    reader_ =
        create_reader(subscriber_, reads.topic, reads.qos, listener, create_reader_what.c_str());
    if (in_waitset) {
      const std::string attach = std::string("attach_condition (") + reads.name + ")";
      condition_ = attach_reader(waitset_, reader_, attach.c_str());
    }
  } catch (...) {
    delete_endpoints(subscriber_, reader_, condition_, waitset_, publisher_, writer_);
    throw;
  }
}

WriterReader::~WriterReader() {
  delete_endpoints(subscriber_, reader_, condition_, waitset_, publisher_, writer_);
}

bool WriterReader::wait(const Duration& timeout) {
  const ReturnCode ret = waitset_.wait(active_, timeout);
  if (ret == ReturnCode::RETCODE_TIMEOUT) return false;
  check(ret, wait_what_.c_str());
  return true;
}

bool WriterReader::wait(std::int64_t timeout_ns) {
  return wait(Duration(static_cast<std::int32_t>(timeout_ns / 1'000'000'000),
                       static_cast<std::uint32_t>(timeout_ns % 1'000'000'000)));
}

}  // namespace fastdds_driver
