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

    /// Route fallback's end-to-end set-up: WSDOT's API answering 500 on one loopback server,
    /// its pass pages answering on another, and a config routing `pass` to
    /// `["wsdot-api", "wsdot-page"]` (the API with `accessCode` written literally); `extra`
    /// adds top-level members. The caller stops both servers and removes the folder.
    package static func apiFailingBeforePages(accessCode: String, apiTTL: String, pageTTL: String, extra: String = "") throws
        -> (api: LoopbackServer, pages: LoopbackServer, dir: URL)
    {
        let api = LoopbackServer()
        api.route("/api/GetMountainPassConditionsAsJson", .text("internal error", status: 500))
        try api.start()
        let pages = LoopbackServer()
        try servePassPages(on: pages)
        try pages.start()
        let dir = try config(
            sources: #""wsdot-api": {"module": "WSDOT", "ttl": "\#(apiTTL)", "options": {"mode": "api", "baseURL": "\#(api.url("/api").absoluteString)", "accessCode": "\#(accessCode)"}}, "#
                + #""wsdot-page": {"module": "WSDOT", "ttl": "\#(pageTTL)", "options": {"baseURL": "\#(pages.url("/passes").absoluteString)"}}"#,
            routes: #""pass": ["wsdot-api", "wsdot-page"], "moon": "astronomy""#, extra: extra)
        return (api, pages, dir)
    }

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
