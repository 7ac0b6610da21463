import ConditionsKit
import ConditionsProcess
import ConditionsText
import Foundation

/// What `conditions doctor` checks of each notify target, sending nothing: ntfy's
/// `GET /v1/health`, then `GET /<topic>/auth` with the target's credentials; a webhook's TCP and
/// TLS connection (a `HEAD` whose any answer will do: many receivers answer 405); Apprise's
/// `--dry-run`, which only checks that its URLs parse (the finding says so).
extension Doctor {
    func notifyTargets(http: any HTTPClient) async -> [Finding] {
        var findings: [Finding] = []
        for target in runtime.configuration.notify.targets {
            let check = "notify → \(target.name)"
            let resolved: ResolvedTarget
            do { resolved = try target.resolve(environment: environment) } catch {
                findings.append(Finding(.failure, check, error.problems.joined(separator: "; "), fix: "set the variable it names; conditions check lists every problem"))
                continue
            }
            findings.append(await examine(resolved, check: check, http: http))
        }
        return findings
    }

    private func examine(_ target: ResolvedTarget, check: String, http: any HTTPClient) async -> Finding {
        struct Failed: Error { let reason: String }
        func get(_ url: URL, headers: [String: String] = [:], method: String = "GET") async -> Result<HTTPResponse, Failed> {
            do { return .success(try await http.send(HTTPRequest(method: method, url: url, headers: headers, retry: HTTPRetry(statuses: [], attempts: 0)))) } catch {
                return .failure(Failed(reason: target.redact(ConditionsError.report(error).message)))
            }
        }
        switch target.kind {
        case .ntfy(let topic, let authorization):
            var root = URLComponents(url: topic, resolvingAgainstBaseURL: false)
            root?.path = "/v1/health"
            guard let health = root?.url else { return Finding(.failure, check, "\(topic.host ?? "?"): not a URL") }
            switch await get(health) {
            case .failure(let failed):
                return Finding(.failure, check, "\(health.host ?? "?"): \(failed.reason)", fix: "is the ntfy server's address right, and is it up?")
            case .success(let response) where !(200..<300).contains(response.status):
                return Finding(.failure, check, "GET /v1/health: HTTP \(response.status)", fix: "is this an ntfy server?")
            case .success: break
            }
            let auth = topic.appendingPathComponent("auth")
            switch await get(auth, headers: authorization.map { ["Authorization": $0] } ?? [:]) {
            case .failure(let failed): return Finding(.failure, check, "\(auth.path): \(failed.reason)")
            case .success(let response) where (200..<300).contains(response.status):
                return Finding(.ok, check, "ntfy at \(topic.host ?? "?") is healthy and takes the credentials for \(topic.path)")
            case .success(let response):
                return Finding(.failure, check, "GET \(auth.path): HTTP \(response.status): the server refuses these credentials for the topic",
                               fix: "check the token (tk_…) or the username and password, and the topic's access")
            }
        case .webhook(let url, _):
            switch await get(url, method: "HEAD") {
            case .failure(let failed): return Finding(.failure, check, failed.reason, fix: "is the receiver's URL right, and is it up?")
            case .success(let response):
                return Finding(.ok, check, "\(url.host ?? "?") accepts connections\(url.scheme == "https" ? " over TLS" : "") (HEAD answered \(response.status); nothing sent)")
            }
        case .apprise(let urls):
            let process = SupervisedProcess(program: "apprise", arguments: ["--dry-run", "-b", "conditions doctor"],
                                            environment: .inherit(updating: ["APPRISE_URLS": urls.joined(separator: " ")]),
                                            output: .collect(limit: 64 << 10, stderrTail: 2048), timeout: .seconds(30), onTimeout: .kill, leftovers: .kill)
            do {
                let outcome = try await process.run()
                guard outcome.ending == .exited(0) else {
                    let said = target.redact(String(decoding: outcome.stderrTail, as: UTF8.self)).split(separator: "\n").last.map(String.init) ?? ""
                    return Finding(.failure, check, "apprise --dry-run: \(outcome.ending)\(said.isEmpty ? "" : ": \(said)")", fix: "check the Apprise URLs")
                }
                return Finding(.ok, check, "apprise parses its \(urls.count) URL\(urls.count == 1 ? "" : "s") (--dry-run only checks that; nothing was sent)")
            } catch {
                return Finding(.failure, check, error.programNotFound ? "no apprise program on PATH" : error.description,
                               fix: error.programNotFound ? "apt-get install apprise (or pip install apprise)" : nil)
            }
        }
    }
}
