// Reading XML with libxml2's xmlReader: no network, no DTD (so no entity
// expansion), line numbers past 65535, libxml2's default limits on depth and
// text size, and the memory of one child of the root at a time.
#include "xml_document.hpp"

#include <algorithm>
#include <mwccm/deployment/input_files.hpp>
#include <mwccm/deployment/plan_error.hpp>

namespace mwccm::deployment::detail {
namespace {

std::string as_string(const xmlChar* text) {
  return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
}

// Keeps libxml2's first error, with its line, for the refusal. The handler's
// parameter is `xmlErrorPtr` in libxml2 2.9 and `const xmlError*` since
// 2.12: the template takes whichever the installed one declares.
template <class ErrorPointer>
void keep_first_error(void* first, ErrorPointer error) {
  auto* kept = static_cast<XmlError*>(first);
  if (error == nullptr || error->level < XML_ERR_ERROR || !kept->message.empty()) return;
  kept->line = error->line;
  std::string message = error->message == nullptr ? "" : error->message;
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  constexpr std::size_t kLongest = 200;  // it may quote a name of the document, of any length
  if (message.size() > kLongest) {
    std::size_t cut = kLongest;
    while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xC0) == 0x80) --cut;
    message = message.substr(0, cut) + "…";
  }
  kept->message = message;
}

void ignore_error(void*, const char*, ...) {}

// The line of a document type declaration, or 0. One can only be in the
// prolog, before the root element: it is looked for there, before libxml2
// reads it, because its internal subset could already expand without bound.
int doctype_line(const std::string& text) {
  std::size_t at = 0;
  for (;;) {
    at = text.find('<', at);
    if (at == std::string::npos) return 0;
    const char* skip_to = text.compare(at, 4, "<!--") == 0 ? "-->"
                          : text.compare(at, 2, "<?") == 0 ? "?>"
                                                           : nullptr;
    if (skip_to == nullptr) {
      if (text.compare(at, 9, "<!DOCTYPE") != 0) return 0;  // the root element: no DTD
      return 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
    }
    at = text.find(skip_to, at + 2);
    if (at == std::string::npos) return 0;  // libxml2 says what is wrong
  }
}

}  // namespace

std::string XmlElement::name() const { return as_string(node_->name); }

SourceLocation XmlElement::where() const { return {*file_, static_cast<int>(xmlGetLineNo(node_))}; }

std::vector<XmlElement> XmlElement::children() const {
  std::vector<XmlElement> elements;
  for (xmlNode* child = node_->children; child != nullptr; child = child->next) {
    if (child->type == XML_ELEMENT_NODE) elements.emplace_back(child, file_);
  }
  return elements;
}

std::string XmlElement::text() const {
  std::string text;
  for (xmlNode* child = node_->children; child != nullptr; child = child->next) {
    if (child->type == XML_ELEMENT_NODE) {
      throw PlanError(
          where(), "<" + name() + "> holds text, not the element <" + as_string(child->name) + ">");
    }
    if (child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE) {
      text += as_string(child->content);
    }
  }
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

std::string XmlElement::attribute(const std::string& local_name) const {
  for (xmlAttr* attribute = node_->properties; attribute != nullptr; attribute = attribute->next) {
    if (as_string(attribute->name) != local_name) continue;
    xmlChar* value = xmlNodeListGetString(node_->doc, attribute->children, 1);
    std::string text = as_string(value);
    xmlFree(value);
    return text;
  }
  return {};
}

XmlDocument::XmlDocument(const std::string& file, const FileKind& kind)
    : file_(file), text_(read_input_file(file, kind)), reader_(nullptr, xmlFreeTextReader) {
  if (const int line = doctype_line(text_)) {
    throw PlanError({file_, line},
                    "a document type declaration (DOCTYPE) is not allowed in a plan");
  }
  reader_.reset(xmlReaderForMemory(text_.data(), static_cast<int>(text_.size()), file_.c_str(),
                                   "UTF-8",
                                   XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR |
                                       XML_PARSE_NOWARNING | XML_PARSE_NOCDATA));
  if (!reader_) throw PlanError({file_, 0}, "cannot parse the file");
  xmlSetGenericErrorFunc(nullptr, ignore_error);  // errors are reported by us, not on stderr
  xmlStructuredErrorFunc keep = keep_first_error;
  xmlTextReaderSetStructuredErrorHandler(reader_.get(), keep, &error_);
  while (read() == 1) {
    const int type = xmlTextReaderNodeType(reader_.get());
    if (type == XML_READER_TYPE_DOCUMENT_TYPE) {  // the prolog's look missed none; to be sure
      throw PlanError({file_, xmlTextReaderGetParserLineNumber(reader_.get())},
                      "a document type declaration (DOCTYPE) is not allowed in a plan");
    }
    if (type != XML_READER_TYPE_ELEMENT) continue;
    root_ = xmlTextReaderCurrentNode(reader_.get());
    root_is_empty_ = xmlTextReaderIsEmptyElement(reader_.get()) == 1;
    return;
  }
  throw PlanError({file_, 0}, "no root element");
}

void XmlDocument::each_child(const std::function<void(const XmlElement&)>& visit) {
  if (!root_is_empty_) {
    int more = read();
    while (more == 1 && xmlTextReaderDepth(reader_.get()) > 0) {
      if (xmlTextReaderNodeType(reader_.get()) != XML_READER_TYPE_ELEMENT) {
        more = read();
        continue;
      }
      xmlNode* child = xmlTextReaderExpand(reader_.get());
      if (child == nullptr) fail_to_parse();
      visit(XmlElement(child, &file_));
      more = xmlTextReaderNext(reader_.get());  // past the child, which the reader then frees
      if (more < 0) fail_to_parse();
    }
  }
  while (read() == 1) {
  }  // to the end: what follows the root must be well-formed too
}

int XmlDocument::read() {
  const int more = xmlTextReaderRead(reader_.get());
  if (more < 0) fail_to_parse();
  return more;
}

void XmlDocument::fail_to_parse() const {
  if (error_.message.empty()) {
    throw PlanError({file_, xmlTextReaderGetParserLineNumber(reader_.get())},
                    "not well-formed XML");
  }
  throw PlanError({file_, error_.line}, "not well-formed XML: " + error_.message);
}

}  // namespace mwccm::deployment::detail
