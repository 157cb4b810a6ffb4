// libxml2 behind a small reading interface for the .cdp and .ccd readers:
// parse a file safely, walk child elements, read text, and know each
// element's line. Internal to the deployment library.
#pragma once

#include <libxml/tree.h>
#include <libxml/xmlreader.h>

#include <functional>
#include <memory>
#include <mwccm/deployment/plan.hpp>
#include <mwccm/user_input.hpp>
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

// libxml2's first error while reading a document.
struct XmlError {
  int line = 0;
  std::string message;
};

// A document read as a stream of the root's children: each child is parsed
// whole, handed over, and freed when the next is read, so that a plan of a
// hundred thousand instances takes the memory of its model, not of a tree
// of the whole file (libxml2's xmlReader, "expand" mode).
class XmlDocument {
 public:
  // Reads `file` (input_files.hpp: `kind`'s bound, UTF-8) up to its root
  // element. PlanError (file:line) when it is not well-formed XML or holds a
  // DTD (DOCTYPE: entities could expand without bound, and a plan needs
  // none). Never touches the network.
  XmlDocument(const std::string& file, const FileKind& kind);
  XmlDocument(const XmlDocument&) = delete;  // the reader holds its address and its text
  XmlDocument& operator=(const XmlDocument&) = delete;

  // The root element: its name, attributes and line (its children come
  // through each_child).
  XmlElement root() const { return {root_, &file_}; }
  // Calls `visit` with each child element of the root, in order, then reads
  // to the end of the file. Once. PlanError when the rest is not well-formed.
  void each_child(const std::function<void(const XmlElement&)>& visit);
  const std::string& file() const noexcept { return file_; }

 private:
  [[noreturn]] void fail_to_parse() const;
  int read();  // the reader's next node: 1, 0 at the end; fails_to_parse on an error

  std::string file_;
  std::string text_;  // the reader parses it in place
  std::unique_ptr<xmlTextReader, void (*)(xmlTextReaderPtr)> reader_;
  xmlNode* root_ = nullptr;
  bool root_is_empty_ = false;
  XmlError error_;
};

}  // namespace mwccm::deployment::detail
