import CLibXML2

/// The visible text of a subtree, the way a reader sees it.
///
/// Walks the tree itself rather than calling `xmlNodeListGetString` (which drops the text of
/// nested elements) or `xmlNodeGetContent` (which includes scripts and glues block elements'
/// words together). Reads node fields only after checking the node kind: libxml2's structs
/// share only their first fields, and with HTML_PARSE_COMPACT text nodes reuse `properties`.
enum TextContent {
    /// Elements whose content is never shown as text.
    static let hidden: Set<String> = ["script", "style", "noscript", "template"]

    /// Elements that start on a new line, so words on either side must not run together.
    static let block: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details",
        "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
        "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "legend", "li",
        "main", "menu", "nav", "ol", "option", "p", "pre", "section", "summary", "table", "tbody",
        "td", "tfoot", "th", "thead", "title", "tr", "ul",
    ]

    /// The text of `root` with whitespace collapsed and trimmed.
    static func normalized(of root: xmlNodePtr) -> String {
        collapseWhitespace(String(decoding: raw(of: root), as: UTF8.self))
    }

    /// An attribute's value exactly as written (entities already decoded by the parser).
    static func raw(attributeChildren: xmlNodePtr?) -> String {
        var bytes: [UInt8] = []
        var child = attributeChildren
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE { appendContent(of: current, to: &bytes) }
            child = current.pointee.next
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func raw(of root: xmlNodePtr) -> [UInt8] {
        var bytes: [UInt8] = []
        switch root.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE, XML_COMMENT_NODE:
            appendContent(of: root, to: &bytes)
            return bytes
        case XML_ELEMENT_NODE:
            if hidden.contains(elementName(root)) { return bytes }
        case XML_ATTRIBUTE_NODE, XML_DOCUMENT_NODE, XML_HTML_DOCUMENT_NODE, XML_DOCUMENT_FRAG_NODE:
            break
        default:
            return bytes
        }

        // Iterative pre-order walk bounded by `root`, so deep pages cannot exhaust the stack.
        var next = root.pointee.children
        while let node = next {
            var descend = false
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                appendContent(of: node, to: &bytes)
            case XML_ELEMENT_NODE:
                let name = elementName(node)
                if name == "br" {
                    bytes.append(0x20)
                } else if !hidden.contains(name) {
                    if block.contains(name) { bytes.append(0x20) }
                    descend = node.pointee.children != nil
                }
            default:
                break
            }
            if descend {
                next = node.pointee.children
                continue
            }
            // Move to the next sibling, closing (and separating after) finished block elements.
            var finished = node
            next = nil
            while true {
                if let sibling = finished.pointee.next {
                    next = sibling
                    break
                }
                guard let parent = finished.pointee.parent, parent != root else { break }
                if parent.pointee.type == XML_ELEMENT_NODE, block.contains(elementName(parent)) {
                    bytes.append(0x20)
                }
                finished = parent
            }
        }
        return bytes
    }

    private static func appendContent(of node: xmlNodePtr, to bytes: inout [UInt8]) {
        guard let content = node.pointee.content else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: xmlStrlen(content).clampedToCount))
    }

    private static func elementName(_ node: xmlNodePtr) -> String {
        node.pointee.name.map(string(fromXMLChars:))?.lowercased() ?? ""
    }

    /// Any run of Unicode whitespace (spaces, tabs, newlines, no-break spaces) becomes one
    /// space; leading and trailing whitespace is dropped.
    static func collapseWhitespace(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = true
                continue
            }
            if pendingSpace, !result.isEmpty { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        return String(result)
    }
}
