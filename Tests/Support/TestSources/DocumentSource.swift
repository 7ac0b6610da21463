import ConditionsJSON
import ConditionsKit
import Foundation

/// A test-only module whose every URN reads one upstream document, as WSDOT's feed answers
/// every pass, but with no memory of its own: what the host shares between URNs is all there
/// is. `doc:{name}` answers `{"name", "bytes"}` from a GET of the `url` option (with
/// `Authorization: Bearer <token>` when the `token` option is set); a non-2xx answer fails
/// upstream.
public struct DocumentSource: ConditionsSource {
    public static let moduleName = "Document"
    public static let summary = "Reads one upstream document for every URN (tests only)"
    /// A minute, unless the config says otherwise.
    public static let defaultTTL: Double = 60
    public static let secretOptions: Set<String> = ["token"]
    public let routes: [RoutePattern] = ["doc:{name}"]
    public static let exampleURNs = ["doc:one"]
    let url: URL
    let token: String?

    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        guard let text = try options.string("url"), let url = URL(string: text) else {
            throw ConditionsError(.configuration, "\(configuration.instance): \"url\" is required")
        }
        self.url = url
        token = try options.string("token")
        try options.finish()
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let name = try location.argument("name")
        let response = try await context.http.get(url, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        try response.requireSuccess()
        return SourceResult(data: ["name": .string(name), "bytes": .int(response.body.count)])
    }
}
