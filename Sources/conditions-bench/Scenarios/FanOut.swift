import Foundation
import LoopbackServer

/// Scenario 2: `pass:all` in HTML mode (15 pages) plus `moon:now phases:5` against a server
/// answering each request after the latency. With six connections per host the pages take
/// ceil(15/6) rounds; target: within 1.15× of that, over at most six connections in all
/// (keep-alive across rounds). A second host's requests must not queue behind the first's.
enum FanOut {
    static let pages = 15
    static let perHost = 6
    static let slack = 1.15

    static func run(_ bench: Bench) async throws -> [Figure] {
        let pageServer = LoopbackServer()
        Upstreams.servePages(on: pageServer, delay: bench.latency)
        let aerisServer = LoopbackServer()
        Upstreams.serveAeris(on: aerisServer, delay: bench.latency)
        do {
            try pageServer.start()
            try aerisServer.start()
        } catch {
            throw Bench.Failed(description: "loopback server: \(error)")
        }
        defer {
            pageServer.stop()
            aerisServer.stop()
        }

        let rounds = (pages + perHost - 1) / perHost
        let bound = slack * Double(rounds) * bench.latency
        let boundText = String(format: "≤ %@ ms (1.15 × %d × %@ ms)", Figure.ms(bound), rounds, Figure.ms(bench.latency))
        let wsdot = #""wsdot": {"module": "WSDOT", "options": {"mode": "html", "baseURL": "\#(pageServer.url("/passes").absoluteString)", \#(Upstreams.passesOption)}}"#

        // One host for the pages, the moon computed locally.
        let local = try bench.workspace.config("fanout", sources: wsdot, routes: #""pass": "wsdot", "moon": "astronomy", "phases": "astronomy""#)
        let arguments = ["--config", local, "--no-cache", "pass:all", "moon:now", "phases:5"]
        try await bench.conditions(arguments)
        var walls: [Double] = [], connections: [Int] = [], concurrent: [Int] = []
        for _ in 0..<bench.runs(5) {
            pageServer.resetStats()
            let run = try await bench.conditions(arguments)
            let stats = pageServer.stats
            guard stats.totalRequests == pages else {
                throw Bench.Failed(description: "pass:all made \(stats.totalRequests) page requests, expected \(pages)")
            }
            walls.append(run.wall)
            connections.append(stats.connectionsAccepted)
            concurrent.append(stats.maxConcurrentConnections)
        }
        let wall = Samples(walls)
        let opened = connections.max() ?? 0

        // The moon from a second host (Aeris on "localhost"), also slow: its two requests run
        // beside the pages, so the report still takes the pages' rounds, not one more.
        let aeris = #""aeris": {"module": "Aeris", "options": {"clientId": "${AERIS_CLIENT_ID}", "clientSecret": "${AERIS_CLIENT_SECRET}", "baseURL": "\#(aerisServer.url("/aeris", host: "localhost").absoluteString)"}}"#
        let twoHosts = try bench.workspace.config("twohosts", sources: wsdot + ", " + aeris, routes: #""pass": "wsdot", "moon": "aeris", "phases": "aeris""#)
        let twoHostArguments = ["--config", twoHosts, "--no-cache", "pass:all", "moon:now", "phases:5"]
        try await bench.conditions(twoHostArguments)
        var twoHostWalls: [Double] = []
        for _ in 0..<bench.runs(5) {
            aerisServer.resetStats()
            let run = try await bench.conditions(twoHostArguments)
            guard aerisServer.stats.totalRequests == 2 else {
                throw Bench.Failed(description: "the moon made \(aerisServer.stats.totalRequests) Aeris requests, expected 2")
            }
            twoHostWalls.append(run.wall)
        }
        let twoHost = Samples(twoHostWalls)

        return [
            .time(2, "pass:all (HTML, 15 pages) + moon:now phases:5", wall, target: boundText, passed: wall.median <= bound),
            .plain(2, "connections opened per report", value: Double(opened), unit: "connections",
                   text: "\(opened) (at most \(concurrent.max() ?? 0) at once)", target: "≤ \(perHost)", passed: opened <= perHost),
            .plain(2, "a sequential client would take", value: Double(pages) * bench.latency * 1000, unit: "ms",
                   text: "\(Figure.ms(Double(pages) * bench.latency)) ms (15 × \(Figure.ms(bench.latency)) ms)"),
            .time(2, "same, moon from Aeris on a 2nd host", twoHost,
                  target: String(format: "≤ %@ ms (not + %@ ms)", Figure.ms(bound), Figure.ms(bench.latency)), passed: twoHost.median <= bound),
        ]
    }
}
