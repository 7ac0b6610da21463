import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import ConditionsPass
@testable import WSDOT

/// Every restriction text and road condition in the real captures (and the fixtures derived
/// from them) that `real/SOURCES.md` and `derived/SOURCES.md` list, read by the module, checked
/// against `Resources/closure-readings.md`, written by hand from reading each text.
@Suite("Real texts against the hand-written closure table")
struct RealTextReadingTests {
    struct FieldText: Hashable, CustomStringConvertible {
        let field: String
        let text: String
        var description: String { "\(field) \"\(text)\"" }
    }

    /// The table: each text's `closes` cell.
    static func table() throws -> [FieldText: String] {
        var rows: [FieldText: String] = [:]
        for line in String(decoding: try fixture("closure-readings.md"), as: UTF8.self).split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, ["restriction", "condition"].contains(cells[1]) else { continue }
            let key = FieldText(field: cells[1], text: cells[2])
            #expect(rows[key] == nil, "closure-readings.md: \(key) has two rows")
            rows[key] = cells[3]
        }
        return rows
    }

    /// The files a SOURCES.md table lists (its first column), relative to Resources.
    static func listed(in sources: String) throws -> [String] {
        let folder = (sources as NSString).deletingLastPathComponent
        return String(decoding: try fixture(sources), as: UTF8.self).split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard line.hasPrefix("|"), let name = cells.first, name.contains(".") else { return nil }
            return ((folder + "/" + name) as NSString).standardizingPath
        }
    }

    /// How the module reads `text` in `field`, in the table's words.
    static func reading(_ text: String, field: String) -> String {
        guard let closure = RoadClosure(in: text, isRestriction: field == "restriction") else { return "no" }
        var parts: [String] = []
        if closure.namesNoDirection { parts.append("unnamed") }
        if closure.namesEveryDirection { parts.append("every") }
        return (parts + closure.named.sorted()).joined(separator: "+")
    }

    static let apiURL = ClosurePhraseTests.apiURL
    static let feedURL = ClosurePhraseTests.feedURL

    /// ws-dottie's stored copy of WSDOT's answer, its dates already ISO 8601, is not a form WSDOT
    /// serves; the module reads the WCF form derived from it, whose texts must be the same.
    static let readAs = ["real/wsdot_api_passes_2025-11-15_iso.json": "real/DERIVED_wsdot_api_passes_2025-11-15_wcf_raw_form.json"]

    /// The passes the module reads from the listed file `name`; empty for a file holding no pass
    /// report (snowfall data, a page not yet filled in by its script), which must say so.
    static func passes(in name: String) async throws -> [JSONValue] {
        if let derived = readAs[name] {
            func texts(_ file: String) throws -> [String] {
                try (JSONValue.parse(fixture(file)).arrayValue ?? []).flatMap { entry in
                    [entry["RestrictionOne"]?["RestrictionText"], entry["RestrictionTwo"]?["RestrictionText"], entry["RoadCondition"]].map { $0??.stringValue ?? "" }
                }
            }
            #expect(try texts(name) == texts(derived), "\(name): its texts differ from \(derived)'s")
            return []
        }
        let data = try fixture(name)
        if name.hasSuffix(".html") {
            let source = try makeSource(.json(#"{"passes": ["stevens"]}"#))
            let http = RecordingHTTPClient(["\(siteBase)/stevens": .body(data, contentType: "text/html; charset=utf-8")])
            do {
                return [try await resolve("pass:stevens", with: source, http: http)]
            } catch let error as ConditionsError where error.message.contains("filled in by JavaScript") {
                return []
            }
        }
        if name.contains("snowfall") { return [] }
        #expect(name.hasSuffix(".json"), "\(name): a listed file of a kind this test does not read")
        let document = try JSONValue.parse(data)
        let all: JSONValue
        if document.arrayValue != nil || document["MountainPassId"] != nil {
            // A single-pass answer (`GetMountainPassConditionAsJon`) is one element of the array
            // the module reads.
            let array = document.arrayValue != nil ? data : Data("[".utf8) + data + Data("]".utf8)
            all = try await resolve("pass:all", with: makeSource(.json(#"{"mode": "api", "accessCode": "k"}"#)),
                                    http: RecordingHTTPClient([apiURL: .body(array, contentType: "application/json")]))
        } else {
            all = try await resolve("pass:all", with: makeSource(.json(#"{"mode": "feed"}"#)),
                                    http: RecordingHTTPClient([feedURL: .body(data, contentType: "application/json")]))
        }
        return all["passes"]?.arrayValue ?? []
    }

    @Test("every text of every listed file has a row, and the module reads each as its row says")
    func everyText() async throws {
        let table = try Self.table()
        let files = try Self.listed(in: "real/SOURCES.md") + Self.listed(in: "derived/SOURCES.md")
        #expect(files.count >= 14, "\(files)")
        var seen: Set<FieldText> = []
        var passCount = 0
        for file in files {
            for pass in try await Self.passes(in: file) {
                passCount += 1
                let id = pass["id"]?.stringValue ?? "?"
                var texts = (pass["restrictions"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.map { FieldText(field: "restriction", text: $0) }
                if let conditions = pass["conditions"]?.stringValue { texts.append(FieldText(field: "condition", text: conditions)) }
                var closes = false
                for text in texts {
                    seen.insert(text)
                    guard let expected = table[text] else {
                        Issue.record("\(file) (\(id)): \(text) has no row in closure-readings.md")
                        continue
                    }
                    #expect(Self.reading(text.text, field: text.field) == expected, "\(file) (\(id)): \(text)")
                    closes = closes || expected != "no"
                }
                // The pass reads closed exactly when one of its texts closes, and says which words.
                #expect((pass["status"] == "closed") == closes, "\(file) (\(id)): status \(pass["status"] ?? nil)")
                #expect((pass["closedByText"]?.arrayValue?.isEmpty == false) == closes, "\(file) (\(id))")
            }
        }
        #expect(passCount > 60, "the listed files hold every pass of three days and more")
        #expect(Set(table.keys).subtracting(seen).isEmpty, "rows no listed file has: \(Set(table.keys).subtracting(seen))")
    }
}
