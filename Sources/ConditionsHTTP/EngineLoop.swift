import CCurl
import ConditionsKit
import ConditionsText
import Foundation

/// The body of the engine thread: admits queued requests, drives curl, and answers each
/// request exactly once. Lives and dies on that thread, so it needs no locking of its own.
final class EngineLoop {
    private let multi: UnsafeMutableRawPointer
    private let engine: CurlEngine
    /// Transfers added to the multi handle, keyed by easy handle. Holding them here is what keeps
    /// the callbacks' unretained pointers valid.
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Requests waiting for a free slot at their host, oldest first.
    private var waiting: [Submission] = []
    private var inFlightPerHost: [String: Int] = [:]

    init(multi: UnsafeMutableRawPointer, engine: CurlEngine) {
        self.multi = multi
        self.engine = engine
    }

    func run() {
        while true {
            let (messages, stopping) = engine.takeMessages()
            for message in messages {
                switch message {
                case .start(let submission): admit(submission)
                case .cancel(let id): cancel(id)
                }
            }
            if stopping { break }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            collectFinished()
            // Returns early for socket activity, curl's own timers, or curl_multi_wakeup.
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        let shutDown = { (url: URL) in HTTPError.transport(url: Redaction.redact(url), detail: "HTTP client was shut down") }
        for submission in waiting { submission.resume(with: .failure(shutDown(submission.request.url))) }
        waiting.removeAll()
        for transfer in Array(active.values) { finish(transfer, .failure(shutDown(transfer.submission.request.url)), admitWaiting: false) }
        _ = curl_multi_cleanup(multi)
    }

    /// Starts `submission` now if its host has a free slot, otherwise queues it.
    ///
    /// The per-host count enforces each request's own `maxConnectionsPerHost` (a limited view may
    /// ask for fewer than the multi handle allows); it also means no transfer sits in curl's
    /// internal queue, where its timeout would already be running.
    private func admit(_ submission: Submission) {
        if submission.ticket.isCancelled {
            submission.resume(with: .failure(CancellationError()))
        } else if inFlightPerHost[submission.hostKey, default: 0] < max(1, submission.limits.maxConnectionsPerHost) {
            start(submission)
        } else {
            waiting.append(submission)
        }
    }

    private func start(_ submission: Submission) {
        let url = Redaction.redact(submission.request.url)
        guard let transfer = Transfer(submission) else {
            submission.resume(with: .failure(HTTPError.transport(url: url, detail: "libcurl could not create a transfer")))
            return
        }
        guard transfer.configure() else {
            submission.resume(with: .failure(HTTPError.transport(url: url, detail: "libcurl rejected the request options")))
            return
        }
        guard curl_multi_add_handle(multi, transfer.handle) == CURLM_OK else {
            submission.resume(with: .failure(HTTPError.transport(url: url, detail: "libcurl could not start the transfer")))
            return
        }
        active[transfer.handle] = transfer
        inFlightPerHost[submission.hostKey, default: 0] += 1
    }

    private func cancel(_ id: UInt64) {
        if let index = waiting.firstIndex(where: { $0.ticket.id == id }) {
            waiting.remove(at: index).resume(with: .failure(CancellationError()))
        } else if let transfer = active.values.first(where: { $0.submission.ticket.id == id }) {
            finish(transfer, .failure(CancellationError()))
        }
    }

    private func collectFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE,
                  let handle = message.pointee.easy_handle,
                  let transfer = active[handle]
            else { continue }
            let code = message.pointee.data.result
            finish(transfer, code == CURLE_OK ? .success(transfer.response()) : .failure(transfer.error(for: code)))
        }
    }

    /// Detaches `transfer` from curl, answers its request, and lets waiting requests take the slot.
    private func finish(_ transfer: Transfer, _ result: Result<HTTPResponse, any Error>, admitWaiting: Bool = true) {
        _ = curl_multi_remove_handle(multi, transfer.handle)
        active[transfer.handle] = nil
        let key = transfer.submission.hostKey
        inFlightPerHost[key, default: 1] -= 1
        if inFlightPerHost[key] == 0 { inFlightPerHost[key] = nil }
        transfer.submission.resume(with: result)
        guard admitWaiting else { return }
        let ready = waiting
        waiting.removeAll()
        for submission in ready { admit(submission) }
    }
}
