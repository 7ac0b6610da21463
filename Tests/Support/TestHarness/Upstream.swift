import Foundation
import LoopbackServer

/// Realistic upstream data from the modules' own test resources and the shared references,
/// served from a loopback server by the end-to-end tests.
package enum Upstream {
    package static let root = CLI.packageRoot

    package static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    package static let passSlugs = ["snoqualmie", "stevens", "white", "blewett", "chinook", "cayuse", "crystal-greenwater", "mt-baker",
                            "north-cascade", "satus", "sherman", "manastash", "loup-loup", "disautel", "wauconda", "tiger-mountain"]
    /// The page path segment of each pass on wsdot.com, where it differs from our slug.
    package static let siteSlugs = ["crystal-greenwater": "crystal-to-greenwater", "mt-baker": "mt.-baker", "north-cascade": "north-cascade-hwy"]

    /// Serves a WSDOT-style page for every pass under `/passes/{site slug}` (the winter
    /// Snoqualmie page for all but Blewett, which gets its north/south summer page).
    package static func servePassPages(on server: LoopbackServer) throws {
        let winter = try text("Plugins/WSDOT/Tests/Resources/snoqualmie-winter.html")
        let blewett = try text("Plugins/WSDOT/Tests/Resources/blewett-summer.html")
        for slug in passSlugs {
            server.route("/passes/\(siteSlugs[slug] ?? slug)", .text(slug == "blewett" ? blewett : winter, contentType: "text/html; charset=utf-8"))
        }
    }

    /// Writes a config for `sources` (JSON members of "sources") and `routes` into a new folder.
    package static func config(sources: String, routes: String, extra: String = "") throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try """
        {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
         "sources": {\(sources), "astronomy": {"module": "Astronomy"}},
         "routes": {\(routes)}\(extra)}
        """.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        return dir
    }

    package static func json(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }
}
