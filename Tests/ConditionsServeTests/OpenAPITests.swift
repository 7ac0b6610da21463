import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OpenAPIKit
import TestHarness
import Testing
@testable import ConditionsServer

/// `/v1/openapi.json` is a valid OpenAPI 3.1 document (OpenAPIKit), describes exactly the
/// routes the router registers, and is what the server sends; a method a path does not list
/// is answered 405 with `Allow`.
@Suite struct OpenAPITests {
    /// The document as the server loads it: the compiled-in file, with the version set.
    static func loaded() throws -> OpenAPIDocument {
        try OpenAPIDocument.load()
    }

    static func decoded() throws -> OpenAPI.Document {
        let body = try loaded().body
        return try JSONDecoder().decode(OpenAPI.Document.self, from: Data(body.readableBytesView))
    }

    /// The file in the repository, which the build compiles in.
    static let source = CLI.packageRoot.appendingPathComponent("Sources/ConditionsServer/OpenAPI/openapi.json")

    /// A server over the repository's config (offline profile); nothing is resolved.
    static func server(cors: [String] = []) throws -> ConditionsServer {
        let configuration = try Configuration.load(try ConfigFile.read(CLI.packageRoot.appendingPathComponent("sources.json")), profile: "offline", catalog: registered)
        var logger = Logger(label: "test")
        logger.logLevel = .warning  // not a line per request
        let runtime = try Runtime(configuration, catalog: registered, environment: [:], logger: logger)
        return ConditionsServer(runtime: runtime, settings: ServerSettings(listen: ListenAddress("127.0.0.1:0")!, token: nil, cors: cors),
                                cachePolicy: .init(), logger: logger)
    }

    /// Hummingbird's path (`/v1/urn/**`, `/a/:id`) in OpenAPI's form (`/v1/urn/{…}`), with any
    /// parameter name: the names are the document's to choose.
    static func template(_ path: String) -> String {
        "/" + path.split(separator: "/").map { part in
            part == "**" || part == "*" || part.hasPrefix(":") || (part.hasPrefix("{") && part.hasSuffix("}")) ? "{}" : String(part)
        }.joined(separator: "/")
    }

    /// Each described path with its parameters filled in, and the methods it lists.
    static func describedPaths() throws -> [(path: String, methods: Set<String>)] {
        try decoded().paths.map { path, item in
            let concrete = path.rawValue.replacingOccurrences(of: #"\{[^}]*\}"#, with: "pass:snoqualmie", options: .regularExpression)
            return (concrete, Set(try #require(item.pathItemValue).endpoints.map(\.method.rawValue)))
        }
    }

    @Test func decodesAsOpenAPI31AndValidates() throws {
        let document = try Self.decoded()
        guard case .v3_1_0 = document.openAPIVersion else {
            Issue.record("openapi: \(document.openAPIVersion.rawValue), not 3.1.0")
            return
        }
        #expect(document.info.version == Version.current, "the server sets info.version to its own")
        // Strict: OpenAPIKit's warnings (a 3.2 feature in a 3.1 document, say) are errors too.
        try document.validate(using: Validator().validatingAllReferencesFoundInComponents(), strict: true)
    }

    /// Every `$ref` points at something the document defines: OpenAPIKit dereferences every
    /// reference it models, and a walk over the raw JSON finds any other.
    @Test func everyReferenceResolves() throws {
        _ = try Self.decoded().locallyDereferenced()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(Self.loaded().body.readableBytesView)) as? [String: Any])
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
        #expect(references.count > 50)
        for reference in references {
            #expect(reference.hasPrefix("#/"), "\(reference) is not a reference inside the document")
            var node: Any? = document
            for key in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(key)] }
            #expect(node != nil, "\(reference) resolves to nothing")
        }
    }

    @Test func everyRegisteredRouteIsDescribedAndNothingElse() throws {
        let registered = Set(try Self.server().makeRouter().routes.map { "\($0.method.rawValue) \(Self.template("\($0.path)"))" })
        let described = Set(try Self.decoded().paths.flatMap { path, item in
            try #require(item.pathItemValue).endpoints.map { "\($0.method.rawValue) \(Self.template(path.rawValue))" }
        })
        #expect(registered.count >= 14)
        #expect(registered.subtracting(described).isEmpty, "registered but not in openapi.json: \(registered.subtracting(described).sorted())")
        #expect(described.subtracting(registered).isEmpty, "in openapi.json but not registered: \(described.subtracting(registered).sorted())")
    }

    /// Every request meets the URL limit, and every one but `/healthz` the token, before it is
    /// routed: each operation declares those answers.
    @Test func everyOperationDeclaresTheRefusalsEveryRequestMeets() throws {
        let document = try Self.decoded().locallyDereferenced().resolved()
        #expect(document.endpoints.count >= 14)
        for endpoint in document.endpoints {
            let statuses = Set(endpoint.responses.keys.map(\.rawValue))
            let label = "\(endpoint.method.rawValue) \(endpoint.path.rawValue)"
            #expect(statuses.contains("414"), "\(label) does not declare 414")
            let open = endpoint.security.allSatisfy { $0.schemes.isEmpty }
            #expect(statuses.contains("401") != open, "\(label): 401 declared \(statuses.contains("401")), security optional \(open)")
        }
    }

    /// A key given twice would silently hide one of its values from every reader; the server
    /// refuses such a file.
    @Test func noObjectRepeatsAKey() throws {
        #expect(throws: Never.self) { try JSONValue.parse(try Data(contentsOf: Self.source), duplicateKeys: .reject) }
        #expect(throws: JSONParseError.self) { try OpenAPIDocument(Data(#"{"info": {"version": "1"}, "info": {}}"#.utf8), version: "2") }
    }

    /// The build compiles in the repository's file; the server changes nothing but the version
    /// and the examples, which name URNs its configuration answers (the file names no module).
    @Test func theServerSendsTheRepositorysFile() async throws {
        let text = try String(contentsOf: Self.source, encoding: .utf8)
        #expect(!text.contains("pass:") && !text.contains("WSDOT"), "the file spells a module's URN or name")
        let server = try Self.server()
        let examples = OpenAPIDocument.Examples(runtime: server.runtime, urns: server.exampleURNs)
        #expect(examples.urns == ["pass:snoqualmie", "forecast:snoqualmie"], "the shipped config's report list, one per scheme")
        #expect(examples.pattern == "pass:{name}" && examples.source == "fixtures" && examples.module == "Fixtures")
        guard case .object(var file) = OpenAPIDocument.filled(try JSONValue.parse(Data(text.utf8)), examples.substitutions),
              case .object(var info)? = file["info"] else {
            Issue.record("\(Self.source.path) is not an object with an info object")
            return
        }
        info["version"] = .string(Version.current)
        file["info"] = .object(info)
        let expected = JSONValue.object(file)
        try await Application(router: server.makeRouter()).test(.router) { client in
            let reply = try await client.execute(uri: "/v1/openapi.json", method: .get)
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType] == "application/json")
            let served = String(decoding: reply.body.readableBytesView, as: UTF8.self)
            #expect(!served.contains("$EXAMPLE_"))
            #expect(served.contains("\"example\" : \"pass:snoqualmie\"") || served.contains("\"example\": \"pass:snoqualmie\""), "the URN example is the config's")
            #expect(try JSONValue.parse(Data(reply.body.readableBytesView)) == expected)
            let etag = try #require(reply.headers[.eTag])
            #expect(try await client.execute(uri: "/v1/openapi.json", method: .get, headers: [.ifNoneMatch: etag]).status == .notModified)
        }
    }

    /// What a described path answers: its methods, and HEAD (implicit, as schemathesis and
    /// RFC 9110 have it) wherever it answers GET.
    static func answered(_ path: String, _ methods: Set<String>) -> Set<String> {
        methods.contains("GET") ? methods.union(["HEAD"]) : methods
    }

    /// Methods nobody registers, and the ones another path has: each described path answers
    /// them 405 with exactly its own methods in `Allow`; an unknown path stays 404.
    @Test func anUndeclaredMethodIs405WithAllow() async throws {
        let paths = try Self.describedPaths()
        #expect(paths.count >= 13)
        try await Application(router: Self.server().makeRouter()).test(.router) { client in
            for (path, declared) in paths {
                let methods = Self.answered(path, declared)
                for method in [HTTPRequest.Method.trace, .put, .delete, .patch, .options, .head, .post, .get, HTTPRequest.Method("QUERY")!]
                where !methods.contains(method.rawValue) {
                    let reply = try await client.execute(uri: path, method: method)
                    #expect(reply.status == .methodNotAllowed, "\(method) \(path)")
                    let allow = Set((reply.headers[.allow] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    #expect(allow == methods, "\(method) \(path): Allow \(reply.headers[.allow] ?? "missing")")
                    #expect(String(buffer: reply.body).contains(#""kind":"methodNotAllowed""#))
                }
            }
            for method in [HTTPRequest.Method.get, .trace] {
                let reply = try await client.execute(uri: "/v1/nothing-here", method: method)
                #expect(reply.status == .notFound, "\(method) of an unknown path")
                #expect(reply.headers[.allow] == nil)
            }
            // `/v1/urn/**` needs a URN: without one the path is unknown, not a method refused.
            #expect(try await client.execute(uri: "/v1/urn/", method: .trace).status == .notFound)
        }
    }

    /// HEAD is GET without the body: the same status and headers (ETag included) wherever GET
    /// is answered, and 304 for a matching ETag.
    @Test func headIsGetWithoutItsBody() async throws {
        try await Application(router: Self.server().makeRouter()).test(.router) { client in
            // A recorded pass, not the moon: a local result is made again each second, and its
            // ETag with it.
            for path in ["/healthz", "/v1/routes", "/v1/urn/pass:white", "/v1/openapi.json", "/", "/assets/dashboard.css", "/v1/urn/pass:nope"] {
                let get = try await client.execute(uri: path, method: .get)
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.status == get.status, "HEAD \(path)")
                #expect(head.body.readableBytes == 0, "HEAD \(path) has no body")
                #expect(head.headers[.contentType] == get.headers[.contentType], "HEAD \(path)")
                // The page shows the moon now and ages ("updated 3 d ago"): made again a moment
                // later it may differ, so its ETag is not compared.
                guard path != "/" else { continue }
                #expect(head.headers[.eTag] == get.headers[.eTag], "HEAD \(path)")
                if let etag = get.headers[.eTag] {
                    #expect(try await client.execute(uri: path, method: .head, headers: [.ifNoneMatch: etag]).status == .notModified, "HEAD \(path)")
                }
            }
            // The event stream's headers, and no subscription (nothing to end it but the client).
            let stream = try await client.execute(uri: "/v1/events?urn=moon:now", method: .head)
            #expect(stream.status == .ok)
            #expect(stream.headers[.contentType] == "text/event-stream")
            #expect(stream.body.readableBytes == 0)
            #expect(try await client.execute(uri: "/v1/events?urn=moon:now&every=0s", method: .head).status == .badRequest)
        }
    }

    /// With CORS on, every path answers OPTIONS (the preflight), and `Allow` says so.
    @Test func aPreflightListsThePathsMethods() async throws {
        try await Application(router: Self.server(cors: ["*"]).makeRouter()).test(.router) { client in
            let preflight = try await client.execute(uri: "/v1/resolve", method: .options, headers: [.origin: "https://example.org"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.allow] == "GET, HEAD, POST, OPTIONS")
            let refused = try await client.execute(uri: "/v1/resolve", method: .delete)
            #expect(refused.status == .methodNotAllowed)
            #expect(refused.headers[.allow] == "GET, HEAD, POST, OPTIONS")
        }
    }

    /// The wildcard matches as Hummingbird's router does: one component or more.
    @Test func methodsFollowTheRoutersMatching() throws {
        let allowed = AllowedMethods()
        let router = Hummingbird.Router(context: ServerRequestContext.self)
        router.get("/") { _, _ in "" }
        router.get("/v1/urn/**") { _, _ in "" }
        router.get("/v1/resolve") { _, _ in "" }
        router.post("/v1/resolve") { _, _ in "" }
        allowed.record(router.routes, everywhere: [])
        #expect(allowed.methods(for: "/") == [.get, .head])
        #expect(allowed.methods(for: "/v1/urn/pass:x") == [.get, .head])
        #expect(allowed.methods(for: "/v1/urn/a/b/c") == [.get, .head])
        #expect(allowed.methods(for: "/v1/urn") == [])
        #expect(allowed.methods(for: "/v1/urn/") == [])
        #expect(Set(allowed.methods(for: "/v1/resolve")) == [.get, .head, .post])
        #expect(allowed.methods(for: "/v1/resolve/more") == [])
        #expect(allowed.methods(for: "/v1") == [])
    }
}

extension OpenAPITests {
    /// The history window's parameters say exactly what the server accepts: the same pattern.
    @Test func historyWindowPatternIsTheServers() throws {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.source)) as? [String: Any]
        let parameters = (document?["components"] as? [String: Any])?["parameters"] as? [String: Any]
        for name in ["Since", "Until"] {
            let schema = (parameters?[name] as? [String: Any])?["schema"] as? [String: Any]
            #expect(schema?["pattern"] as? String == HistoryWindow.pattern, "\(name)")
        }
    }
}
