import ConditionsCore
import ConditionsMQTT
import ConditionsServer

/// What `serve` needs of the `mqtt` section: the broker, its password resolved from the
/// environment or `passwordFile` (and kept out of every line this process writes).
enum HomeAssistantSetup {
    /// The connection to publish Home Assistant devices over; nil without an `mqtt` section.
    /// A variable not set, a password file not readable or libmosquitto missing is a
    /// configuration failure (exit 2) naming it.
    static func connection(runtime: Runtime, environment: [String: String]) throws(Failure) -> HomeAssistantConnection? {
        guard let settings = runtime.configuration.mqtt else { return nil }
        let broker: MQTTBroker
        do { broker = try settings.broker(environment: environment) } catch { throw Failure.configuration(error) }
        if let password = broker.password, !password.isEmpty { LogSetup.secrets.withLock { _ = $0.insert(password) } }
        if let reason = MQTTClient.unavailable { throw Failure.usage("mqtt: \(reason)") }
        return HomeAssistantConnection(settings: settings, broker: broker)
    }
}
