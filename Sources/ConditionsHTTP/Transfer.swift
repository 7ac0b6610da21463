import CCurl
import ConditionsKit
import Foundation

/// One easy handle and the response it is collecting.
///
/// Created, driven and destroyed on the loop thread only; curl calls the data callbacks from
/// inside `curl_multi_perform` on that same thread. The loop's table of active transfers keeps
/// each one alive while curl holds the unretained pointer given as callback user data, and
/// removes the handle from the multi handle before letting go of it.
final class Transfer {
    let submission: Submission
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let errorBufferSize: Int

    private(set) var body = Data()
    private(set) var headers: [String: String] = [:]
    /// Set when the write callback refused data because the body outgrew `maxBodyBytes`.
    private(set) var exceededBodyLimit = false

    /// An easy handle for `submission`, or nil when libcurl cannot make one. Call `configure()`
    /// before adding it to a multi handle.
    init?(_ submission: Submission) {
        guard let handle = curl_easy_init() else { return nil }
        self.submission = submission
        self.handle = handle
        errorBufferSize = Int(conditions_curl_error_size())
        errorBuffer = .allocate(capacity: errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: errorBufferSize)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Sets every option; false if libcurl rejects one (or cannot allocate the header list).
    func configure() -> Bool {
        let request = submission.request
        let limits = submission.limits
        let me = Unmanaged.passUnretained(self).toOpaque()
        var ok = true
        func check(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        func setLong(_ option: CURLoption, _ value: Int) { check(conditions_curl_easy_setopt_long(handle, option, value)) }
        func setString(_ option: CURLoption, _ value: String) { check(conditions_curl_easy_setopt_string(handle, option, value)) }

        setString(CURLOPT_URL, request.url.absoluteString)
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        setString(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        setLong(CURLOPT_NOSIGNAL, 1)
        setString(CURLOPT_USERAGENT, submission.userAgent)
        // The empty string offers every encoding this libcurl can decode and decodes the body.
        setString(CURLOPT_ACCEPT_ENCODING, "")
        setLong(CURLOPT_FOLLOWLOCATION, 1)
        setLong(CURLOPT_MAXREDIRS, limits.maxRedirects)
        setLong(CURLOPT_SSL_VERIFYPEER, 1)
        setLong(CURLOPT_SSL_VERIFYHOST, 2)
        setLong(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.connectTimeout))
        setLong(CURLOPT_TIMEOUT_MS, Self.milliseconds(limits.timeout))
        // Lets curl refuse a declared Content-Length up front; the write callback catches the rest.
        check(conditions_curl_easy_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBodyBytes)))
        check(conditions_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        // The proxy is always given, "" for none, and no_proxy too, so libcurl never reads the
        // environment itself and an error can name the proxy that was used (`usedProxy`).
        let proxies = submission.proxies
        setString(CURLOPT_PROXY, proxies.proxy(forScheme: request.url.scheme ?? "")?.value ?? "")
        setString(CURLOPT_NOPROXY, proxies.noProxy ?? "")

        switch request.method.uppercased() {
        case "GET": break
        case "HEAD": setLong(CURLOPT_NOBODY, 1)
        default: setString(CURLOPT_CUSTOMREQUEST, request.method)
        }
        if let body = request.body {
            // The size first, so COPYPOSTFIELDS copies exactly that many bytes (a body may hold
            // NULs); libcurl keeps its own copy, freed with the handle.
            check(conditions_curl_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            if body.isEmpty {
                setString(CURLOPT_COPYPOSTFIELDS, "")
            } else {
                body.withUnsafeBytes { bytes in
                    if let base = bytes.baseAddress { check(conditions_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base))) }
                }
            }
        }

        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            // "Name;" is curl's spelling for a header sent with an empty value.
            let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
            guard let list = curl_slist_append(headerList, line) else { return false }
            headerList = list
        }
        if let headerList { check(conditions_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)) }

        check(conditions_curl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
            guard let userdata else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        check(conditions_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me))
        check(conditions_curl_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
            guard let userdata else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
            transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        })
        check(conditions_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, me))
        return ok
    }

    /// Appends body bytes; returning less than offered makes curl abort with CURLE_WRITE_ERROR.
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard body.count + bytes.count <= submission.limits.maxBodyBytes else {
            exceededBodyLimit = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// Records one header line. Each response in a redirect chain starts with a status line,
    /// which clears the fields, so only the final response's headers remain.
    private func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return }
        headers[name] = value
    }

    /// The finished response, read once curl reports the transfer done without error.
    func response() -> HTTPResponse {
        var status = 0
        _ = conditions_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: headers, body: body, url: effectiveURL)
    }

    /// The URL curl last requested: the original one, or the last redirect's target.
    var effectiveURL: URL {
        var text: UnsafePointer<CChar>?
        guard conditions_curl_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &text) == CURLE_OK,
              let text, let url = URL(string: String(cString: text))
        else { return submission.request.url }
        return url
    }

    /// The proxy the connection that failed went through: the one the request's scheme chose,
    /// unless `no_proxy` exempts the host curl last asked for.
    var usedProxy: ProxySettings.Proxy? {
        submission.proxies.proxy(forScheme: submission.request.url.scheme ?? "", host: effectiveURL.host ?? "")
    }

    /// The status a proxy answered the request for a tunnel with, 0 when none was asked for.
    var proxyConnectStatus: Int {
        var status = 0
        _ = conditions_curl_easy_getinfo_long(handle, CURLINFO_HTTP_CONNECTCODE, &status)
        return status
    }

    /// Seconds from start to finish of this transfer as curl measured it.
    var elapsedSeconds: Double {
        var seconds = 0.0
        _ = conditions_curl_easy_getinfo_double(handle, CURLINFO_TOTAL_TIME, &seconds)
        return seconds
    }

    /// curl's detailed message for the failure, if it wrote one.
    var errorDetail: String {
        // The buffer is zero-filled at creation and curl always terminates what it writes.
        errorBuffer[errorBufferSize - 1] = 0
        return String(cString: errorBuffer)
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((seconds * 1000).rounded(.up).clamped(to: 1...Double(Int32.max)))
    }
}

private extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
