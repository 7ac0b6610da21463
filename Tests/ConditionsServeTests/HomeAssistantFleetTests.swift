import Foundation
import TestHarness
import Testing

/// Two `conditions serve` replicas on one PostgreSQL publishing the same Home Assistant
/// devices: one publishes (a lease), each has its own availability topic listed in discovery
/// with `availability_mode: any`, and when the publisher is SIGKILLed the other takes over while
/// the availability HA computes from the recorded topics never drops (Tests/HomeAssistant/availability.py).
@Suite(.serialized) struct HomeAssistantFleetTests {
    typealias Serve = HomeAssistantServeTests

    @Test func oneReplicaPublishesAndAnotherTakesOverWhenItIsKilled() async throws {
        try await MosquittoBroker.with(authenticated: true) { broker in
            let recorder = try await MQTTRecorder(broker)
            defer { recorder.stop() }
            // What was recorded up to the test's own shutdown of the survivor.
            var recorded = 0
            try await PostgresCluster.with { cluster in
                let url = "postgres://\(cluster.user):${FLEET_PG_PASSWORD}@127.0.0.1:\(cluster.port)/\(cluster.database)?sslmode=disable"
                let dir = try Serve.moonConfig(broker, urns: ["moon:now"], replica: "a",
                                               extra: #", "history": {"url": "\#(url)"}, "profiles": {"b": {"mqtt": {"replica": "b"}}}"#)
                defer { try? FileManager.default.removeItem(at: dir) }
                func environment(_ name: String) -> [String: String] {
                    let own = dir.appendingPathComponent("replica-\(name)")
                    return ["FLEET_PG_PASSWORD": cluster.password, "MQTT_PASSWORD": broker.password,
                            "XDG_STATE_HOME": own.appendingPathComponent("state").path, "XDG_CACHE_HOME": own.appendingPathComponent("cache").path]
                }
                let config = Serve.config("moon:now")
                func listed() -> Set<String> {
                    let availability = recorder.last(on: config)?["availability"] as? [[String: Any]] ?? []
                    return Set(availability.compactMap { $0["topic"] as? String })
                }
                func publishing(_ server: ServeProcess) async -> Bool {
                    let ready = (try? Upstream.json(try await server.request("/readyz").body)) ?? [:]
                    return (ready["mqtt"] as? [String: Any])?["publishing"] as? Bool == true
                }
                let a = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: environment("a")) { first in
                    let b = try await ServeProcess.with(["--listen", "127.0.0.1:0", "--profile", "b"], in: dir, environment: environment("b")) { second in
                        // Both online, both listed, one publishing.
                        #expect(await Serve.eventually { listed() == ["conditions/availability/a", "conditions/availability/b"] }, "\(listed())")
                        var publishers: [ServeProcess] = []
                        #expect(await Serve.eventually {
                            publishers = []
                            for server in [first, second] where await publishing(server) { publishers.append(server) }
                            return publishers.count == 1
                        })
                        let publisher = try #require(publishers.first)
                        let survivor = publisher.pid == first.pid ? second : first
                        let survivorName = publisher.pid == first.pid ? "b" : "a"
                        let seen = recorder.messages.count

                        kill(publisher.pid, SIGKILL)
                        // The other takes over within the lease and says so by publishing discovery
                        // without the dead replica, and the state again.
                        #expect(await Serve.eventually { await publishing(survivor) })
                        #expect(await Serve.eventually { listed() == ["conditions/availability/\(survivorName)"] }, "\(listed())")
                        #expect(await Serve.eventually { recorder.messages.dropFirst(seen).contains { $0.topic == Serve.state("moon:now") } })
                        recorded = recorder.messages.count
                    }
                    #expect(b.status == 0 || b.status == 128 + SIGKILL, "\(b.stderr)")
                }
                #expect(a.status == 0 || a.status == 128 + SIGKILL, "\(a.stderr)")
            }
            // What HA would have shown, up to the survivor's shutdown: the availability topics
            // (mode any) never made the device unavailable. The only drops are HA's own on a
            // changed discovery message (an entity with expire_after waits for its next state),
            // each ended by the state published right after it (other topics' messages may come
            // between the two).
            let lines = try String(contentsOf: recorder.file, encoding: .utf8).split(separator: "\n").prefix(recorded)
            let replay = try await CLI.runProgram(MQTTRecorder.python,
                                                  [MQTTRecorder.scripts.appendingPathComponent("availability.py").path, "--device",
                                                   Serve.objectID("moon:now"), "--json"],
                                                  in: MQTTRecorder.scripts, environment: ["PATH": "/usr/bin:/bin"],
                                                  stdin: lines.joined(separator: "\n") + "\n", timeout: 120)
            let verdict = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any], "\(replay.stderr)")
            let components = try #require(verdict["components"] as? [String: [String: Any]])
            #expect(!components.isEmpty)
            for (name, component) in components {
                #expect(component["available_at_end"] as? Bool == true, "\(name)")
                let changes = component["changes"] as? [[String: Any]] ?? []
                for (position, change) in changes.enumerated() where change["available"] as? Bool == false && position > 0 {
                    #expect(change["reason"] as? String == "discovery", "\(name) unavailable: \(change)")
                    let next = position + 1 < changes.count ? changes[position + 1] : [:]
                    #expect(next["available"] as? Bool == true && next["reason"] as? String == "message on \(Serve.state("moon:now"))",
                            "\(name): the state that follows its discovery ends it: \(changes)")
                }
            }

        }
    }
}
