import ConditionsMQTT
import Foundation

/// What `conditions doctor` checks of the `mqtt` section: that the broker can be reached and
/// takes the credentials (a connection made and closed; nothing published, no will left).
extension Doctor {
    func mqttBroker(timeout: Double) async -> [Finding] {
        guard let settings = runtime.configuration.mqtt else { return [] }
        let check = "mqtt → \(settings.address)"
        let broker: MQTTBroker
        do { broker = try settings.broker(environment: environment) } catch {
            return [Finding(.failure, check, error.problems.joined(separator: "; "), fix: "set the variable it names, or fix mqtt.passwordFile")]
        }
        if let reason = MQTTClient.unavailable { return [Finding(.failure, check, reason, fix: "install libmosquitto1")] }
        let client: MQTTClient
        do {
            client = try MQTTClient(broker: broker, clientID: "conditions-doctor-\(UUID().uuidString.prefix(6).lowercased())", will: nil)
        } catch {
            return [Finding(.failure, check, "\(error)", fix: "check mqtt.cafile")]
        }
        client.start()
        // The first thing that happens decides, within `timeout`.
        let first = await withTaskGroup(of: MQTTEvent?.self) { group in
            group.addTask { for await event in client.events { if case .message = event { continue }; return event }; return nil }
            group.addTask { try? await Task.sleep(for: .seconds(timeout)); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        await client.stop()
        let urns = settings.urns(report: runtime.configuration.report).count
        switch first {
        case .connected:
            return [Finding(.ok, check, "connected\(settings.username.map { " as \($0)" } ?? "")\(settings.tls ? " over TLS" : ""); \(urns) device(s) to publish under \(settings.discoveryPrefix)/device/")]
        case .refused(let reason):
            return [Finding(.failure, check, "the broker refused the connection: \(reason)", fix: "check mqtt.username and the password")]
        case .unreachable(let reason), .disconnected(let reason):
            return [Finding(.failure, check, reason, fix: settings.tls ? "is the broker up, and does mqtt.cafile hold the CA that signed its certificate?" : "is the broker's address right, and is it up?")]
        case .message, nil:
            return [Finding(.failure, check, "no answer within \(Int(timeout)) s", fix: "is the broker's address right, and is it up?")]
        }
    }
}
