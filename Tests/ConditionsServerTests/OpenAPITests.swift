import ConditionsCore
import ConditionsKit
import Foundation
import Logging
import TestHarness
import Testing
@testable import ConditionsServer

/// `/v1/openapi.json` describes exactly the routes the router registers, and is what the
/// server sends.
@Suite struct OpenAPITests {
    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.text.utf8)) as? [String: Any])
    }

    /// Hummingbird's path (`/v1/urn/**`, `/a/:id`) in OpenAPI's form (`/v1/urn/{…}`), with any
    /// parameter name: the names are the document's to choose.
    static func template(_ path: String) -> String {
        "/" + path.split(separator: "/").map { part in
            part == "**" || part == "*" || part.hasPrefix(":") || part.hasPrefix("{") ? "{}" : String(part)
        }.joined(separator: "/")
    }

    @Test func everyRegisteredRouteIsDescribedAndNothingElse() throws {
        let url = CLI.packageRoot.appendingPathComponent("sources.json")
        let configuration = try Configuration.load(try ConfigFile.read(url), profile: "offline")
        let logger = Logger(label: "test")
        let runtime = try Runtime(configuration, environment: [:], logger: logger)
        let server = ConditionsServer(runtime: runtime, settings: ServerSettings(listen: ListenAddress("127.0.0.1:0")!, token: nil, cors: []),
                                      cachePolicy: .init(), logger: logger)
        let registered = Set(server.makeRouter().routes.map { "\($0.method.rawValue) \(Self.template("\($0.path)"))" })

        let document = try Self.document()
        #expect((document["openapi"] as? String)?.hasPrefix("3.1") == true)
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let described = Set(paths.flatMap { path, operations in
            operations.keys.map { "\($0.uppercased()) \(Self.template(path.replacingOccurrences(of: #"\{[^}]*\}"#, with: "{}", options: .regularExpression)))" }
        })
        #expect(registered.count >= 10)
        #expect(registered.subtracting(described).isEmpty, "registered but not in openapi.json: \(registered.subtracting(described).sorted())")
        #expect(described.subtracting(registered).isEmpty, "in openapi.json but not registered: \(described.subtracting(registered).sorted())")
    }

    /// A key given twice would silently hide one of its values from every reader.
    @Test func noObjectRepeatsAKey() throws {
        #expect(throws: Never.self) { try JSONValue.parse(Data(OpenAPIDocument.text.utf8), duplicateKeys: .reject) }
    }

    /// Every `$ref` points at something the document defines.
    @Test func everyReferenceResolves() throws {
        let document = try Self.document()
        var references: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let ref = object["$ref"] as? String { references.append(ref) }
                object.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(document)
        #expect(references.count > 20)
        for reference in references {
            var node: Any? = document
            for key in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(key)] }
            #expect(node != nil, "\(reference) resolves to nothing")
        }
    }

    @Test func theServerSendsIt() async throws {
        let (upstream, dir) = try ServeTests.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: ServeTests.environment) { server in
            let reply = try await server.request("/v1/openapi.json")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            let sent = try #require(reply.json as? [String: Any])
            #expect((sent["info"] as? [String: Any])?["version"] as? String == Version.current)
            #expect(NSDictionary(dictionary: sent) == NSDictionary(dictionary: try Self.document()))
            let etag = try #require(reply.header("ETag"))
            #expect(try await server.request("/v1/openapi.json", headers: [("If-None-Match", etag)]).status == 304)
        }
    }
}
