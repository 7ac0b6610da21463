import Foundation
import LoopbackServer
import Synchronization

/// A loopback stand-in for Caltrans's CWWP2 portal, from the files in
/// `Plugins/Caltrans/Tests/Resources` (`real/` byte for byte, `derived/` made by the script
/// there; its SOURCES.md says which is which).
///
/// It serves `/d{N}/{cc,lcs,cctv}/{cc,lcs,cctv}StatusD{NN}.json` as the portal names them (the
/// folder not zero-padded, the file zero-padded; `ccStatusD3.json` is a 404 here, a 500 there):
/// - District 10: the real chain controls, lane closures and cameras;
/// - Districts 3 and 9: the derived storm-morning chain controls and lane closures, and the
///   real cameras.
/// `serve(_:district:_:)` replaces a file (a storm, a closure, a frozen or broken file);
/// `fail(district:_:status:)` answers a file with an HTTP error, as districts 4, 5 and 12 did.
package final class CaltransStandIn: Sendable {
    /// A district's file.
    package enum File: String, Sendable {
        case chainControls = "cc", laneClosures = "lcs", cameras = "cctv"
    }

    private enum Answer: Sendable {
        case body(Data)
        case status(Int)
    }

    /// The server; its `requests` show what the module sent.
    package let server = LoopbackServer()
    private let answers: Mutex<[String: Answer]>
    /// Bodies to answer the next requests of a path with, one each, before `answers`.
    private let queued = Mutex<[String: [Data]]>([:])

    /// The plugin's test resources, from this file's place in it (`Plugins/Caltrans/StandIn`).
    package static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Resources")

    /// A file under `Plugins/Caltrans/Tests/Resources`, as bytes.
    package static func resource(_ path: String) throws -> Data {
        try Data(contentsOf: resources.appendingPathComponent(path))
    }

    /// The path the portal serves district `district`'s `file` at.
    package static func path(_ file: File, district: Int) -> String {
        "/d\(district)/\(file.rawValue)/\(file.rawValue)StatusD\(district < 10 ? "0" : "")\(district).json"
    }

    /// What is served by default: each district's files, as resources.
    package static let defaults: [(file: File, district: Int, resource: String)] = [
        (.chainControls, 10, "real/caltrans_cc_d10_20260930.json"), (.laneClosures, 10, "real/caltrans_lcs_d10_20260930.json"),
        (.cameras, 10, "real/caltrans_cctv_d10_20261001.json"),
        (.chainControls, 3, "derived/caltrans_cc_d03_storm.json"), (.laneClosures, 3, "derived/caltrans_lcs_d03.json"),
        (.cameras, 3, "real/caltrans_cctv_d3_20261001.json"),
        (.chainControls, 9, "derived/caltrans_cc_d09_storm.json"), (.laneClosures, 9, "derived/caltrans_lcs_d09.json"),
        (.cameras, 9, "real/caltrans_cctv_d9_20261001.json"),
    ]

    /// A stopped stand-in serving the default files.
    package init() throws {
        var answers: [String: Answer] = [:]
        for (file, district, name) in Self.defaults {
            answers[Self.path(file, district: district)] = .body(try Self.resource(name))
        }
        self.answers = Mutex(answers)
        server.fallback { [unowned self] request in self.answer(request) }
    }

    deinit { server.stop() }

    /// Starts listening on 127.0.0.1.
    package func start() throws { try server.start() }

    /// Stops the server.
    package func stop() { server.stop() }

    /// What to write as the Caltrans instance's `baseURL`.
    package var baseURL: URL { server.baseURL }

    /// Serves the resource `name` (`derived/caltrans_cc_d10_storm.json`) as district
    /// `district`'s `file` from now on.
    package func serve(_ name: String, district: Int, _ file: File) throws {
        let body = try Self.resource(name)
        answers.withLock { $0[Self.path(file, district: district)] = .body(body) }
    }

    /// Serves `body` as district `district`'s `file` from now on.
    package func serve(body: Data, district: Int, _ file: File) {
        answers.withLock { $0[Self.path(file, district: district)] = .body(body) }
    }

    /// Answers district `district`'s `file` with HTTP `status` from now on.
    package func fail(district: Int, _ file: File, status: Int = 500) {
        answers.withLock { $0[Self.path(file, district: district)] = .status(status) }
    }

    /// Answers the next requests for district `district`'s `file` with the resources `names`,
    /// one each in order, then as before: a script for `watch`, whose polls each ask once.
    package func queue(_ names: [String], district: Int, _ file: File) throws {
        let bodies = try names.map(Self.resource)
        queued.withLock { $0[Self.path(file, district: district), default: []] += bodies }
    }

    /// How many requests district `district`'s `file` has had.
    package func requests(district: Int, _ file: File) -> Int {
        server.requestCount(Self.path(file, district: district))
    }

    private func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
        let next = queued.withLock { queue -> Data? in
            guard var bodies = queue[request.path], !bodies.isEmpty else { return nil }
            let body = bodies.removeFirst()
            queue[request.path] = bodies
            return body
        }
        if let next { return LoopbackServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: next) }
        switch answers.withLock({ $0[request.path] }) {
        case .body(let body)?:
            return LoopbackServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: body)
        case .status(let status)?:
            return .text("<html><body><h1>\(status)</h1></body></html>", status: status, contentType: "text/html")
        case nil:
            return .text("not found", status: 404)
        }
    }
}
