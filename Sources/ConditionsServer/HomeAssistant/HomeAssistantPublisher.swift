import ConditionsCore
import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsMQTT
import Foundation
import Logging
import ServiceLifecycle

/// `serve`'s Home Assistant devices (docs/home-assistant.md): each URN of the `mqtt` section
/// polled with the notifications' poller, its entities published over MQTT discovery, its state
/// retained on its state topic every poll and on every change any replica records.
///
/// Availability: this replica's topic says `online` while connected and `offline` as the
/// broker's last will, so a killed server leaves every entity unavailable. In a fleet every
/// replica polls and keeps the states, but one publishes (a lease in PostgreSQL, renewed every
/// few seconds; another takes over within 1.2 × `leaseSeconds` of its death); each replica has its own
/// availability topic, all listed in discovery with `availability_mode: any`.
package struct HomeAssistantPublisher: Service {
    /// The broker refused the connection before it was ever accepted (bad credentials, not
    /// authorised): a configuration failure, exit 2.
    package struct Refused: Error, CustomStringConvertible {
        package let description: String
    }

    /// How long the publishing replica's lease lasts without renewal; the others look every
    /// fifth of it, so a dead publisher is replaced within 1.2 times this.
    static let leaseSeconds: Double = 10

    let settings: MQTTSettings
    let broker: MQTTBroker
    let server: ConditionsServer
    let status: MQTTStatus
    let devices: [HomeAssistantDevice]

    /// A publisher over `connection` for `server`.
    init(connection: HomeAssistantConnection, server: ConditionsServer) {
        settings = connection.settings
        broker = connection.broker
        status = connection.status
        self.server = server
        devices = HomeAssistantDevice.devices(for: settings.urns(report: server.runtime.configuration.report), settings: settings)
    }

    /// Seconds between polls of `urn`: the setting's `every`, else the larger of its instance's
    /// TTL and 60 s. A state older than three times this (at least a minute) shows as
    /// unavailable in HA.
    func interval(of urn: String) -> Double {
        settings.every ?? max(server.coordinator.ttl(of: urn), 60)
    }

    package func run() async throws {
        let logger = server.logger
        let availability = HomeAssistantDevice.availabilityTopic(settings.replica, settings: settings)
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let client: MQTTClient
        do {
            client = try MQTTClient(broker: broker, clientID: "conditions-\(settings.replica)-\(suffix)",
                                    will: MQTTMessage(topic: availability, payload: Array("offline".utf8), retained: true))
        } catch {
            throw Refused(description: "mqtt: \(broker.address): \(error)")
        }
        let state = HomeAssistantDevices(settings: settings, devices: devices, client: client, version: Version.current, status: status,
                                         publisher: server.fleet == nil, logger: logger)
        logger.info("mqtt: publishing \(devices.count) Home Assistant device(s) to \(broker.address) as replica \(settings.replica)")
        client.start()
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await follow(client, state) }
                    for device in devices { group.addTask { await poll(device, state) } }
                    for feed in server.changeFeeds { group.addTask { await hear(feed, state) } }
                    if let fleet = server.fleet { group.addTask { await lead(fleet, state) } }
                    // The events end only when the client does, or throw when refused.
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            await client.stop()
            throw error
        }
        // A clean goodbye: the will is dropped, so say offline ourselves.
        await client.stop(goodbye: MQTTMessage(topic: availability, payload: Array("offline".utf8), retained: true))
    }

    /// The client's events: connections, refusals, messages.
    func follow(_ client: MQTTClient, _ state: HomeAssistantDevices) async throws {
        let logger = server.logger
        var everConnected = false
        var lastProblem: String?
        for await event in client.events {
            switch event {
            case .connected:
                if everConnected { logger.info("mqtt: connected to \(broker.address) again") } else {
                    logger.info("mqtt: connected to \(broker.address)")
                }
                everConnected = true
                lastProblem = nil
                status.set(.connected)
                await state.connected()
            case .refused(let reason):
                let line = "mqtt: \(broker.address) refused the connection: \(reason)"
                guard everConnected else { throw Refused(description: line) }
                if lastProblem != line { logger.error("\(line); trying again") }
                lastProblem = line
                status.set(.unavailable(reason))
            case .unreachable(let reason), .disconnected(let reason):
                await state.disconnected()
                let line = "mqtt: \(broker.address): \(reason)"
                if lastProblem != line { logger.warning("\(line); trying again with backoff") }
                lastProblem = line
                status.set(.unavailable(reason))
            case .message(let message):
                await state.received(message)
            }
        }
    }

    /// Polls `device`'s URN, giving each fresh answer's entities and state to `state`. A failed
    /// or stale answer publishes nothing: HA shows the entities unavailable once the last state
    /// is three polls old, rather than an old value as current.
    func poll(_ device: HomeAssistantDevice, _ state: HomeAssistantDevices) async {
        let every = interval(of: device.urn)
        await URNPoller(coordinator: server.coordinator).poll(device.urn, every: every) { answer in
            await publish(answer, device: device, every: every, state)
        }
    }

    func publish(_ answer: ResultCoordinator.Answer, device: HomeAssistantDevice, every: Double, _ state: HomeAssistantDevices) async {
        let fetchedAt: Date, data: JSONValue
        switch answer.record.outcome {
        case .success(_, _, let at, let value, nil):
            fetchedAt = at
            data = value
        case .success(_, _, _, _, .some(let age)):
            return await state.unanswered(device, why: "only a stale answer (\(Int(age)) s old)")
        case .failure(_, let message, _):
            return await state.unanswered(device, why: message)
        }
        let catalog = server.runtime.catalog
        let place = server.runtime.configuration.place
        let context = TextRenderer(catalog: catalog, style: .plain, timeZone: place.timeZone ?? .current, placeName: place.name)
            .context(urn: device.urn, place: place)
        let presentation = catalog.presentation(for: answer.record.kind)
        let entities = presentation.entities(data, context: context)
        let title = presentation.card(data, context: context).title
        // Three polls, and never under a minute: a fleet's takeover (up to 12 s) must not expire
        // the states the last publisher left.
        let description = HomeAssistantDevice.Description(name: title.isEmpty ? device.urn : title, entities: entities,
                                                          expireAfter: max(60, Int((every * 3).rounded(.up))))
        await state.answered(device, description: description,
                             state: HomeAssistantDevice.state(entities, urn: device.urn, fetchedAt: fetchedAt))
    }

    /// A change recorded for a device's URN (by any client's request, or another replica) is
    /// published at once, not at the next poll.
    func hear(_ feed: any ChangeFeed, _ state: HomeAssistantDevices) async {
        for await change in feed.changes() {
            for device in devices where device.urn == change.urn {
                await publish(await server.coordinator.resolve(device.urn), device: device, every: interval(of: device.urn), state)
            }
        }
    }

    /// In a fleet: hold the publishing lease while alive (renewed five times per lease), or
    /// wait for it. While the database does not answer every replica publishes: the same
    /// retained states from two replicas for a while are harmless, none publishing is not.
    func lead(_ fleet: FleetDatabase, _ state: HomeAssistantDevices) async {
        let key = "mqtt:\(settings.discoveryPrefix):\(settings.baseTopic)"
        while !Task.isCancelled {
            await state.setPublisher(await fleet.hold(key, for: Self.leaseSeconds) ?? true)
            try? await Task.sleep(for: .seconds(Self.leaseSeconds / 5))
        }
    }
}
