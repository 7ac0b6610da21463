import ConditionsCore
import ConditionsMQTT
import Synchronization

/// What `serve` publishes Home Assistant devices with: the `mqtt` section, the broker (its
/// password resolved) and the connection's status.
package struct HomeAssistantConnection: Sendable {
    package let settings: MQTTSettings
    package let broker: MQTTBroker
    package let status: MQTTStatus

    package init(settings: MQTTSettings, broker: MQTTBroker) {
        self.settings = settings
        self.broker = broker
        status = MQTTStatus(broker: broker.address)
    }
}

/// How `serve`'s connection to the MQTT broker is, for `/readyz` and `/metrics`.
package final class MQTTStatus: Sendable {
    package enum State: Sendable, Equatable {
        case connecting
        case connected
        /// Not connected, and why (the broker unreachable, the connection lost); retried.
        case unavailable(String)
    }

    /// `mqtts://broker.lan:8883`.
    package let broker: String
    private let state = Mutex(State.connecting)
    private let publisher = Mutex(false)

    package init(broker: String) { self.broker = broker }

    package var current: State { state.withLock { $0 } }
    package func set(_ new: State) { state.withLock { $0 = new } }

    /// Whether this replica is the one publishing (always, without a fleet).
    package var isPublisher: Bool { publisher.withLock { $0 } }
    package func setPublisher(_ value: Bool) { publisher.withLock { $0 = value } }
}
