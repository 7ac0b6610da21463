import ConditionsHTML
import Foundation

/// Forecasters' HTML (`<p>…</p>`, entities, `&nbsp;`) as plain text for result data.
enum PlainText {
    /// Block elements whose text is a paragraph of its own.
    private static let blocks: Set<String> = ["p", "div", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "pre"]

    /// The text of `html`: each top-level block a paragraph (one line, whitespace collapsed),
    /// paragraphs separated by a blank line; nil when nothing readable is left (null, empty,
    /// `<p>&nbsp;</p>`).
    static func from(html: String?) -> String? {
        guard let html, !html.isEmpty,
              let document = try? HTMLDocument(data: Data(html.utf8), encoding: "utf-8"),
              let body = try? document.first("//body")
        else { return nil }
        let children = body.children
        // Text between blocks would be lost by reading the blocks alone: then the whole is one paragraph.
        let paragraphs = !children.isEmpty && children.allSatisfy({ blocks.contains($0.name.lowercased()) }) && sameText(body, as: children)
            ? children.map(\.text) : [body.text]
        let kept = paragraphs.filter { !$0.isEmpty }
        return kept.isEmpty ? nil : kept.joined(separator: "\n\n")
    }

    /// Whether `children` hold all of `node`'s text (no loose text beside them).
    private static func sameText(_ node: HTMLNode, as children: [HTMLNode]) -> Bool {
        let squeezed = { (text: String) in text.filter { !$0.isWhitespace } }
        return squeezed(node.text) == squeezed(children.map(\.text).joined())
    }
}
