import CMosquitto
import Foundation
import LazyMosquitto
import Synchronization

/// Where and how to connect: `mqtt://host:1883` or `mqtts://host:8883`.
public struct MQTTBroker: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// TLS, verifying the broker's certificate and host name against `caFile`, or the
    /// system's CAs when nil.
    public var tls: Bool
    public var caFile: String?
    public var username: String?
    public var password: String?
    /// Seconds between keep-alive pings; the broker publishes the will after 1.5 times this
    /// without a word from the client.
    public var keepAlive: Int

    public init(host: String, port: Int, tls: Bool, caFile: String? = nil, username: String? = nil, password: String? = nil,
                keepAlive: Int = 30) {
        self.host = host
        self.port = port
        self.tls = tls
        self.caFile = caFile
        self.username = username
        self.password = password
        self.keepAlive = keepAlive
    }

    /// `mqtts://broker.lan:8883`, for messages (never the credentials).
    public var address: String { "\(tls ? "mqtts" : "mqtt")://\(host):\(port)" }
}

/// A message published on a topic.
public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var retained: Bool

    public init(topic: String, payload: [UInt8], retained: Bool) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
    }
}

/// What happens to a client, in order.
public enum MQTTEvent: Sendable, Equatable {
    /// Connected (again): subscriptions and retained state are to be (re)made.
    case connected
    /// The broker answered and refused: bad credentials, not authorised (its words).
    case refused(String)
    /// No connection: the broker unreachable, TLS failed (why); retried with backoff.
    case unreachable(String)
    /// The connection was lost (why); libmosquitto reconnects with backoff.
    case disconnected(String)
    case message(MQTTMessage)
}

/// An MQTT 3.1.1 client over Eclipse Mosquitto's libmosquitto, opened on first use.
///
/// libmosquitto's calls that wait (connecting, its network loop) run on a thread of this
/// client's own, never on a thread of Swift's cooperative pool; `publish` and `subscribe` only
/// queue a packet and wake that thread (libmosquitto's threaded mode), so they may be called
/// from anywhere. A lost connection is retried with backoff, 1 s doubling to `maxBackoff`, for
/// as long as the client runs; what happens comes out of `events`.
public final class MQTTClient: Sendable {
    /// Why libmosquitto cannot be used here, or nil once it is open.
    public static var unavailable: String? {
        conditions_libmosquitto_open().map { String(cString: $0) }
    }

    public let broker: MQTTBroker
    public let events: AsyncStream<MQTTEvent>
    private let connection: Connection

    /// A client that connects as `clientID` and leaves `will` (retained) for the broker to
    /// publish if the connection dies without a goodbye. Throws when libmosquitto cannot be
    /// loaded or rejects an option (a CA file it cannot read).
    public init(broker: MQTTBroker, clientID: String, will: MQTTMessage?, maxBackoff: Int = 30) throws {
        if let reason = Self.unavailable { throw MQTTError(reason) }
        self.broker = broker
        let (events, continuation) = AsyncStream.makeStream(of: MQTTEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        connection = try Connection(broker: broker, clientID: clientID, will: will, maxBackoff: maxBackoff, events: continuation)
    }

    /// Starts connecting, on the client's own thread.
    public func start() { connection.start() }

    /// Queues `payload` for `topic` (QoS 1: the broker acknowledges it; resent after a
    /// reconnect). False when the client is not connected: the caller publishes again on the
    /// next `.connected`.
    @discardableResult
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool) -> Bool { connection.publish(topic, payload, retain: retain) }

    /// Subscribes to `filter` (QoS 1); again after each reconnect, by the caller on `.connected`.
    @discardableResult
    public func subscribe(_ filter: String) -> Bool { connection.subscribe(filter) }

    /// Sends `goodbye` (retained), then disconnects cleanly (so the broker drops the will) and
    /// ends the thread; waits at most `timeout` seconds for it.
    public func stop(goodbye: MQTTMessage? = nil, timeout: Duration = .seconds(2)) async {
        await connection.stop(goodbye: goodbye, timeout: timeout)
    }
}

/// A reason libmosquitto gave.
public struct MQTTError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The libmosquitto handle and the thread that runs it.
///
/// `@unchecked Sendable`: the handle is used from the client's thread (connect, loop) and from
/// any caller (publish, subscribe, disconnect), which libmosquitto allows in threaded mode
/// (`mosquitto_threaded_set`: it takes its own locks); everything else here is in `state`, a
/// Mutex. The handle is destroyed once, by the thread, after its loop has returned.
private final class Connection: @unchecked Sendable {
    let handle: OpaquePointer
    let broker: MQTTBroker
    let maxBackoff: Int
    let events: AsyncStream<MQTTEvent>.Continuation

    struct State {
        var connected = false
        var stopping = false
        var started = false
        var finished = false
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }
    let state = Mutex(State())
    /// Wakes the thread from a backoff wait when the client stops.
    let wake = DispatchSemaphore(value: 0)

    init(broker: MQTTBroker, clientID: String, will: MQTTMessage?, maxBackoff: Int, events: AsyncStream<MQTTEvent>.Continuation) throws {
        self.broker = broker
        self.maxBackoff = max(1, maxBackoff)
        self.events = events
        guard let handle = mosquitto_new(clientID, true, nil) else { throw MQTTError("libmosquitto could not make a client") }
        self.handle = handle
        do {
            try check(mosquitto_threaded_set(handle, true), "threaded mode")
            try check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311)), "MQTT 3.1.1")
            if let username = broker.username {
                try check(mosquitto_username_pw_set(handle, username, broker.password), "the user name")
            }
            if broker.tls {
                if let caFile = broker.caFile {
                    try check(mosquitto_tls_set(handle, caFile, nil, nil, nil, nil), "the CA file \(caFile)")
                } else {
                    try check(mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "the system's CAs")
                }
            }
            if let will {
                try will.payload.withUnsafeBytes { bytes in
                    try check(mosquitto_will_set(handle, will.topic, Int32(bytes.count), bytes.baseAddress, 1, will.retained), "the last will")
                }
            }
            try check(mosquitto_reconnect_delay_set(handle, 1, UInt32(self.maxBackoff), true), "the reconnect delay")
        } catch {
            mosquitto_destroy(handle)
            throw error
        }
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw MQTTError("\(what): \(String(cString: mosquitto_strerror(code)))") }
    }

    func start() {
        let go = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.stopping
        }
        guard go else { return }
        // The callbacks find this connection through the handle's user data: retained here,
        // released by the thread when it has destroyed the handle.
        let this = Unmanaged.passRetained(self)
        mosquitto_user_data_set(handle, this.toOpaque())
        mosquitto_connect_callback_set(handle) { _, user, code in
            Connection.from(user)?.connected(code: code)
        }
        mosquitto_disconnect_callback_set(handle) { _, user, code in
            Connection.from(user)?.disconnected(code: code)
        }
        mosquitto_message_callback_set(handle) { _, user, message in
            guard let message, let connection = Connection.from(user) else { return }
            connection.received(message.pointee)
        }
        let thread = Thread {
            let connection = this.takeUnretainedValue()
            connection.run()
            mosquitto_destroy(connection.handle)
            connection.finish()
            this.release()
        }
        thread.name = "conditions-mqtt"
        thread.start()
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> Connection? {
        user.map { Unmanaged<Connection>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The thread: connect, with backoff while the broker cannot be reached, then libmosquitto's
    /// loop, which reconnects by itself until the client stops.
    private func run() {
        var backoff = 1
        while !state.withLock({ $0.stopping }) {
            let code = mosquitto_connect(handle, broker.host, Int32(broker.port), Int32(broker.keepAlive))
            if code == MOSQ_ERR_SUCCESS.rawValue {
                // Stopped while connecting: the disconnect asked for then found no connection.
                if state.withLock({ $0.stopping }) {
                    _ = mosquitto_disconnect(handle)
                    break
                }
                backoff = 1
                let ended = mosquitto_loop_forever(handle, 1000, 1)
                if state.withLock({ $0.stopping }) { break }
                events.yield(.disconnected(reason(ended)))
            } else {
                events.yield(.unreachable(reason(code)))
            }
            _ = wake.wait(timeout: .now() + .seconds(backoff))
            backoff = min(backoff * 2, maxBackoff)
        }
    }

    private func reason(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(code))
    }

    private func finish() {
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        events.finish()
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Callbacks, on the client's thread

    private func connected(code: Int32) {
        if code == 0 {
            state.withLock { $0.connected = true }
            events.yield(.connected)
        } else {
            events.yield(.refused(String(cString: mosquitto_connack_string(code))))
        }
    }

    private func disconnected(code: Int32) {
        let wasConnected = state.withLock { state in
            defer { state.connected = false }
            return state.connected && !state.stopping
        }
        if wasConnected { events.yield(.disconnected(code == 0 ? "disconnected" : reason(code))) }
    }

    private func received(_ message: mosquitto_message) {
        guard let topic = message.topic else { return }
        let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
        events.yield(.message(MQTTMessage(topic: String(cString: topic), payload: payload, retained: message.retain)))
    }

    // MARK: From any thread

    func publish(_ topic: String, _ payload: [UInt8], retain: Bool) -> Bool {
        guard state.withLock({ $0.connected && !$0.finished }) else { return false }
        let code = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes.baseAddress, 1, retain)
        }
        return code == MOSQ_ERR_SUCCESS.rawValue
    }

    func subscribe(_ filter: String) -> Bool {
        guard state.withLock({ $0.connected && !$0.finished }) else { return false }
        return mosquitto_subscribe(handle, nil, filter, 1) == MOSQ_ERR_SUCCESS.rawValue
    }

    func stop(goodbye: MQTTMessage?, timeout: Duration) async {
        let (started, finished) = state.withLock { state -> (Bool, Bool) in
            state.stopping = true
            return (state.started, state.finished)
        }
        guard started else {
            mosquitto_destroy(handle)
            events.finish()
            return
        }
        if let goodbye { _ = publish(goodbye.topic, goodbye.payload, retain: goodbye.retained) }
        if !finished { _ = mosquitto_disconnect(handle) }
        wake.signal()
        // Resumed once: by the thread when it ends, or after `timeout` (a connect that hangs on
        // an unanswering host), whichever removes it from `waiters` first.
        await withCheckedContinuation { waiter in
            let id = UUID()
            let done = state.withLock { state -> Bool in
                if state.finished { return true }
                state.waiters[id] = waiter
                return false
            }
            if done { return waiter.resume() }
            Task {
                try? await Task.sleep(for: timeout)
                self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }
}
