// The channels' counters as lines (channel_report.hpp).
#include <mwccm/deployment/channel_report.hpp>
#include <sstream>

namespace mwccm::deployment {

std::vector<std::string> channel_report(const MwccmDeployment::ChannelCountersList& counted) {
  std::vector<std::string> lines;
  for (CORBA::ULong i = 0; i < counted.length(); ++i) {
    const MwccmDeployment::ChannelCounters& c = counted[i];
    if (c.published + c.received + c.undeliverable + c.unreadable == 0) continue;
    std::ostringstream line;
    line << "channel of " << c.process.in() << ": published " << c.published << ", sent " << c.sent
         << ", undeliverable " << c.undeliverable << ", received " << c.received << ", duplicates "
         << c.duplicates << ", out of order " << c.out_of_order << ", lost " << c.lost
         << ", unreadable " << c.unreadable << ", delivered " << c.delivered << ", filtered "
         << c.filtered;
    lines.push_back(line.str());
    for (CORBA::ULong s = 0; s < c.suppliers.length(); ++s) {
      const MwccmDeployment::SupplierCounters& from = c.suppliers[s];
      if (from.duplicates + from.out_of_order + from.lost == 0) continue;
      std::ostringstream detail;
      detail << "channel of " << c.process.in() << ", from " << from.supplier.in() << ": received "
             << from.received << ", duplicates " << from.duplicates << ", out of order "
             << from.out_of_order << ", lost " << from.lost;
      lines.push_back(detail.str());
    }
  }
  return lines;
}

}  // namespace mwccm::deployment
