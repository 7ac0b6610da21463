import CCurl
import ConditionsKit
import ConditionsText
import Dispatch
import Foundation
import Synchronization

/// One curl multi handle and the one thread that drives it.
///
/// Callers never touch curl: they post messages to the inbox and wake the thread with
/// `curl_multi_wakeup`. The thread owns every easy handle and the multi handle, and frees the
/// multi handle itself after it has answered every request.
final class CurlEngine: Sendable {
    private let multi: MultiHandle
    private let inbox = Mutex(Inbox())
    private let nextID = Atomic<UInt64>(1)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts the thread, loading libcurl if this is the first engine; throws `ConditionsError`
    /// of kind `internal` if libcurl cannot be loaded or make a multi handle.
    init(maxConnectionsPerHost: Int) throws(ConditionsError) {
        try CurlGlobal.ensureLoaded()
        guard let raw = curl_multi_init() else { throw ConditionsError(.internal, "libcurl could not create a multi handle") }
        let perHost = max(1, maxConnectionsPerHost)
        _ = conditions_curl_multi_setopt_long(raw, CURLMOPT_MAX_HOST_CONNECTIONS, perHost)
        // curl otherwise shrinks its idle cache as transfers finish; keep keep-alive connections.
        _ = conditions_curl_multi_setopt_long(raw, CURLMOPT_MAXCONNECTS, max(64, perHost * 8))
        multi = MultiHandle(raw: raw)

        // The thread keeps the engine alive until the loop has finished.
        let thread = Thread { [self] in
            EngineLoop(multi: multi.raw, engine: self).run()
            stopped.signal()
        }
        thread.name = "conditions-http"
        thread.start()
    }

    /// A fresh id for a request's cancellation ticket.
    func makeTicket() -> CancellationTicket {
        CancellationTicket(id: nextID.add(1, ordering: .relaxed).oldValue)
    }

    /// Queues `submission`; after shutdown it fails at once.
    func submit(_ submission: Submission) {
        let accepted = post(.start(submission))
        if !accepted {
            submission.resume(with: .failure(HTTPError.transport(url: Redaction.redact(submission.request.url), detail: "HTTP client was shut down")))
        }
    }

    /// Asks the loop to abandon the request holding `ticket`.
    func cancel(_ ticket: CancellationTicket) {
        ticket.cancel()
        _ = post(.cancel(ticket.id))
    }

    /// Stops the thread after failing every request still queued or in flight, and waits for it.
    /// Idempotent.
    func shutdown() {
        let first = inbox.withLock { inbox -> Bool in
            guard !inbox.stopping else { return false }
            inbox.stopping = true
            _ = curl_multi_wakeup(multi.raw)
            return true
        }
        if first { stopped.wait() }
    }

    /// The messages posted since the last call, and whether the loop should stop.
    func takeMessages() -> (messages: [Message], stopping: Bool) {
        inbox.withLock { inbox in
            defer { inbox.messages.removeAll(keepingCapacity: true) }
            return (inbox.messages, inbox.stopping)
        }
    }

    /// Appends `message` and wakes the loop, unless shutdown has begun. The wakeup happens under
    /// the lock so that it can never reach a multi handle the loop has already freed: the loop
    /// frees it only after seeing `stopping`, and nothing is posted once `stopping` is set.
    private func post(_ message: Message) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.messages.append(message)
            _ = curl_multi_wakeup(multi.raw)
            return true
        }
    }

    enum Message: Sendable {
        case start(Submission)
        case cancel(UInt64)
    }

    struct Inbox: Sendable {
        var messages: [Message] = []
        var stopping = false
    }
}

/// The multi handle pointer, shareable across threads.
///
/// `@unchecked Sendable` because the pointer itself is not: other threads use it only for
/// `curl_multi_wakeup`, which libcurl documents as callable from any thread, and only under the
/// inbox lock before shutdown (see `CurlEngine.post`). Every other call happens on the loop thread.
struct MultiHandle: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
}
