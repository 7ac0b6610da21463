import Foundation
import Synchronization

/// A real MQTT subscriber: `paho-mqtt` (Tests/HomeAssistant/recorder.py, in the venv
/// `scripts/dev` makes, `.build/mqtt-venv`), recording every message on `#` of a broker as a
/// JSON line. Started once it says `ready` (subscribed); `messages` reads what it recorded.
package final class MQTTRecorder: Sendable {
    /// One message as the subscriber got it.
    package struct Message: Sendable, Equatable {
        package let topic: String
        package let payload: String
        package let retained: Bool
    }

    package static let python = CLI.packageRoot.appendingPathComponent(".build/mqtt-venv/bin/python")
    package static let scripts = CLI.packageRoot.appendingPathComponent("Tests/HomeAssistant")

    package let file: URL
    private let process: Process

    /// Subscribes to everything on `broker`, as its user when it has one.
    package init(_ broker: MosquittoBroker) async throws {
        file = broker.folder.appendingPathComponent("recorded-\(UUID().uuidString.prefix(6)).jsonl")
        let process = Process()
        process.executableURL = Self.python
        var arguments = [Self.scripts.appendingPathComponent("recorder.py").path, "--host", broker.tls ? "localhost" : "127.0.0.1",
                         "--port", String(broker.port), "--out", file.path, "--username", broker.username, "--password-env", "RECORDER_PASSWORD"]
        if broker.tls { arguments += ["--cafile", broker.caFile.path] }
        process.arguments = arguments
        process.environment = ["RECORDER_PASSWORD": broker.password, "PATH": "/usr/bin:/bin"]
        let ready = Pipe()
        process.standardOutput = ready
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        // The line "ready" once it has subscribed; nothing (end of file) if it died.
        let said = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = ready.fileHandleForReading.availableData
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        guard said.contains("ready") else {
            process.terminate()
            throw MosquittoBroker.Failure(description: "the MQTT recorder did not start: \(said)")
        }
    }

    /// Every message so far, in order.
    package var messages: [Message] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let topic = object["topic"] as? String, let payload = object["payload"] as? String else { return nil }
            return Message(topic: topic, payload: payload, retained: object["retained"] as? Bool ?? false)
        }
    }

    /// The messages on `topic`.
    package func messages(on topic: String) -> [Message] { messages.filter { $0.topic == topic } }

    /// The last payload on `topic`, as JSON; nil when none (or it was empty).
    package func last(on topic: String) -> [String: Any]? {
        guard let payload = messages(on: topic).last?.payload, !payload.isEmpty else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any]
    }

    /// SIGKILL (see `MosquittoBroker.halt`): every line it recorded is already in the file.
    package func stop() { kill(process.processIdentifier, SIGKILL) }
}
