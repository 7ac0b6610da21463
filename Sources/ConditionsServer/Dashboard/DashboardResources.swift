import Crypto
import Foundation
import Mustache
import NIOCore

/// The dashboard's templates, stylesheet and script: package resources of this target
/// (`Dashboard/Resources`), read once when the server starts.
///
/// SwiftPM puts them in `Conditions_ConditionsServer.resources` beside the executable. They
/// are looked for there (and under `$CONDITIONS_DASHBOARD_RESOURCES` when set) rather than
/// through the generated `Bundle.module`, which stops the process when its folder is missing:
/// a binary copied without its resources still serves the API, and `/` says what is missing.
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

    /// The folder's name in the build products.
    static let bundleName = "Conditions_ConditionsServer.resources"

    /// Reads every template and asset; an error names the file or folder missing.
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DashboardResources {
        let folder = try locate(environment: environment)
        var library = MustacheLibrary()
        let templateFolder = folder.appendingPathComponent("templates")
        for name in ["page", "card", "part", "moon", "map", "error"] {
            let file = templateFolder.appendingPathComponent(name + ".mustache")
            let text: String
            do { text = try String(contentsOf: file, encoding: .utf8) } catch {
                throw MissingResource(message: "dashboard template \(file.path) cannot be read: \(error.localizedDescription)")
            }
            // Trailing newlines of a partial would end up between elements; harmless but noise.
            try library.register(text.trimmingCharacters(in: .newlines), named: name)
        }
        let assets = folder.appendingPathComponent("assets")
        return DashboardResources(
            templates: library,
            stylesheet: try asset(assets.appendingPathComponent("dashboard.css"), contentType: "text/css; charset=utf-8"),
            script: try asset(assets.appendingPathComponent("dashboard.js"), contentType: "text/javascript; charset=utf-8"))
    }

    static func locate(environment: [String: String]) throws -> URL {
        var candidates: [URL] = []
        if let override = environment["CONDITIONS_DASHBOARD_RESOURCES"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(executable.appendingPathComponent(bundleName))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundleName))
        // `.copy("Dashboard/Resources")` keeps the folder's own name inside the bundle.
        for candidate in candidates {
            let nested = candidate.appendingPathComponent("Resources")
            if FileManager.default.fileExists(atPath: nested.appendingPathComponent("templates/page.mustache").path) { return nested }
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("templates/page.mustache").path) { return candidate }
        }
        throw MissingResource(message: "the dashboard's resources are not installed (looked in \(candidates.map(\.path).joined(separator: ", "))); "
            + "copy \(bundleName) beside the executable or set CONDITIONS_DASHBOARD_RESOURCES")
    }

    static func asset(_ file: URL, contentType: String) throws -> Asset {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw MissingResource(message: "dashboard asset \(file.path) cannot be read")
        }
        let bytes = Array(data)
        let digest = SHA256.hash(data: bytes)
        let version = digest.prefix(8).map { String(format: "%02x", $0) }.joined()
        return Asset(body: ByteBuffer(bytes: bytes), contentType: contentType, version: version, etag: HTTPCaching.etag(bytes))
    }

    /// The resources folder is missing or incomplete.
    struct MissingResource: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
