import CCurl
import ConditionsKit
import ConditionsText
import Foundation

extension Transfer {
    /// The `HTTPError` for a transfer that curl finished with `code`.
    ///
    /// Every URL is redacted. curl's own message is used as detail only when it contains no URL,
    /// since a URL in it could carry secrets that redaction never saw.
    func error(for code: CURLcode) -> HTTPError {
        let url = effectiveURL
        let redacted = Redaction.redact(url)
        let host = url.host ?? redacted
        // A failure to reach the proxy names the proxy and its variable, not the upstream.
        let scheme = submission.request.url.scheme ?? ""
        if let proxy = usedProxy ?? (code == CURLE_COULDNT_RESOLVE_PROXY ? submission.proxies.proxy(forScheme: scheme) : nil),
           let problem = proxyProblem(for: code) {
            return .proxy(proxy: proxy.name, variable: proxy.variable, problem: problem, url: redacted)
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return .dns(host: host)
        case CURLE_COULDNT_CONNECT:
            // The port too, when the URL gives one: "refused by 127.0.0.1" names no upstream
            // among several on one machine.
            return .refused(host: url.port.map { "\(host):\($0)" } ?? host)
        case CURLE_OPERATION_TIMEDOUT:
            let limits = submission.limits
            return .timeout(seconds: overallTimeout ? limits.timeout : limits.connectTimeout, url: redacted)
        case CURLE_GOT_NOTHING:
            return .transport(url: redacted, detail: CurlHTTPClient.closedWithoutAnswer)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(url: redacted)
        case CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge(limit: submission.limits.maxBodyBytes, url: redacted)
        case CURLE_WRITE_ERROR where exceededBodyLimit:
            return .bodyTooLarge(limit: submission.limits.maxBodyBytes, url: redacted)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED:
            return .tls(url: redacted, detail: detail(for: code))
        default:
            return .transport(url: redacted, detail: detail(for: code))
        }
    }

    /// Whether a timeout was the overall one: curl reports both limits with one code, and only
    /// the overall one can take this long.
    private var overallTimeout: Bool {
        let limits = submission.limits
        return limits.connectTimeout >= limits.timeout || elapsedSeconds + 0.05 >= limits.timeout
    }

    /// What went wrong with the proxy, for a transfer that went through one and failed with
    /// `code`; nil when the proxy was reached and the failure lies beyond it.
    private func proxyProblem(for code: CURLcode) -> HTTPError.ProxyProblem? {
        let status = proxyConnectStatus
        if status != 0, !(200..<300).contains(status) { return .tunnelRefused(status: status) }
        // libcurl says so when it cannot parse the proxy string or does not know its scheme
        // (the text quotes the string, credentials and all, so it is never shown).
        let unusable = errorDetail.hasPrefix("Unsupported proxy")
        switch code {
        case CURLE_COULDNT_CONNECT: return unusable ? .unsupported : .refused
        case CURLE_COULDNT_RESOLVE_PROXY: return unusable ? .unsupported : .unresolved
        case CURLE_OPERATION_TIMEDOUT where !overallTimeout: return .timedOut(seconds: submission.limits.connectTimeout)
        default: return nil
        }
    }

    private func detail(for code: CURLcode) -> String {
        let own = errorDetail.trimmingCharacters(in: .whitespacesAndNewlines)
        // A proxy's value may hold its user and password; curl's text may quote it.
        let proxies = [submission.proxies.http, submission.proxies.https].compactMap { $0?.value }
        if !own.isEmpty, !own.contains("://"), !own.contains("?"), !proxies.contains(where: { own.contains($0) }) { return own }
        guard let text = curl_easy_strerror(code) else { return "transfer failed (curl error \(code.rawValue))" }
        return String(cString: text)
    }
}
