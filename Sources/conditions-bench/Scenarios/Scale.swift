import Foundation

/// Scenario 5: a 1,000-URN report from fixtures (1,000 distinct recorded passes, since a URN
/// asked twice resolves once). Peak RSS under 64 MiB; time growing linearly: the cost of each
/// URN from 100 to 1,000 stays within 1.5× of the cost of each from 1 to 100.
enum Scale {
    static let memoryTargetMiB = 64.0
    static let marginalSlack = 1.5

    static func run(_ bench: Bench) async throws -> [Figure] {
        let folder = try bench.workspace.folder("scale/Fixtures/pass")
        let names = (1...1000).map { String(format: "p%04d", $0) }
        for (index, name) in names.enumerated() {
            let pass = Upstreams.passes[index % Upstreams.passes.count]
            let record = """
            {"urn":"pass:\(name)","route":"pass:{name}","source":"wsdot","fetchedAt":"2026-11-21T14:05:00Z","data":{"id":"\(pass.slug)",\
            "name":"\(pass.name)","status":"restricted","conditions":"Snow and ice on the roadway. Chains required on vehicles over 10,000 GVW.",\
            "weather":"Snowing","temperatureF":\(20 + index % 15),"elevationFt":\(pass.elevation),"restrictions":[\
            {"direction":"Eastbound","text":"Traction Tires Required, Chains Required On Vehicles Over 10,000 GVW","status":"restricted"},\
            {"direction":"Westbound","text":"Traction tires advised, oversize vehicles prohibited.","status":"restricted"}],\
            "updated":"2026-11-21T13:\(String(format: "%02d", index % 60)):00Z","url":"https://wsdot.com/travel/real-time/mountain-passes/\(pass.slug)","travelAdvisory":null}}
            """
            try record.write(to: folder.appendingPathComponent(name + ".json"), atomically: false, encoding: .utf8)
        }
        let config = try bench.workspace.config("scale", sources: #""fixtures": {"module": "Fixtures", "options": {"directory": "Fixtures"}}"#,
                                                routes: #""pass": "fixtures""#)
        let sizes = [1, 100, 1000]
        func arguments(_ count: Int) -> [String] { ["--config", config, "--quiet"] + names.prefix(count).map { "pass:\($0)" } }
        for size in sizes { try await bench.conditions(arguments(size)) }
        var runs: [Int: [ChildRun]] = [:]
        for _ in 0..<bench.runs(7) {
            for size in sizes { runs[size, default: []].append(try await bench.conditions(arguments(size))) }
        }
        let time = sizes.reduce(into: [Int: Samples]()) { $0[$1] = Samples(runs[$1, default: []].map(\.wall)) }
        let t1 = time[1]?.median ?? 0, t100 = time[100]?.median ?? 0, t1000 = time[1000]?.median ?? 0
        let early = (t100 - t1) / 99, late = (t1000 - t100) / 900
        let ratio = t100 / t1000
        return [
            .time(5, "1 URN (fixtures)", time[1] ?? Samples([])),
            .time(5, "100 URNs", time[100] ?? Samples([])),
            .time(5, "1,000 URNs", time[1000] ?? Samples([])),
            .plain(5, "time(100) / time(1,000)", value: ratio, unit: "ratio", text: String(format: "%.3f", ratio),
                   target: "≥ 0.100 (linear or better)", passed: ratio >= 0.1),
            .plain(5, "per-URN cost, 100→1,000 vs 1→100", value: late * 1e6, unit: "µs",
                   text: String(format: "%.0f µs vs %.0f µs", late * 1e6, early * 1e6),
                   target: String(format: "≤ %.1f× (linear)", marginalSlack), passed: late <= marginalSlack * max(early, 0)),
            .memory(5, "peak RSS, 1,000 URNs", Samples(runs[1000, default: []].map { Double($0.peakRSS) }), limitMiB: memoryTargetMiB),
        ]
    }
}
