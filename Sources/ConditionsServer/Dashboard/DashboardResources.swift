import Crypto
import Foundation
import Mustache
import NIOCore

/// The dashboard's templates, stylesheet and script: files in `Dashboard/Resources`, compiled
/// into the binary by SwiftPM (`.embedInCode`, the generated `PackageResources`), so the
/// program needs nothing beside it wherever it is installed or moved.
struct DashboardResources: Sendable {
    /// A stylesheet or script as served: bytes, content type and a version for its URL.
    struct Asset: Sendable {
        /// The body, shared by every answer (copy-on-write).
        let body: ByteBuffer
        let contentType: String
        /// The first 64 bits of the body's SHA-256 in hex: `?v=` in the page's links, so the
        /// asset can be cached for a year and a new build is fetched at once.
        let version: String
        /// The strong ETag of the body.
        let etag: String
    }

    let templates: MustacheLibrary
    let stylesheet: Asset
    let script: Asset

    /// The templates by name, as the page's partials refer to them.
    static let templateFiles: [(name: String, bytes: [UInt8])] = [
        ("page", PackageResources.page_mustache), ("card", PackageResources.card_mustache),
        ("part", PackageResources.part_mustache),
        ("drawing", PackageResources.drawing_mustache),
        ("history", PackageResources.history_mustache),
        ("map", PackageResources.map_mustache), ("error", PackageResources.error_mustache),
    ]

    /// Parses every template; an error (a template that is not valid Mustache) names it.
    static func load() throws(BrokenTemplate) -> DashboardResources {
        var library = MustacheLibrary()
        for (name, bytes) in templateFiles {
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                // Trailing newlines of a partial would end up between elements; harmless but noise.
                try library.register(text.trimmingCharacters(in: .newlines), named: name)
            } catch {
                throw BrokenTemplate(message: "dashboard template \(name).mustache is not valid: \(error)")
            }
        }
        return DashboardResources(
            templates: library,
            stylesheet: asset(PackageResources.dashboard_css, contentType: "text/css; charset=utf-8"),
            script: asset(PackageResources.dashboard_js, contentType: "text/javascript; charset=utf-8"))
    }

    static func asset(_ bytes: [UInt8], contentType: String) -> Asset {
        let digest = SHA256.hash(data: bytes)
        let version = digest.prefix(8).map { String(format: "%02x", $0) }.joined()
        return Asset(body: ByteBuffer(bytes: bytes), contentType: contentType, version: version, etag: HTTPCaching.etag(bytes))
    }

    /// A template could not be parsed (a build with a broken template; the API still works).
    struct BrokenTemplate: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
