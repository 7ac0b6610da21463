import ConditionsKit
import ConditionsKitTesting
import Foundation
import TestHarness
import Testing

/// `night:` through the built binary (issue 34), checked against an independent computation:
/// PyEphem (scripts/peers/night-ephem.py, in .build/ephem-venv) finds the same night's
/// astronomical darkness and Moon-down stretches by its own theories, and the test intersects
/// them with the same recorded sky hours `conditions` read. Every window must agree to 90 s.
@Suite struct NightCLITests {
    static let python = CLI.packageRoot.appendingPathComponent(".build/ephem-venv/bin/python")
    static let peer = CLI.packageRoot.appendingPathComponent("scripts/peers/night-ephem.py")

    /// Hourly sky cover over the night of 2026-11-26 at Stevens Pass from 00:00Z, recorded as a
    /// `sky:` result (`Fixtures/sky/stevens.json` in the test's folder): clear evening, a
    /// cloudy spell, clear after midnight, an hour unknown, then clear again.
    static let covers: [Double?] = [5, 5, 10, 20, 30, 40, 85, 90, 100, 60, 20, 10, 0, nil, 0, 5, 10, 20, 25, 70, 90, 95, 100, 100]
    static let firstHour = "2026-11-27T00:00:00Z"

    static func setUp() throws -> URL {
        let dir = try Upstream.config(sources: #""fixtures": {"module": "Fixtures", "options": {"directory": "Fixtures"}}"#,
                                      routes: #""night": "astronomy", "sky": "fixtures""#,
                                      extra: #", "places": {\#(Place.stevensConfig)}"#)
        let formatter = ISO8601DateFormatter()
        let first = formatter.date(from: firstHour)!
        let hours = covers.enumerated().map { index, cover in
            #"{"time": "\#(formatter.string(from: first.addingTimeInterval(Double(index) * 3_600)))", "skyCover": \#(cover.map { "\($0)" } ?? "null")}"#
        }
        let folder = dir.appendingPathComponent("Fixtures/sky")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"urn": "sky:stevens", "kind": "sky", "fetchedAt": "2026-11-26T18:00:00Z", "data": {"hours": [\#(hours.joined(separator: ", "))]}}"#
            .write(to: folder.appendingPathComponent("stevens.json"), atomically: true, encoding: .utf8)
        return dir
    }

    typealias Span = (start: Date, end: Date)

    static func spans(_ value: Any?) -> [Span] {
        let formatter = ISO8601DateFormatter()
        return (value as? [Any] ?? []).compactMap { item in
            if let pair = item as? [String], pair.count == 2, let start = formatter.date(from: pair[0]), let end = formatter.date(from: pair[1]) { return (start, end) }
            if let object = item as? [String: Any], let start = (object["start"] as? String).flatMap(formatter.date(from:)),
               let end = (object["end"] as? String).flatMap(formatter.date(from:)) { return (start, end) }
            return nil
        }
    }

    static func intersection(_ a: [Span], _ b: [Span]) -> [Span] {
        var result: [Span] = []
        for x in a {
            for y in b {
                let start = max(x.start, y.start), end = min(x.end, y.end)
                if start < end { result.append((start, end)) }
            }
        }
        return result.sorted { $0.start < $1.start }
    }

    @Test func windowsAgreeWithPyEphem() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            Issue.record("No PyEphem at .build/ephem-venv: run scripts/dev test (it creates it)")
            return
        }
        let dir = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--no-cache", "--format", "json", "night:stevens:2026-11-26"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let record = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])?.first)
        let data = try #require(record["data"] as? [String: Any])
        let windows = Self.spans(data["windows"])

        // The night from local noon to local noon (PST = UTC−8).
        let peer = try await CLI.runProgram(Self.python, [Self.peer.path, "\(Place.stevens.latitude)", "\(Place.stevens.longitude)", "2026-11-26T20:00:00Z", "2026-11-27T20:00:00Z"],
                                            in: dir, environment: [:], timeout: 120)
        #expect(peer.status == 0, "\(peer.stderr)")
        let independent = try #require(try JSONSerialization.jsonObject(with: Data(peer.stdout.utf8)) as? [String: Any])
        let first = ISO8601DateFormatter().date(from: Self.firstHour)!
        let clear: [Span] = Self.covers.enumerated().compactMap { index, cover in
            guard let cover, cover <= 30 else { return nil }
            let start = first.addingTimeInterval(Double(index) * 3_600)
            return (start, start.addingTimeInterval(3_600))
        }
        var expected = Self.intersection(Self.intersection(Self.spans(independent["dark"]), Self.spans(independent["moonDown"])), clear)
        // Adjacent clear hours make one window.
        expected = expected.reduce(into: [Span]()) { merged, span in
            if let last = merged.last, last.end >= span.start { merged[merged.count - 1].end = max(last.end, span.end) } else { merged.append(span) }
        }
        #expect(!expected.isEmpty, "the recorded hours leave at least one window")
        #expect(windows.count == expected.count, "conditions: \(windows), PyEphem: \(expected)")
        for (ours, theirs) in zip(windows, expected) {
            #expect(abs(ours.start.timeIntervalSince(theirs.start)) <= 90, "window start \(ours.start) vs \(theirs.start)")
            #expect(abs(ours.end.timeIntervalSince(theirs.end)) <= 90, "window end \(ours.end) vs \(theirs.end)")
        }
        // And the astronomical night itself, to 30 s.
        let dark = Self.spans(data["dark"]), theirDark = Self.spans(independent["dark"])
        #expect(dark.count == theirDark.count)
        for (ours, theirs) in zip(dark, theirDark) {
            #expect(abs(ours.start.timeIntervalSince(theirs.start)) <= 30 && abs(ours.end.timeIntervalSince(theirs.end)) <= 30)
        }
    }

    /// `night:mt-baker:2026-06-20` through the shipped config: no astronomical darkness, said.
    @Test func mtBakerAtMidsummerThroughTheShippedConfig() async throws {
        let config = CLI.packageRoot.appendingPathComponent("sources.json").path
        let run = try await CLI.run(["--config", config, "--profile", "offline", "--no-cache", "night:mt-baker:2026-06-20"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.first?.hasPrefix("night:mt-baker:2026-06-20  Mt. Baker Highway, night of 2026-06-20: ") == true, "\(run.stdout)")
        #expect(run.stdout.contains("no astronomical darkness this night: the Sun stays above −18°; windows are of nautical darkness (Sun below −12°)"), "\(run.stdout)")
    }
}
