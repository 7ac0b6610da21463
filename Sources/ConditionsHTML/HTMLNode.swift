import CLibXML2

/// One node of an `HTMLDocument`: usually an element, or a text or attribute node when an
/// XPath expression selects those (`//a/@href`, `//p/text()`).
///
/// A node keeps its document alive, so it stays valid for as long as it exists.
/// `@unchecked Sendable` is safe for the reasons given on `HTMLDocument`: the tree is
/// read-only after parsing, and the strong reference keeps `pointer` from dangling.
public struct HTMLNode: @unchecked Sendable {
    /// Held only to keep the tree `pointer` points into alive.
    let document: HTMLDocument
    let pointer: xmlNodePtr

    init(document: HTMLDocument, pointer: xmlNodePtr) {
        self.document = document
        self.pointer = pointer
    }

    /// The element name in lower case (`span`), or libxml2's name for other kinds of node
    /// (`text`, `comment`, or the attribute name).
    public var name: String {
        pointer.pointee.name.map(string(fromXMLChars:)) ?? ""
    }

    /// The value of the named attribute (matched case-insensitively), or nil when the element
    /// lacks it. An attribute written without a value (`<input disabled>`) has its own name as
    /// value (`"disabled"`), as libxml2 follows HTML 4 here.
    public func attribute(_ name: String) -> String? {
        // Only elements have attributes; other node kinds reuse `properties` for other data.
        guard pointer.pointee.type == XML_ELEMENT_NODE else { return nil }
        var attribute = pointer.pointee.properties
        while let current = attribute {
            if let attributeName = current.pointee.name,
               string(fromXMLChars: attributeName).caseInsensitiveEquals(name) {
                return TextContent.raw(attributeChildren: current.pointee.children)
            }
            attribute = current.pointee.next
        }
        return nil
    }

    /// Everything a reader would see inside the node, as one line: the text of nested
    /// elements included, entities decoded, runs of whitespace (including no-break spaces)
    /// collapsed to one space and trimmed. `<script>`, `<style>`, `<noscript>` and
    /// `<template>` contribute nothing; `<br>` and block elements (`div`, `p`, `li`, `td`, …)
    /// separate the words on either side with a space.
    public var text: String {
        TextContent.normalized(of: pointer)
    }

    /// The child elements, in document order (text and comments between them are skipped).
    public var children: [HTMLNode] {
        // Text, comment and attribute nodes have no element children (and text nodes may
        // reuse fields under HTML_PARSE_COMPACT), so only walk elements and the document.
        let type = pointer.pointee.type
        guard type == XML_ELEMENT_NODE || type == XML_HTML_DOCUMENT_NODE || type == XML_DOCUMENT_NODE else {
            return []
        }
        var result: [HTMLNode] = []
        var child = pointer.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                result.append(HTMLNode(document: document, pointer: current))
            }
            child = current.pointee.next
        }
        return result
    }

    /// All nodes the XPath expression selects with this node as the context node, so
    /// relative paths (`.//b`, `span`) start here; absolute ones (`//b`) still search the
    /// whole document.
    ///
    /// - Throws: `HTMLError.invalidXPath`, as for `HTMLDocument.nodes(_:)`.
    public func nodes(_ xpath: String) throws -> [HTMLNode] {
        try XPathQuery.nodes(xpath, in: document, from: pointer)
    }

    /// The first node the XPath expression selects from this node, or nil when it selects none.
    ///
    /// - Throws: `HTMLError.invalidXPath`, as for `HTMLDocument.nodes(_:)`.
    public func first(_ xpath: String) throws -> HTMLNode? {
        try nodes(xpath).first
    }

    /// The normalized text of the first node the XPath expression selects from this node,
    /// or nil when it selects none.
    ///
    /// - Throws: `HTMLError.invalidXPath`, as for `HTMLDocument.nodes(_:)`.
    public func text(_ xpath: String) throws -> String? {
        try first(xpath)?.text
    }
}

extension String {
    fileprivate func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
