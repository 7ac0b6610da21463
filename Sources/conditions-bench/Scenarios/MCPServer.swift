import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Scenario 10: `conditions mcp` as an assistant uses it (issue 17). After `initialize` and
/// five warm-up calls, 300 `resolve` calls of three local URNs (a recorded pass, the moon,
/// moon phases), one at a time: the median round trip ≤ 5 ms; the idle resident set after
/// start-up and after the burst < 32 MiB.
///
/// A round trip is timed from writing the request line to reading the whole reply line, with
/// blocking pipe I/O on a thread of its own (as `scripts/mcp-latency.py` does), so it is the
/// server's time plus two pipe hops (~0.1 ms). RSS is `VmRSS` from `/proc/PID/status`, read
/// after `settle` seconds with no request in flight: the server is idle then, and reading at
/// once would catch a reply still being written. (A documented interval, in a benchmark, not a
/// way to wait for something.)
enum MCPServer {
    static let latencyTargetMs = 5.0
    static let memoryTargetMiB = 32.0
    static let burst = 300
    static let warmUp = 5
    static let settle = 1.0
    static let urns = ["pass:snoqualmie", "moon:now", "phases:5"]

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ bench: Bench) async throws -> [Figure] {
        let server = bench.binary
        let config = try configuration(bench)
        let measured = try await session(server, config: config, environment: bench.workspace.environment,
                                         stderrPath: bench.workspace.file("mcp-stderr.txt"))
        let times = Samples(measured.roundTrips)
        let median = times.median * 1000, p99 = times.quantile(0.99) * 1000
        return [
            .plain(10, "resolve, 3 local URNs, server time", value: median, unit: "ms",
                   text: String(format: "%.2f ms median, p90 %.2f, p99 %.2f, max %.1f (n=%d)", median, times.quantile(0.9) * 1000, p99,
                                times.max * 1000, times.values.count),
                   target: String(format: "≤ %.0f ms (median)", latencyTargetMs), passed: median <= latencyTargetMs, samples: times),
            memory("idle RSS after start-up", kilobytes: measured.startedKiB),
            memory("idle RSS after \(burst) calls", kilobytes: measured.afterBurstKiB),
            .plain(10, "libraries mapped after the burst", value: Double(measured.libraries.count), unit: "libraries",
                   text: "\(measured.libraries.count); libcurl \(measured.libraries.contains { $0.hasPrefix("libcurl") } ? "loaded" : "not loaded")"),
        ]
    }

    static func memory(_ name: String, kilobytes: Int) -> Figure {
        let mebibytes = Double(kilobytes) / 1024
        return .plain(10, name, value: mebibytes, unit: "MiB", text: String(format: "%.1f MiB", mebibytes),
                      target: String(format: "< %.0f MiB", memoryTargetMiB), passed: mebibytes < memoryTargetMiB)
    }

    /// Passes from a recorded fixture, the moon and its phases computed: no network.
    static func configuration(_ bench: Bench) throws -> String {
        let folder = try bench.workspace.folder("mcp/Fixtures/pass")
        let record = """
        {"urn":"pass:snoqualmie","route":"pass:{name}","source":"wsdot","fetchedAt":"2026-11-21T14:05:00Z","data":{"id":"snoqualmie",\
        "name":"Snoqualmie Pass I-90","status":"restricted","conditions":"Compact snow and ice on the roadway. Use caution.",\
        "weather":"Light snow","temperatureF":29,"elevationFt":3022,"restrictions":[\
        {"direction":"Eastbound","text":"Traction tires advised, oversize vehicles prohibited.","status":"restricted"},\
        {"direction":"Westbound","text":"Traction tires advised, oversize vehicles prohibited.","status":"restricted"}],\
        "updated":"2026-11-21T13:42:00Z","url":"https://wsdot.com/travel/real-time/mountain-passes/snoqualmie","travelAdvisory":null}}
        """
        try record.write(to: folder.appendingPathComponent("snoqualmie.json"), atomically: false, encoding: .utf8)
        return try bench.workspace.config("mcp", sources: #""fixtures": {"module": "Fixtures", "options": {"directory": "Fixtures"}}"#,
                                          routes: #""pass": "fixtures", "moon": "astronomy", "phases": "astronomy""#)
    }

    struct Measurements: Sendable {
        var roundTrips: [Double] = []
        var startedKiB = 0
        var afterBurstKiB = 0
        var libraries: [String] = []
    }

    /// Starts the server on two pipes, drives it from a thread of its own, and closes its
    /// input at the end (the server then exits).
    static func session(_ server: String, config: String, environment: [String: String], stderrPath: String) async throws -> Measurements {
        var request = [Int32](repeating: -1, count: 2), reply = [Int32](repeating: -1, count: 2)
        guard pipe(&request) == 0 else { throw Failed(description: "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&reply) == 0 else {
            close(request[0]); close(request[1])
            throw Failed(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Subprocess passes the child only its 0, 1 and 2; close-on-exec covers any other spawn.
        for descriptor in request + reply { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let toServer = request[1], fromServer = reply[0]
        let errors: FileDescriptor
        do {
            errors = try FileDescriptor.open(FilePath(stderrPath), .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: [.ownerReadWrite])
        } catch {
            for descriptor in request + reply { close(descriptor) }
            throw Failed(description: "cannot open \(stderrPath): \(error)")
        }
        let variables = Dictionary(uniqueKeysWithValues: environment.compactMap { name, value in
            Environment.Key(rawValue: name).map { ($0, value) }
        })
        let result = try await Subprocess.run(
            .path(FilePath(server)), arguments: Arguments(["mcp", "--config", config]), environment: .custom(variables),
            input: .fileDescriptor(FileDescriptor(rawValue: request[0]), closeAfterSpawningProcess: true),
            output: .fileDescriptor(FileDescriptor(rawValue: reply[1]), closeAfterSpawningProcess: true),
            error: .fileDescriptor(errors, closeAfterSpawningProcess: true)
        ) { execution -> Result<Measurements, Failed> in
            let pid = execution.processIdentifier.value
            // Blocking reads and writes, off the cooperative pool.
            let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Measurements, Failed>, Never>) in
                let thread = Thread {
                    let outcome = Result { () throws(Failed) -> Measurements in try drive(pid: pid, input: toServer, output: fromServer) }
                    close(toServer)
                    continuation.resume(returning: outcome)
                }
                thread.name = "bench-mcp-client"
                thread.start()
            }
            return outcome
        }
        close(fromServer)
        let outcome = try result.closureResult.get()
        guard result.terminationStatus == .exited(0) else {
            let detail = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            throw Failed(description: "conditions mcp ended with \(result.terminationStatus): \(detail.prefix(300))")
        }
        return outcome
    }

    /// The exchange itself, on the client thread.
    static func drive(pid: pid_t, input: Int32, output: Int32) throws(Failed) -> Measurements {
        let reader = LineReader(descriptor: output)
        var measurements = Measurements()
        func call(_ line: String) throws(Failed) -> [String: Any] {
            try send(line, to: input)
            guard let answer = try reader.line() else { throw Failed(description: "conditions mcp closed its output") }
            guard let object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any] else {
                throw Failed(description: "not a JSON-RPC reply: \(String(decoding: answer.prefix(200), as: UTF8.self))")
            }
            return object
        }
        let initialize = try call(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"conditions-bench","version":"1"}}}"#)
        guard initialize["result"] != nil else { throw Failed(description: "initialize failed: \(initialize)") }
        try send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, to: input)
        Thread.sleep(forTimeInterval: settle)
        measurements.startedKiB = residentKiB(pid)

        let list = urns.map { "\"\($0)\"" }.joined(separator: ",")
        for number in 1...(warmUp + burst) {
            let line = #"{"jsonrpc":"2.0","id":\#(number),"method":"tools/call","params":{"name":"resolve","arguments":{"urns":[\#(list)]}}}"#
            let started = Clock.now()
            let answer = try call(line)
            let elapsed = Clock.now() - started
            let results = ((answer["result"] as? [String: Any])?["structuredContent"] as? [String: Any])?["results"] as? [[String: Any]]
            guard let results, results.count == urns.count, results.allSatisfy({ $0["data"] != nil }) else {
                throw Failed(description: "resolve \(number) did not answer the three URNs: \(String(describing: answer).prefix(300))")
            }
            if number > warmUp { measurements.roundTrips.append(elapsed) }
        }
        Thread.sleep(forTimeInterval: settle)
        measurements.afterBurstKiB = residentKiB(pid)
        measurements.libraries = mappedLibraries(pid)
        return measurements
    }

    static func send(_ line: String, to descriptor: Int32) throws(Failed) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failed(description: "write to conditions mcp: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// A /proc file read to its end (they report a size of 0, and Foundation's readers may
    /// stop at the first page).
    static func procFile(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            contents.append(contentsOf: chunk[..<count])
        }
        return String(decoding: contents, as: UTF8.self)
    }

    /// `VmRSS` of `pid` in KiB, 0 when unreadable.
    static func residentKiB(_ pid: pid_t) -> Int {
        let status = procFile("/proc/\(pid)/status")
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// The shared libraries `pid` has mapped, by file name.
    static func mappedLibraries(_ pid: pid_t) -> [String] {
        let maps = procFile("/proc/\(pid)/maps")
        let names = maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first, path.contains(".so") else { return nil }
            return String(path.split(separator: "/").last ?? path)
        }
        return Array(Set(names)).sorted()
    }
}

/// Whole lines from a descriptor, with blocking reads.
final class LineReader {
    let descriptor: Int32
    /// A server silent this long is stuck: the scenario fails instead of hanging.
    let timeoutMilliseconds: Int32 = 30_000
    private var buffer: [UInt8] = []
    private var start = 0

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next line without its newline; nil at end of input.
    func line() throws(MCPServer.Failed) -> Data? {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[start..<newline])
                start = newline + 1
                if start == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                }
                return line
            }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, timeoutMilliseconds)
            if polled < 0, errno == EINTR { continue }
            guard polled != 0 else { throw MCPServer.Failed(description: "conditions mcp sent no reply within \(timeoutMilliseconds / 1000) s") }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
