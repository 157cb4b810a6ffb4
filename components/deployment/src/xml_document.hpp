// libxml2 behind a small reading interface for the .cdp and .ccd readers:
// parse a file safely, walk child elements, read text, and know each
// element's line. Internal to the deployment library.
#pragma once

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <memory>
#include <mwccm/deployment/plan.hpp>
#include <string>
#include <vector>

namespace mwccm::deployment::detail {

// An element of a parsed document (borrowed from it).
class XmlElement {
 public:
  XmlElement(xmlNode* node, const std::string* file) : node_(node), file_(file) {}

  std::string name() const;  // the local name, without a namespace prefix
  SourceLocation where() const;
  std::vector<XmlElement> children() const;  // child elements, in order
  // The text inside; throws PlanError when it holds elements.
  std::string text() const;
  // An attribute by local name ("id" finds xmi:id); empty when absent.
  std::string attribute(const std::string& local_name) const;

 private:
  xmlNode* node_;
  const std::string* file_;
};

class XmlDocument {
 public:
  // Reads `file`; PlanError (file:line) when it is not well-formed XML, holds
  // a DTD (entities could expand without bound), or is larger than
  // kMaxBytes. Never touches the network.
  explicit XmlDocument(const std::string& file);
  XmlElement root() const;
  const std::string& file() const noexcept { return file_; }

  static constexpr long kMaxBytes = 64L << 20;

 private:
  std::string file_;
  std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> doc_;
};

}  // namespace mwccm::deployment::detail
