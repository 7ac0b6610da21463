import ConditionsHTML
import ConditionsKit
import Foundation

/// Reads the configured fields out of a fetched pass page with libxml2 (via ConditionsHTML).
enum PageExtraction {
    /// The normalized text of every field whose XPath selects a visible node, keyed by field;
    /// a field selecting nothing is absent. Each field takes the first match that is not inside
    /// `<noscript>` or `<template>` (content a browser with scripts does not show), so a
    /// fallback snippet cannot shadow the live report; `<script>` bodies are never elements.
    static func values(from response: HTTPResponse, fields: PageFields) throws(ConditionsError) -> [PageFields.Field: String] {
        let shownURL = Redaction.redact(response.url)
        let document: HTMLDocument
        do {
            document = try HTMLDocument(data: response.body, url: shownURL, encoding: response.headers["content-type"])
        } catch {
            throw ConditionsError.badResponse("\(shownURL): \(error)")
        }
        var values: [PageFields.Field: String] = [:]
        for field in PageFields.Field.allCases {
            let xpath = fields[field]
            do {
                let visible = try document.nodes(xpath).first { node in
                    (try? node.first("ancestor::noscript | ancestor::template")) == nil
                }
                if let visible { values[field] = visible.text }
            } catch {
                // Expressions are checked when the options load, so this is libxml2 failing at run time.
                throw ConditionsError.badResponse("\(shownURL): field \(field.rawValue): \(error)")
            }
        }
        return values
    }

    /// Throws `HTMLError.invalidXPath` when `xpath` does not compile or does not select nodes,
    /// by running it on an empty page; lets a typo in `fields` fail when the config loads.
    static func validate(_ xpath: String) throws {
        guard let probe else { return }
        _ = try probe.nodes(xpath)
    }

    /// An empty page to check expressions against.
    private static let probe: HTMLDocument? = try? HTMLDocument(data: Data("<html><body></body></html>".utf8))
}
