import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import Mustache

/// `--template FILE`: renders results through a Mustache template (swift-mustache).
///
/// The template sees `results` (every result object in the order asked, each with `ok`,
/// and `failed` added), `byURN` (the same objects keyed by URN with every character other than
/// letters, digits, `-` and `_` replaced by `_`: `byURN.pass_snoqualmie`), `generatedAt`,
/// `failures` (the count) and `location`. Output is plain text (no HTML escaping) unless the
/// template's name ends in `.html`.
package struct TemplateRenderer {
    let template: MustacheTemplate

    /// Reads and compiles the Mustache template in `file`; a usage error when it cannot.
    package init(file: URL) throws(Failure) {
        let text: String
        do { text = try String(contentsOf: file, encoding: .utf8) } catch {
            throw Failure.usage("--template: cannot read \(file.path): \(error.localizedDescription)")
        }
        let html = ["html", "htm"].contains(file.pathExtension.lowercased())
        do {
            template = try MustacheTemplate(string: (html ? "" : "{{% CONTENT_TYPE: TEXT}}") + text)
        } catch {
            throw Failure.usage("--template: \(file.path) is not a valid Mustache template: \(error)")
        }
    }

    /// The template rendered over every record (see the README for the context it sees).
    package func render(_ records: [ResultRecord], generatedAt: Date, place: Place) -> String {
        var byURN: [String: Any] = [:]
        let results = records.map { record -> Any in
            var object = record.json.objectValue ?? JSONObject()
            object["ok"] = .bool(!record.failed)
            object["failed"] = .bool(record.failed)
            let value = Self.mustacheValue(.object(object))
            byURN[Self.key(for: record.urn)] = value
            return value
        }
        let context: [String: Any] = [
            "results": results,
            "byURN": byURN,
            "generatedAt": Timestamp.string(from: generatedAt),
            "failures": records.filter(\.failed).count,
            "location": Self.mustacheValue(place.json),
        ]
        return template.render(context)
    }

    static func key(for urn: String) -> String {
        String(urn.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || scalar == "-" || scalar == "_" ? Character(scalar) : "_"
        })
    }

    /// JSON as the dictionaries, arrays and scalars Mustache walks; null becomes absent so
    /// `{{^rise}}no moonrise{{/rise}}` works.
    static func mustacheValue(_ value: JSONValue) -> Any {
        switch value {
        case .null: return Optional<String>.none as Any
        case .bool(let b): return b
        case .int(let i): return i
        case .double: return value.serialized()
        case .string(let s): return s
        case .array(let a): return a.map(mustacheValue)
        case .object(let o):
            var dictionary: [String: Any] = [:]
            for (key, member) in o where member != .null { dictionary[key] = mustacheValue(member) }
            return dictionary
        }
    }
}
