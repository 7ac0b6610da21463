import ConditionsHTML
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// Which markup a pass page is read with (the `layout` option).
enum PageLayout: String, Sendable, CaseIterable {
    /// Pick per page: `current` when it has labelled report rows, else `classic`; a page with
    /// neither that looks like the wsdot.com application shell is diagnosed as such.
    case auto
    /// wsdot.com since ~2021 (rendered by a browser): `div.condition` rows, each a
    /// `div.conditionLabel` and a `div.conditionValue`, read by label text.
    case current
    /// The pre-2021 ASP.NET page: `span#PassInfo…` ids.
    case classic
}

/// What one page said, before it becomes a report.
struct PageReading: Sendable {
    /// The layout the page was read with (`current` or `classic`).
    var layout: PageLayout
    /// The text of each field found; absent when the page has no such field.
    var values: [PageFields.Field: String] = [:]
    /// Restrictions in page order with the direction their label names (`current`); nil for
    /// `classic`, whose two spans take the catalog's directions.
    var restrictions: [(direction: String, text: String)]?
    /// Rows with a label this module does not know, in page order (`data.extra`).
    var extra: [(label: String, value: String)] = []
}

/// A page that is the wsdot.com application shell: its report is filled in by JavaScript, so a
/// plain GET has none. Distinct from "missing fields" because the fix is different.
struct ShellPage: Error {}

/// Reads pass pages with libxml2 (via ConditionsHTML).
enum PageExtraction {
    /// Reads `response` with `layout` (`auto` picks per page), then applies the `fields`
    /// overrides. Throws `ShellPage` for the application shell and `badResponse` for a page
    /// libxml2 cannot read.
    static func read(_ response: HTTPResponse, layout: PageLayout, fields: PageFields) throws -> PageReading {
        let shownURL = Redaction.redact(response.url)
        let document: HTMLDocument
        do {
            document = try HTMLDocument(data: response.body, url: shownURL, encoding: response.headers["content-type"])
        } catch {
            throw ConditionsError.badResponse("\(shownURL): \(error)")
        }
        do {
            var reading: PageReading
            let rows = layout == .classic ? [] : try labelledRows(in: document)
            if !rows.isEmpty {
                reading = current(rows)
            } else if layout == .current || (layout == .auto && !hasClassicSpans(document)) {
                if try isShell(document) { throw ShellPage() }
                // Neither layout matched: report the missing fields of the one asked for.
                reading = layout == .current ? PageReading(layout: .current, restrictions: []) : PageReading(layout: .classic)
            } else {
                reading = PageReading(layout: .classic)
            }
            try applyXPaths(document, fields: fields, to: &reading, shownURL: shownURL)
            return reading
        } catch let error as ShellPage {
            throw error
        } catch let error as ConditionsError {
            throw error
        } catch {
            // Expressions are checked when the options load, so this is libxml2 failing at run time.
            throw ConditionsError.badResponse("\(shownURL): \(error)")
        }
    }

    /// Classic spans for every field not overridden, then the overrides, each the first match
    /// that is not inside `<noscript>` or `<template>` (content a browser with scripts does not
    /// show), so a fallback snippet cannot shadow the live report.
    private static func applyXPaths(_ document: HTMLDocument, fields: PageFields, to reading: inout PageReading, shownURL: String) throws {
        for field in PageFields.Field.allCases {
            let xpath: String
            if let override = fields.overrides[field] {
                xpath = override
            } else if reading.layout == .classic {
                xpath = field.classicXPath
            } else {
                continue
            }
            let visible: HTMLNode?
            do {
                visible = try document.nodes(xpath).first { node in
                    (try? node.first("ancestor::noscript | ancestor::template")) == nil
                }
            } catch {
                throw ConditionsError.badResponse("\(shownURL): field \(field.rawValue): \(error)")
            }
            guard let visible else { continue }
            // In `current`, restrictionOne/Two are only ever set here, by an override.
            reading.values[field] = visible.text
        }
    }

    // MARK: current

    /// `(label, value node)` of every `div.condition` row with a non-empty label.
    private static func labelledRows(in document: HTMLDocument) throws -> [(label: String, value: HTMLNode)] {
        var rows: [(label: String, value: HTMLNode)] = []
        for row in try document.nodes(hasClass("div", "condition")) {
            guard let labelNode = try row.first("." + hasClass("*", "conditionLabel")),
                  let valueNode = try row.first("." + hasClass("*", "conditionValue"))
            else { continue }
            let label = labelNode.text
            if label.isEmpty { continue }
            rows.append((label, valueNode))
        }
        return rows
    }

    /// Rows by label; the direction of a travel row comes from its label, so north/south
    /// passes are right by construction. A repeated label keeps its first row, as the classic
    /// layout keeps the first match of each XPath.
    private static func current(_ rows: [(label: String, value: HTMLNode)]) -> PageReading {
        var reading = PageReading(layout: .current, restrictions: [])
        var restrictions: [(direction: String, text: String)] = []
        for (label, valueNode) in rows {
            let key = Text.normalized(label)?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ":")) ?? ""
            let value = valueNode.text
            let field: PageFields.Field? = switch key {
            case "temperature": .temperature
            case "elevation": .elevation
            case "conditions", "road conditions": .conditions
            case "weather": .weather
            case "last updated", "last update", "updated": .updated
            default: nil
            }
            if let field {
                if reading.values[field] == nil {
                    reading.values[field] = field == .updated ? withoutLinks(value, in: valueNode) : value
                }
                continue
            }
            let words = key.split(separator: " ")
            if words.count == 2, words[0] == "travel", let direction = directions[String(words[1])] {
                if !restrictions.contains(where: { $0.direction == direction }) {
                    restrictions.append((direction, value))
                }
                continue
            }
            if !reading.extra.contains(where: { $0.label == label }) { reading.extra.append((label, value)) }
        }
        reading.restrictions = restrictions
        return reading
    }

    private static let directions = ["eastbound": "Eastbound", "westbound": "Westbound", "northbound": "Northbound", "southbound": "Southbound"]

    /// `value` without the text of links at its end (`… 7:24 AM [Disclaimer]`), which is no part of the date.
    private static func withoutLinks(_ value: String, in node: HTMLNode) -> String {
        var text = value
        let links = ((try? node.nodes(".//a")) ?? []).map(\.text).filter { !$0.isEmpty }
        var trimmed = true
        while trimmed {
            trimmed = false
            for link in links where text.hasSuffix(link) {
                text = String(text.dropLast(link.count)).trimmingCharacters(in: .whitespaces)
                trimmed = true
            }
        }
        return text
    }

    // MARK: shell

    private static func hasClassicSpans(_ document: HTMLDocument) -> Bool {
        ((try? document.first("//span[starts-with(@id, 'PassInfo')]")) ?? nil) != nil
    }

    /// The wsdot.com application before its script ran: a Vue mount point, the site's script
    /// bundle, a "Pass report" heading or report rows, but no labelled row.
    private static func isShell(_ document: HTMLDocument) throws -> Bool {
        let markers = [
            "//*[@data-v-app]",
            "//script[contains(@src, '/travel/real-time/')]",
            "//h2[normalize-space() = 'Pass report']",
            hasClass("div", "condition"),
        ]
        for marker in markers where try document.first(marker) != nil { return true }
        return false
    }

    /// `//name[@class ~= class]`: a class among several, never a substring of another.
    private static func hasClass(_ name: String, _ cls: String) -> String {
        "//\(name)[contains(concat(' ', normalize-space(@class), ' '), ' \(cls) ')]"
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
