import ConditionsKit
import ConditionsText
import Foundation
import Logging
import Synchronization

/// `conditions doctor`: one live request to every instance of every route, what each module
/// says it needs (`ConditionsSource.healthChecks`), the cache and history folders, and the
/// clock against the upstreams' `Date` headers. Every finding says what to do about it.
package struct Doctor {
    /// One finding.
    package struct Finding: Sendable, Equatable {
        package enum Status: String, Sendable { case ok, warning, failure }
        package let status: Status
        /// What was checked: `route pass`, `pass → wsdot-feed`, `cache folder`, `clock`.
        package let check: String
        package let detail: String
        package let fix: String?
        /// Whether a failure here fails the run: a route's verdict, a folder, the clock; not
        /// one instance of a chain (its route says whether another answers) nor a module's need.
        package let decides: Bool

        package init(_ status: Status, _ check: String, _ detail: String, fix: String? = nil, decides: Bool = true) {
            self.status = status
            self.check = check
            self.detail = detail
            self.fix = fix
            self.decides = decides
        }
    }

    let runtime: Runtime
    let environment: [String: String]
    let logger: Logger
    /// Each request's limit: the instance's own timeout when shorter.
    let timeout: Double

    /// A doctor over `runtime`; each live request given at most `timeout` seconds.
    package init(runtime: Runtime, environment: [String: String], logger: Logger, timeout: Double = 10) {
        self.runtime = runtime
        self.environment = environment
        self.logger = logger
        self.timeout = timeout
    }

    /// Every finding, routes first, in a stable order.
    package func examine() async -> [Finding] {
        let dates = DateHeaders()
        let base = HTTPClients.make(version: Version.current, logger: logger)
        let timeout = self.timeout
        let resolver = Resolver(runtime: runtime, now: Date(), pinned: false, http: { limits in
            var short = limits
            short.timeout = min(limits.timeout, timeout)
            short.connectTimeout = min(limits.connectTimeout, timeout)
            return DateRecordingClient(base: base(short), dates: dates)
        })
        var findings: [Finding] = []
        for route in runtime.configuration.routes {
            findings += await examine(route, with: resolver)
        }
        findings += await modules()
        findings += await notifyTargets(http: base(HTTPLimits(connectTimeout: min(10, timeout), timeout: timeout)))
        findings += await mqttBroker(timeout: min(10, timeout))
        findings += folders()
        findings.append(Self.clock(dates.observed))
        return findings
    }

    /// Whether the findings make the run fail: a route with no working instance, a folder that
    /// cannot be written, a clock far off.
    package static func fails(_ findings: [Finding]) -> Bool {
        findings.contains { $0.status == .failure && $0.decides }
    }

    // MARK: Routes

    private func examine(_ route: Configuration.Route, with resolver: Resolver) async -> [Finding] {
        guard route.isJoin else { return await examine(route, chain: nil, with: resolver) }
        // A joined route: each chain on a URN of its own (WSDOT's pass:snoqualmie is not Caltrans's).
        var findings: [Finding] = []
        for (index, chain) in route.chains.enumerated() {
            findings += await examine(route, chain: (index, chain.instances), with: resolver)
        }
        return findings
    }

    /// `route`, or one chain of a joined route (its position and instances), asked its first
    /// example URN: the configured report's, else the chain's own modules'.
    private func examine(_ route: Configuration.Route, chain: (index: Int, instances: [String])?, with resolver: Resolver) async -> [Finding] {
        let label = "route \(route.scheme)" + (chain.map { " (join \($0.index + 1): \($0.instances.joined(separator: " → ")))" } ?? "")
        let prefix = route.scheme + ":"
        let own = (chain?.instances ?? []).flatMap { id in runtime.instances.first { $0.id == id }?.source.examples ?? [] }
        let candidates = chain == nil ? runtime.exampleURNs : own
        guard let urn = candidates.first(where: { $0.lowercased().hasPrefix(prefix) }) else {
            return [Finding(.warning, label, "no example URN to ask \(route.scheme): for", fix: "add one to \"report\" in the config")]
        }
        let outcomes: [(instance: SourceInstance, outcome: Result<ResultRecord, any Error>, duration: Duration)]
        do { outcomes = try await resolver.probeEach(urn, only: chain?.instances) } catch {
            return [Finding(.failure, label, "\(urn): \(ConditionsError.report(error).message)", fix: "conditions check lists what is wrong with the config")]
        }
        var findings: [Finding] = []
        var working: [String] = []
        for (instance, outcome, duration) in outcomes {
            let check = "\(route.scheme) → \(instance.id)"
            let took = Self.text(duration)
            switch outcome {
            case .success(let record):
                if case .failure(let kind, let message, _) = record.outcome {
                    findings.append(Self.finding(check, urn: urn, kind: kind, message: message, took: took, scheme: route.scheme, instance: instance.id, working: &working))
                } else {
                    working.append(instance.id)
                    findings.append(Finding(.ok, check, "answered \(urn) in \(took)", decides: false))
                }
            case .failure(let error):
                let (kind, message) = ConditionsError.report(error)
                findings.append(Self.finding(check, urn: urn, kind: kind, message: resolver.redact(message), took: took, scheme: route.scheme,
                                             instance: instance.id, working: &working))
            }
        }
        let ids = outcomes.map(\.instance.id)
        if working.first == ids.first, !working.isEmpty {
            findings.append(Finding(.ok, label, "\(ids.first ?? "") answers"))
        } else if let fallback = working.first {
            findings.append(Finding(.warning, label, "\(ids.first ?? "") failed; the fallback \(fallback) answers",
                                    fix: "see \(route.scheme) → \(ids.first ?? "") above; until then \(route.scheme): URNs come from \(fallback)"))
        } else {
            findings.append(Finding(.failure, label, "no instance answers \(urn) (\(ids.joined(separator: ", ")))",
                                    fix: "fix one of them (above), or route \(route.scheme) to another source"))
        }
        return findings
    }

    /// A failed request, with what to do about its kind of failure. A verdict about the example
    /// URN itself (`notFound`, `invalidArguments`) still shows the instance answering.
    private static func finding(_ check: String, urn: String, kind: ErrorKind, message: String, took: String, scheme: String, instance: String,
                                working: inout [String]) -> Finding {
        if let proxy = NamedProxy(in: message) {
            return Finding(.failure, check, kind == .timeout ? message : "\(message) (after \(took))", fix: proxy.fix, decides: false)
        }
        let fix = kind.doctorFix(instance: instance, scheme: scheme)
        switch kind {
        case .notFound, .invalidArguments:
            working.append(instance)
            return Finding(.warning, check, "answered, but not \(urn): \(message)", fix: fix, decides: false)
        case .configuration, .timeout:
            return Finding(.failure, check, message, fix: fix, decides: false)
        case .invalidURN, .upstream, .badResponse, .network, .http, .tooLarge, .cancelled, .internal:
            return Finding(.failure, check, "\(message) (after \(took))", fix: fix, decides: false)
        }
    }

    /// The proxy a failure names, as `HTTPError.proxy`'s message gives it: "the proxy
    /// 127.0.0.1:9 (from http_proxy) refused the connection: http://upstream.example/data".
    struct NamedProxy: Equatable {
        /// Host and port: `127.0.0.1:9`.
        let proxy: String
        /// The variable that chose it: `http_proxy`, `HTTPS_PROXY`, `all_proxy`, …
        let variable: String
        /// What it did: `refused the connection`, `could not be resolved`, …
        let problem: String
        /// The host of the URL asked for, if the message gives one.
        let host: String?

        init?(in message: String) {
            guard let start = message.range(of: "the proxy ") else { return nil }
            let named = message[start.upperBound...]
            guard let from = named.range(of: " (from "), let close = named[from.upperBound...].firstIndex(of: ")") else { return nil }
            let proxy = named[..<from.lowerBound], variable = named[from.upperBound..<close]
            guard !proxy.isEmpty, !proxy.contains(" "), !variable.isEmpty, variable.allSatisfy({ $0.isLetter || $0 == "_" }) else { return nil }
            self.proxy = String(proxy)
            self.variable = String(variable)
            let rest = named[named.index(after: close)...].drop { $0 == " " }
            let urlStart = rest.range(of: ": ")
            problem = String(urlStart.map { rest[..<$0.lowerBound] } ?? rest)
            host = urlStart.flatMap { Self.host(in: rest[$0.upperBound...]) }
        }

        /// The host of the URL `text` starts with.
        private static func host(in text: Substring) -> String? {
            guard let scheme = text.range(of: "://"), !text[..<scheme.lowerBound].contains(" ") else { return nil }
            let authority = text[scheme.upperBound...].prefix { !"/?#; ".contains($0) }
            let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
            let host = hostAndPort.hasPrefix("[") ? hostAndPort.prefix { $0 != "]" }.dropFirst() : hostAndPort.prefix { $0 != ":" }
            return host.isEmpty ? nil : String(host)
        }

        /// What to do: start the proxy, correct or unset its variable, or reach the host directly.
        var fix: String {
            let direct = "add \(host ?? "the upstream's host") to no_proxy"
            if problem.hasPrefix("refused the connection") || problem.hasPrefix("did not connect") {
                return "start the proxy at \(proxy), or unset \(variable), or \(direct)"
            }
            if problem.hasPrefix("refused the tunnel") {
                return "have the proxy at \(proxy) allow \(host ?? "the upstream"), or unset \(variable), or \(direct)"
            }
            let why = problem.hasPrefix("could not be resolved") ? "does not resolve" : "is not a proxy address"
            return "correct \(variable) (\(proxy) \(why)), or unset it, or \(direct)"
        }
    }

    // MARK: Modules, folders, clock

    /// What each routed instance's module says it needs. A problem is a warning: the route's
    /// own finding says whether anything answers.
    private func modules() async -> [Finding] {
        let routed = Set(runtime.configuration.routes.flatMap(\.instances))
        var findings: [Finding] = []
        for instance in runtime.instances where routed.contains(instance.id) {
            for check in await instance.source.healthChecks() {
                let name = "sources.\(instance.id): \(check.name)"
                if let problem = check.problem {
                    findings.append(Finding(.warning, name, problem, fix: check.fix, decides: false))
                } else {
                    findings.append(Finding(.ok, name, check.detail ?? "ok", decides: false))
                }
            }
        }
        return findings
    }

    private func folders() -> [Finding] {
        var findings: [Finding] = []
        let cache = runtime.configuration.cache
        if cache.enabled {
            let folder = cache.directory ?? ResultCache.defaultDirectory(environment: environment)
            findings.append(Self.writable(folder, check: "cache folder", fix: "make \(folder.path) writable, set \"cache\": {\"directory\": …}, or run with --no-cache"))
        }
        let history = runtime.configuration.history
        // A database's login is `conditions check`'s to try.
        if history.enabled, case .file(let file)? = try? history.location(environment: environment) {
            let folder = file.deletingLastPathComponent()
            findings.append(Self.writable(folder, check: "history folder", fix: "make \(folder.path) writable, set \"history\": {\"path\": …}, or \"enabled\": false"))
        }
        return findings
    }

    /// Whether a file can be made in `folder` (made first if missing), as the cache and
    /// history will.
    static func writable(_ folder: URL, check: String, fix: String) -> Finding {
        let probe = folder.appendingPathComponent(".doctor-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data().write(to: probe)
            try FileManager.default.removeItem(at: probe)
            return Finding(.ok, check, "\(folder.path) is writable")
        } catch {
            return Finding(.failure, check, "\(folder.path) is not writable: \(error.localizedDescription)", fix: fix)
        }
    }

    /// The local clock against the upstreams' `Date` headers (whole seconds, sent before the
    /// answer travelled): a minute off is news, five minutes breaks TTLs and reports' times.
    static func clock(_ observed: [(host: String, offset: Double)]) -> Finding {
        guard let worst = observed.max(by: { abs($0.offset) < abs($1.offset) }) else {
            return Finding(.ok, "clock", "no upstream sent a Date header to compare with")
        }
        let seconds = Int(worst.offset.rounded())
        let said = seconds >= 0 ? "\(seconds) s ahead of" : "\(-seconds) s behind"
        let detail = "\(said) \(worst.host) (\(observed.count) answers compared)"
        let fix = "set the clock right: timedatectl set-ntp true, or install chrony"
        if abs(worst.offset) > 300 { return Finding(.failure, "clock", detail, fix: fix) }
        if abs(worst.offset) > 60 { return Finding(.warning, "clock", detail, fix: fix) }
        return Finding(.ok, "clock", detail)
    }

    static func text(_ duration: Duration) -> String {
        let milliseconds = Int((Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15).rounded())
        return milliseconds < 1000 ? "\(milliseconds) ms" : String(format: "%.1f s", Double(milliseconds) / 1000)
    }
}

/// The `Date` headers of the answers seen, as the local clock's offset from each.
final class DateHeaders: Sendable {
    private let offsets = Mutex<[(host: String, offset: Double)]>([])

    func record(host: String, offset: Double) { offsets.withLock { $0.append((host, offset)) } }
    var observed: [(host: String, offset: Double)] { offsets.withLock { $0 } }
}

/// An HTTP client noting each answer's `Date` header against the local clock.
struct DateRecordingClient: HTTPClient {
    let base: any HTTPClient
    let dates: DateHeaders

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        let received = Date()
        if let header = response.headers.first(where: { $0.key.lowercased() == "date" })?.value, let sent = HTTPDate.parse(header) {
            dates.record(host: request.url.host ?? request.url.absoluteString, offset: received.timeIntervalSince(sent))
        }
        return response
    }
}

extension ErrorKind {
    /// What `conditions doctor` tells its reader to do when `instance`, which answers `scheme`,
    /// fails its route's example URN with this kind: the host's reading of the vocabulary.
    func doctorFix(instance: String, scheme: String) -> String {
        switch self {
        case .notFound, .invalidArguments:
            "put a URN this source answers in \"report\""
        case .configuration:
            "fix sources.\(instance) in the config (conditions check)"
        case .badResponse:
            "the upstream answered in a shape this version does not read: update conditions, or route \(scheme) to another source"
        case .timeout:
            "the upstream is slow or unreachable: check the network and any proxy (https_proxy), or raise sources.\(instance).http.timeout"
        case .invalidURN, .upstream, .network, .http, .tooLarge, .cancelled, .internal:
            "the upstream failed or is unreachable: check the network and any proxy (https_proxy); if it moved, route \(scheme) to another source"
        }
    }
}
