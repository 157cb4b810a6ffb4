// Reading XML with libxml2: no network, no DTD (so no entity expansion), line
// numbers past 65535, libxml2's default limits on depth and text size.
#include "xml_document.hpp"

#include <libxml/SAX2.h>
#include <libxml/parserInternals.h>
#include <sys/stat.h>

#include <mwccm/deployment/plan_error.hpp>

namespace mwccm::deployment::detail {
namespace {

std::string as_string(const xmlChar* text) {
  return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
}

// libxml2 reports errors through a global handler; the parser context keeps
// the last one, which is what we report (with its line).
std::string last_error_message(xmlParserCtxt* context, int* line) {
  const xmlError* error = xmlCtxtGetLastError(context);
  if (error == nullptr || error->message == nullptr) {
    *line = 0;
    return "not well-formed XML";
  }
  *line = error->line;
  std::string message = error->message;
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
    message.pop_back();
  }
  return "not well-formed XML: " + message;
}

void ignore_error(void*, const char*, ...) {}

// A DOCTYPE stops the parser where it is declared: its entities could expand
// without bound ("billion laughs"), and a plan needs none.
void refuse_document_type(void* parser, const xmlChar*, const xmlChar*, const xmlChar*) {
  auto* context = static_cast<xmlParserCtxt*>(parser);
  context->_private = context;  // marks the refusal for the reader
  xmlStopParser(context);
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

XmlDocument::XmlDocument(const std::string& file) : file_(file), doc_(nullptr, xmlFreeDoc) {
  struct stat status {};
  if (stat(file.c_str(), &status) != 0) throw PlanError({file, 0}, "cannot read the file");
  if (!S_ISREG(status.st_mode)) throw PlanError({file, 0}, "not a regular file");
  if (status.st_size > kMaxBytes) {
    throw PlanError({file, 0}, "larger than " + std::to_string(kMaxBytes >> 20) + " MiB");
  }
  xmlSetGenericErrorFunc(nullptr, ignore_error);  // errors are reported by us, not on stderr
  std::unique_ptr<xmlParserCtxt, void (*)(xmlParserCtxt*)> context(
      xmlCreateFileParserCtxt(file.c_str()), xmlFreeParserCtxt);
  if (!context) throw PlanError({file, 0}, "cannot read the file");
  xmlCtxtUseOptions(context.get(), XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR |
                                       XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
  context->sax->internalSubset = refuse_document_type;
  context->_private = nullptr;
  xmlParseDocument(context.get());
  doc_.reset(context->myDoc);
  context->myDoc = nullptr;
  if (context->_private != nullptr) {
    throw PlanError({file, xmlSAX2GetLineNumber(context.get())},
                    "a document type declaration (DOCTYPE) is not allowed in a plan");
  }
  if (!context->wellFormed || !doc_) {
    int line = 0;
    std::string message = last_error_message(context.get(), &line);
    throw PlanError({file, line}, message);
  }
  if (xmlDocGetRootElement(doc_.get()) == nullptr) throw PlanError({file, 0}, "no root element");
}

XmlElement XmlDocument::root() const { return {xmlDocGetRootElement(doc_.get()), &file_}; }

}  // namespace mwccm::deployment::detail
