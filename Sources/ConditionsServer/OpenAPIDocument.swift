import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import NIOCore

/// `GET /v1/openapi.json`: every endpoint, its parameters, status codes and bodies, as
/// OpenAPI 3.1. The document is the file `OpenAPI/openapi.json`, compiled into the binary as
/// the dashboard's templates are (`.embedInCode`, the generated `PackageResources`) and read
/// once when the server starts; the server sets `info.version` to its own and fills in the
/// examples (`$EXAMPLE_URN_1`, `$EXAMPLE_URN_2`, `$EXAMPLE_PATTERN`, `$EXAMPLE_SOURCE`,
/// `$EXAMPLE_MODULE`, in any string) from its configuration: the document names no module.
/// `OpenAPITests` validates it with OpenAPIKit and fails when a route is registered without
/// being described, or described without being registered; `SchemathesisTests` checks the
/// server's answers against it.
struct OpenAPIDocument: Sendable {
    /// The document as served, shared by every answer (copy-on-write).
    let body: ByteBuffer
    /// The strong ETag of `body`.
    let etag: String

    /// What the document's examples become: URNs the configuration answers and what answers them.
    struct Examples: Sendable {
        var urns = ["scheme:name", "scheme:other"]
        var pattern = "scheme:{name}"
        var source = "source-id"
        var module = "Module"

        /// The first two of `runtime`'s example URNs, and the route, instance and module of the first.
        init(runtime: Runtime, urns examples: [String]) {
            if let first = examples.first { urns = [first, examples.count > 1 ? examples[1] : first] }
            if let urn = try? URN(urns[0]), let (location, chain) = try? runtime.router.match(urn), let instance = chain.links.first?.instance {
                pattern = location.pattern.text
                source = instance.id
                module = instance.module
            }
        }

        /// Placeholders, for a document read without a configuration.
        init() {}

        var substitutions: [(String, String)] {
            [("$EXAMPLE_URN_1", urns[0]), ("$EXAMPLE_URN_2", urns[1]), ("$EXAMPLE_PATTERN", pattern), ("$EXAMPLE_SOURCE", source), ("$EXAMPLE_MODULE", module)]
        }
    }

    /// The compiled-in document with this program's version and `examples`.
    static func load(examples: Examples = Examples()) throws(Unusable) -> OpenAPIDocument {
        do {
            return try OpenAPIDocument(Data(PackageResources.openapi_json), version: Version.current, examples: examples)
        } catch let error as Unusable {
            throw error
        } catch {
            throw Unusable(message: "the OpenAPI document (OpenAPI/openapi.json) is not valid JSON: \(error)")
        }
    }

    /// The document `data` with `info.version` set to `version`, indented as the file is. A
    /// repeated key is an error: it would hide one of its values from every reader.
    init(_ data: Data, version: String, examples: Examples = Examples()) throws {
        guard case .object(var document) = Self.filled(try JSONValue.parse(data, duplicateKeys: .reject), examples.substitutions),
              case .object(var info)? = document["info"] else {
            throw Unusable(message: "the OpenAPI document (OpenAPI/openapi.json) is not a JSON object with an `info` object")
        }
        info["version"] = .string(version)
        document["info"] = .object(info)
        let bytes = Array((JSONValue.object(document).serialized(pretty: true) + "\n").utf8)
        body = ByteBuffer(bytes: bytes)
        etag = HTTPCaching.etag(bytes)
    }

    /// `value` with each placeholder replaced in every string.
    static func filled(_ value: JSONValue, _ substitutions: [(String, String)]) -> JSONValue {
        switch value {
        case .string(let text) where text.contains("$EXAMPLE_"):
            return .string(substitutions.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) })
        case .array(let elements):
            return .array(elements.map { filled($0, substitutions) })
        case .object(let object):
            var filledObject = JSONObject()
            for (key, member) in object { filledObject[key] = filled(member, substitutions) }
            return .object(filledObject)
        default:
            return value
        }
    }

    /// The compiled-in document cannot be served (a build from a broken file; the API still works).
    struct Unusable: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
