import CLibXML2
import Foundation

/// A parsed HTML page, queried with XPath.
///
/// Parsing is forgiving the way browsers are: unclosed tags, stray markup and invalid bytes
/// still give a document. libxml2's diagnostics are suppressed, never printed.
///
/// `@unchecked Sendable` is safe because the document is never mutated after `init`: every
/// later operation only reads the tree, and each XPath query uses its own `xmlXPathContext`,
/// so concurrent queries on one document share no mutable libxml2 state. The `xmlDoc` is
/// freed exactly once, in `deinit`, which cannot run while any `HTMLNode` still holds the document.
public final class HTMLDocument: @unchecked Sendable {
    /// Owned: freed in `deinit` only.
    let pointer: xmlDocPtr

    /// Parses a page.
    ///
    /// - Parameters:
    ///   - data: the raw response body.
    ///   - url: the page's address, recorded as the document URL (nothing is fetched).
    ///   - encoding: the transport encoding, either a charset label (`windows-1252`) or a whole
    ///     HTTP `Content-Type` value (`text/html; charset=windows-1252`). It overrides the page's
    ///     own `<meta>` declaration; without either, the page is decoded as UTF-8. Labels libxml2
    ///     cannot decode are ignored.
    /// - Throws: `HTMLError.unparsable` when the body is empty or libxml2 yields no document.
    public init(data: Data, url: String? = nil, encoding: String? = nil) throws {
        _ = libxml2Initialized
        let prepared = CharacterEncoding.prepare(data, explicit: encoding)
        guard !prepared.bytes.isEmpty else {
            throw HTMLError.unparsable(reason: "the page is empty")
        }
        guard let length = Int32(exactly: prepared.bytes.count) else {
            throw HTMLError.unparsable(reason: "the page is larger than libxml2 can parse (\(prepared.bytes.count) bytes)")
        }
        let options = HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue
            // The encoding is decided in CharacterEncoding; stop libxml2 re-switching on <meta>.
            | HTML_PARSE_IGNORE_ENC.rawValue
        let document = withLibXML2ErrorsSilenced {
            prepared.bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    htmlReadMemory(chars.baseAddress, length, url, prepared.encoding, Int32(bitPattern: options))
                }
            }
        }
        guard let document else {
            throw HTMLError.unparsable(reason: "libxml2 produced no document (\(prepared.encoding) input)")
        }
        Self.removeInertContent(of: document)
        pointer = document
    }

    /// Empties every `<noscript>` and `<template>`, the last change ever made to the tree.
    ///
    /// libxml2 parses their contents as live elements, but in a browser (with scripting on)
    /// neither holds part of the page: a `<noscript>` fallback repeating an element id would
    /// otherwise be the first XPath match instead of the real element.
    private static func removeInertContent(of document: xmlDocPtr) {
        var inert: [xmlNodePtr] = []
        var next = document.pointee.children
        while let node = next {
            var descend = node.pointee.type == XML_ELEMENT_NODE
            if descend, let name = node.pointee.name,
               ["noscript", "template"].contains(string(fromXMLChars: name).lowercased()) {
                inert.append(node)
                descend = false
            }
            if descend, let child = node.pointee.children {
                next = child
                continue
            }
            var finished: xmlNodePtr? = node
            next = nil
            while let current = finished {
                if let sibling = current.pointee.next {
                    next = sibling
                    break
                }
                guard let parent = current.pointee.parent,
                      UnsafeMutableRawPointer(parent) != UnsafeMutableRawPointer(document) else { break }
                finished = parent
            }
        }
        for element in inert {
            while let child = element.pointee.children {
                xmlUnlinkNode(child)
                xmlFreeNode(child)
            }
        }
    }

    deinit {
        xmlFreeDoc(pointer)
    }

    /// The `<html>` element (libxml2 supplies one when the page omits it), or nil for a page
    /// with no elements at all.
    public var root: HTMLNode? {
        xmlDocGetRootElement(pointer).map { HTMLNode(document: self, pointer: $0) }
    }

    /// All nodes the XPath expression selects, in document order.
    ///
    /// - Throws: `HTMLError.invalidXPath` naming the expression when it does not compile,
    ///   fails to evaluate, or yields something other than nodes (a number, string or boolean).
    public func nodes(_ xpath: String) throws -> [HTMLNode] {
        try XPathQuery.nodes(xpath, in: self, from: nil)
    }

    /// The first node the XPath expression selects, or nil when it selects none.
    ///
    /// - Throws: `HTMLError.invalidXPath`, as for `nodes(_:)`.
    public func first(_ xpath: String) throws -> HTMLNode? {
        try nodes(xpath).first
    }

    /// The normalized text (see `HTMLNode.text`) of the first node the XPath expression
    /// selects, or nil when it selects none.
    ///
    /// - Throws: `HTMLError.invalidXPath`, as for `nodes(_:)`.
    public func text(_ xpath: String) throws -> String? {
        try first(xpath)?.text
    }
}
