import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import NIOCore

/// `GET /v1/openapi.json`: every endpoint, its parameters, status codes and bodies, as
/// OpenAPI 3.1. The document is the file `OpenAPI/openapi.json`, compiled into the binary as
/// the dashboard's templates are (`.embedInCode`, the generated `PackageResources`) and read
/// once when the server starts; the server only sets `info.version` to its own.
/// `OpenAPITests` validates it with OpenAPIKit and fails when a route is registered without
/// being described, or described without being registered; `SchemathesisTests` checks the
/// server's answers against it.
struct OpenAPIDocument: Sendable {
    /// The document as served, shared by every answer (copy-on-write).
    let body: ByteBuffer
    /// The strong ETag of `body`.
    let etag: String

    /// The compiled-in document with this program's version.
    static func load() throws(Unusable) -> OpenAPIDocument {
        do {
            return try OpenAPIDocument(Data(PackageResources.openapi_json), version: Version.current)
        } catch let error as Unusable {
            throw error
        } catch {
            throw Unusable(message: "the OpenAPI document (OpenAPI/openapi.json) is not valid JSON: \(error)")
        }
    }

    /// The document `data` with `info.version` set to `version`, indented as the file is. A
    /// repeated key is an error: it would hide one of its values from every reader.
    init(_ data: Data, version: String) throws {
        guard case .object(var document) = try JSONValue.parse(data, duplicateKeys: .reject),
              case .object(var info)? = document["info"] else {
            throw Unusable(message: "the OpenAPI document (OpenAPI/openapi.json) is not a JSON object with an `info` object")
        }
        info["version"] = .string(version)
        document["info"] = .object(info)
        let bytes = Array((JSONValue.object(document).serialized(pretty: true) + "\n").utf8)
        body = ByteBuffer(bytes: bytes)
        etag = HTTPCaching.etag(bytes)
    }

    /// The compiled-in document cannot be served (a build from a broken file; the API still works).
    struct Unusable: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
