import ConditionsCore
import ConditionsJSON
import ConditionsMQTT
import Foundation
import Logging

/// What this replica knows of its Home Assistant devices and publishes when it is the
/// publisher and connected: each device's discovery and latest state, the replicas online
/// (their availability topics, which every discovery message lists), and the discovery
/// messages found on the broker (some to clear).
actor HomeAssistantDevices {
    let settings: MQTTSettings
    let devices: [HomeAssistantDevice]
    let client: MQTTClient
    let version: String
    let status: MQTTStatus
    let logger: Logger

    /// What each device's discovery was last made of, and its latest state.
    private var described: [String: HomeAssistantDevice.Description] = [:]
    private var states: [String: JSONValue] = [:]
    /// What was published since the last connection: discovery per device (as described), so
    /// an unchanged one is not sent again on every poll; emptied when the replicas change.
    private var published: [String: HomeAssistantDevice.Description] = [:]
    /// Replicas whose availability topic says `online`; this one always counts.
    private var replicas: Set<String>
    /// Retained discovery messages seen on the broker, by topic (cleared ones removed).
    private var found: [String: JSONValue] = [:]
    private var isConnected = false
    /// Why each device without a fresh answer has none, as last said.
    private var unanswered: [String: String] = [:]
    private var publisher: Bool

    init(settings: MQTTSettings, devices: [HomeAssistantDevice], client: MQTTClient, version: String, status: MQTTStatus, publisher: Bool,
         logger: Logger) {
        self.settings = settings
        self.devices = devices
        self.client = client
        self.version = version
        self.status = status
        self.publisher = publisher
        self.logger = logger
        replicas = [settings.replica]
        status.setPublisher(publisher)
    }

    var ownAvailability: String { HomeAssistantDevice.availabilityTopic(settings.replica, settings: settings) }

    // MARK: Events

    /// Connected (again): say this replica is online, subscribe, publish everything.
    func connected() {
        isConnected = true
        published = [:]
        client.publish(ownAvailability, Array("online".utf8), retain: true)
        client.subscribe("\(settings.discoveryPrefix)/status")
        client.subscribe("\(settings.discoveryPrefix)/device/+/config")
        client.subscribe("\(settings.baseTopic)/availability/+")
        publishAll()
    }

    func disconnected() { isConnected = false }

    /// A device's new answer: its entities (for discovery) and state.
    func answered(_ device: HomeAssistantDevice, description: HomeAssistantDevice.Description, state: JSONValue) {
        if unanswered.removeValue(forKey: device.objectID) != nil { logger.info("mqtt: \(device.urn) is answered again") }
        described[device.objectID] = description
        states[device.objectID] = state
        publish(device)
    }

    /// No fresh answer for a device: nothing is published (HA shows its entities unavailable
    /// once the last state expires); said once per reason, not every poll.
    func unanswered(_ device: HomeAssistantDevice, why: String) {
        guard unanswered[device.objectID] != why else { return }
        unanswered[device.objectID] = why
        let shown = described[device.objectID] == nil ? "its device is not published until it answers" : "its last state stands until it expires"
        logger.warning("mqtt: \(device.urn): \(why); \(shown)")
    }

    /// A message on a subscribed topic.
    func received(_ message: MQTTMessage) {
        let text = String(decoding: message.payload, as: UTF8.self)
        if message.topic == "\(settings.discoveryPrefix)/status" {
            // Home Assistant (re)started: it forgot every device that was not retained, and
            // asks for discovery again with its birth message.
            if text == "online" {
                published = [:]
                publishAll()
            }
        } else if message.topic.hasPrefix("\(settings.baseTopic)/availability/") {
            let replica = String(message.topic.dropFirst("\(settings.baseTopic)/availability/".count))
            guard MQTTSettings.isReplicaName(replica), replica != settings.replica else { return }
            let before = replicas
            if text == "online" { replicas.insert(replica) } else { replicas.remove(replica) }
            if replicas != before {
                // Every discovery message lists the replicas' availability topics.
                published = [:]
                publishAll()
            }
        } else if message.topic.hasPrefix("\(settings.discoveryPrefix)/device/") {
            if message.payload.isEmpty { found[message.topic] = nil } else if let payload = try? JSONValue.parse(Data(message.payload)) {
                found[message.topic] = payload
                clearAbandoned()
            }
        }
    }

    /// Whether this replica publishes (the fleet's lease); becoming the publisher publishes
    /// everything at once.
    func setPublisher(_ value: Bool) {
        guard value != publisher else { return }
        publisher = value
        status.setPublisher(value)
        logger.info("mqtt: \(value ? "this replica publishes the Home Assistant devices now" : "another replica publishes the Home Assistant devices")")
        if value {
            published = [:]
            publishAll()
        }
    }

    // MARK: Publishing

    private func publishAll() {
        for device in devices { publish(device) }
        clearAbandoned()
    }

    /// The device's discovery when it changed (or the replicas did), then its state.
    private func publish(_ device: HomeAssistantDevice) {
        guard publisher, isConnected, let description = described[device.objectID] else { return }
        if published[device.objectID] != description {
            let discovery = device.discovery(description, replicas: Array(replicas), settings: settings, version: version)
            if client.publish(device.configTopic, Array(discovery.serialized().utf8), retain: true) {
                published[device.objectID] = description
            }
        }
        if let state = states[device.objectID] {
            client.publish(device.stateTopic, Array(state.serialized().utf8), retain: true)
        }
    }

    /// Clears (an empty retained message) each discovery message `conditions` made for a URN no
    /// longer configured, and its state, so HA removes the device, even after a restart.
    private func clearAbandoned() {
        guard publisher, isConnected else { return }
        for (topic, payload) in found where HomeAssistantDevice.isAbandoned(topic: topic, payload: payload, configured: devices, settings: settings) {
            guard client.publish(topic, [], retain: true) else { continue }
            if let stateTopic = (payload["state_topic"] ?? payload["stat_t"])?.stringValue {
                client.publish(stateTopic, [], retain: true)
            }
            logger.info("mqtt: removed \(payload["device"]?["model"]?.stringValue ?? topic) from Home Assistant (no longer in mqtt.urns)")
            found[topic] = nil
        }
    }
}
