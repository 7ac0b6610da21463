import CLibXML2
import Foundation

/// XPath evaluation against a document, one short-lived context per query.
enum XPathQuery {
    static func nodes(_ expression: String, in document: HTMLDocument, from contextNode: xmlNodePtr?) throws -> [HTMLNode] {
        guard let context = xmlXPathNewContext(document.pointer) else {
            throw HTMLError.invalidXPath(expression: expression, reason: "libxml2 could not create an XPath context")
        }
        defer { xmlXPathFreeContext(context) }
        // Without a handler libxml2 prints XPath errors to stderr; with one it only records
        // them in `lastError`, which becomes the thrown error below.
        context.pointee.error = { _, _ in }
        // The document node is the natural context for relative paths on the whole document.
        context.pointee.node = contextNode
            ?? UnsafeMutableRawPointer(document.pointer).assumingMemoryBound(to: xmlNode.self)

        let result = withLibXML2ErrorsSilenced {
            expression.withCString { chars in
                chars.withMemoryRebound(to: xmlChar.self, capacity: expression.utf8.count + 1) {
                    xmlXPathEval($0, context)
                }
            }
        }
        guard let result else {
            throw HTMLError.invalidXPath(expression: expression, reason: failure(in: context))
        }
        defer { xmlXPathFreeObject(result) }

        guard result.pointee.type == XPATH_NODESET else {
            throw HTMLError.invalidXPath(
                expression: expression,
                reason: "it yields a \(kind(of: result.pointee.type)), not nodes"
            )
        }
        guard let set = result.pointee.nodesetval, let table = set.pointee.nodeTab else { return [] }
        var nodes: [HTMLNode] = []
        for index in 0..<set.pointee.nodeNr.clampedToCount {
            // Namespace nodes are copies owned by `result` and would dangle once it is freed.
            guard let node = table[index], node.pointee.type != XML_NAMESPACE_DECL else { continue }
            nodes.append(HTMLNode(document: document, pointer: node))
        }
        return nodes
    }

    private static func failure(in context: xmlXPathContextPtr) -> String {
        guard let message = context.pointee.lastError.message else { return "libxml2 rejected it" }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "libxml2 rejected it" : text.prefix(1).lowercased() + text.dropFirst()
    }

    private static func kind(of type: xmlXPathObjectType) -> String {
        switch type {
        case XPATH_BOOLEAN: return "boolean"
        case XPATH_NUMBER: return "number"
        case XPATH_STRING: return "string"
        default: return "value"
        }
    }
}
