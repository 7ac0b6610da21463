import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
@testable import Caltrans

/// A file under Tests/Resources (`real/…` byte for byte from CWWP2, `derived/…` made by
/// `derived/make-derived.py`; provenance in SOURCES.md there).
func fixture(_ name: String) throws -> Data {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
    return try Data(contentsOf: folder.appendingPathComponent(name))
}

/// The files the tests serve.
enum Body {
    static let chainControls10 = "real/caltrans_cc_d10_20260930.json"
    static let laneClosures10 = "real/caltrans_lcs_d10_20260930.json"
    static let cameras10 = "real/caltrans_cctv_d10_20261001.json"
    static let cameras3 = "real/caltrans_cctv_d3_20261001.json"
    static let cameras9 = "real/caltrans_cctv_d9_20261001.json"
    static let storm10 = "derived/caltrans_cc_d10_storm.json"
    static let monitorClosed10 = "derived/caltrans_cc_d10_monitor_closed.json"
    static let unreadable10 = "derived/caltrans_cc_d10_unreadable.json"
    static let notUTF8 = "derived/caltrans_cc_d10_not_utf8.json"
    static let ebbettsClosed10 = "derived/caltrans_lcs_d10_ebbetts_closed.json"
    static let storm3 = "derived/caltrans_cc_d03_storm.json"
    static let storm9 = "derived/caltrans_cc_d09_storm.json"
    static let laneClosures3 = "derived/caltrans_lcs_d03.json"
    static let laneClosures9 = "derived/caltrans_lcs_d09.json"
}

/// The portal's paths: the folder not zero-padded, the file zero-padded.
enum Path {
    static func of(_ file: String, _ district: Int) -> String {
        "/d\(district)/\(file)/\(file)StatusD\(district < 10 ? "0" : "")\(district).json"
    }
    static func cc(_ district: Int) -> String { of("cc", district) }
    static func lcs(_ district: Int) -> String { of("lcs", district) }
    static func cctv(_ district: Int) -> String { of("cctv", district) }
}

/// Pacific times the tests read at.
enum When {
    /// Three minutes after the real District 10 file was written (2026-09-29 20:57:03 PDT).
    static let afterCapture = Date(timeIntervalSince1970: 1_790_740_800)
    /// 09:00 PDT on 2026-09-29: the full closure of SR-4 near Ebbetts set up, not yet picked up.
    static let closureMorning = Date(timeIntervalSince1970: 1_790_697_600)
    /// 08:40 PST on 2025-12-24, ten minutes after the storm files were written.
    static let stormMorning = Date(timeIntervalSince1970: 1_766_594_400)
}

/// Every district's files as the stand-in serves them by default, with `changes` on top.
func portal(_ changes: [String: RecordingHTTPClient.Reply] = [:]) throws -> RecordingHTTPClient {
    var replies: [String: RecordingHTTPClient.Reply] = [
        Path.cc(10): .json(String(decoding: try fixture(Body.chainControls10), as: UTF8.self)),
        Path.lcs(10): .json(String(decoding: try fixture(Body.laneClosures10), as: UTF8.self)),
        Path.cctv(10): .json(String(decoding: try fixture(Body.cameras10), as: UTF8.self)),
        Path.cc(3): .json(String(decoding: try fixture(Body.storm3), as: UTF8.self)),
        Path.lcs(3): .json(String(decoding: try fixture(Body.laneClosures3), as: UTF8.self)),
        Path.cctv(3): .json(String(decoding: try fixture(Body.cameras3), as: UTF8.self)),
        Path.cc(9): .json(String(decoding: try fixture(Body.storm9), as: UTF8.self)),
        Path.lcs(9): .json(String(decoding: try fixture(Body.laneClosures9), as: UTF8.self)),
        Path.cctv(9): .json(String(decoding: try fixture(Body.cameras9), as: UTF8.self)),
    ]
    for (path, reply) in changes { replies[path] = reply }
    return RecordingHTTPClient(replies)
}

/// A reply of a fixture's bytes as they are (not UTF-8 included).
func file(_ name: String) throws -> RecordingHTTPClient.Reply {
    .body(try fixture(name), contentType: "application/json")
}

func makeSource(_ options: String = #"{"baseURL": "https://cwwp2.example"}"#) throws -> CaltransSource {
    try CaltransSource(configuration: .testing(json: options))
}

func context(_ http: any HTTPClient, now: Date = When.afterCapture, maxAge: Double = 0) -> SourceContext {
    SourceContextBuilder(now: now, http: http, maxAge: maxAge).build()
}

extension JSONValue {
    /// `restrictions` as (direction, status, level) triples.
    var directions: [String] {
        (self["restrictions"]?.arrayValue ?? []).map {
            "\($0["direction"]?.stringValue ?? "?") \($0["status"]?.stringValue ?? "?") \($0["level"]?.stringValue ?? "-")"
        }
    }
}
