import Foundation
import TestHarness
import Testing

/// `conditions serve` publishing Home Assistant devices (docs/home-assistant.md), through the
/// binary, to a real Mosquitto broker started per test, watched by a real paho-mqtt subscriber;
/// every discovery message checked against HA's documented schema (Tests/HomeAssistant).
@Suite(.serialized) struct HomeAssistantServeTests {
    /// The shipped sources.json with the offline profile's fixtures (copied, so a test can close
    /// a pass) and an `mqtt` section.
    static func shippedConfig(mqtt: String) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("sources.json"), encoding: .utf8)
        guard var root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
        root["mqtt"] = try JSONSerialization.jsonObject(with: Data(mqtt.utf8))
        try JSONSerialization.data(withJSONObject: root).write(to: dir.appendingPathComponent("sources.json"))
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Fixtures"), to: dir.appendingPathComponent("Fixtures"))
        return dir
    }

    /// The report list of the shipped config.
    static func reportURNs() throws -> [String] {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("sources.json"), encoding: .utf8)
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["report"] as? [String] ?? []
    }

    /// `conditions_pass_snoqualmie`.
    static func objectID(_ urn: String) -> String {
        "conditions_" + String(urn.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
    }

    /// Tests/HomeAssistant/check-discovery.py over everything recorded: each discovery message
    /// against HA's schema, each value template rendered against its state.
    static func checkDiscovery(_ recorder: MQTTRecorder) async throws -> CLI.Output {
        try await CLI.runProgram(MQTTRecorder.python, [MQTTRecorder.scripts.appendingPathComponent("check-discovery.py").path],
                                 in: MQTTRecorder.scripts, environment: ["PATH": "/usr/bin:/bin"],
                                 stdin: try String(contentsOf: recorder.file, encoding: .utf8), timeout: 120)
    }

    /// Polls `condition` until it holds; suspends between polls. The two minutes only decide
    /// how long a failing test waits.
    static func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while try await !condition() {
            if Date() >= deadline { return false }  // wall-clock-ok: a hang guard: it ends when the condition holds, 2 min after a hang
            try? await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    static func publish(_ broker: MosquittoBroker, _ topic: String, _ payload: String) async throws {
        let out = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/mosquitto_pub"),
                                           ["-h", "127.0.0.1", "-p", String(broker.port), "-u", broker.username, "-P", broker.password,
                                            "-t", topic, "-m", payload], in: broker.folder, environment: [:], timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
    }

    @Test func theShippedConfigPublishesADevicePerReportURNAndAPassClosingTurnsClosedOn() async throws {
        try await MosquittoBroker.with(authenticated: true) { broker in
        let recorder = try await MQTTRecorder(broker)
        defer { recorder.stop() }
        let dir = try Self.shippedConfig(mqtt: #"{"url": "\#(broker.url)", "username": "conditions", "password": "${MQTT_PASSWORD}", "every": "1s", "replica": "shipped"}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let urns = try Self.reportURNs()
        try #require(urns.contains("pass:snoqualmie"))
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0", "--profile", "offline"], in: dir,
                                                environment: ["MQTT_PASSWORD": broker.password]) { server in
            // A device per report URN, each with its state.
            #expect(await Self.eventually {
                urns.allSatisfy { recorder.last(on: "homeassistant/device/\(Self.objectID($0))/config") != nil
                    && recorder.last(on: "conditions/\(Self.objectID($0))/state") != nil }
            }, "\(recorder.messages.map(\.topic))")
            let check = try await Self.checkDiscovery(recorder)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            #expect(check.stdout.contains("ok \(urns.count) devices"), "\(check.stdout)")

            let stateTopic = "conditions/\(Self.objectID("pass:snoqualmie"))/state"
            let device = try #require(recorder.last(on: "homeassistant/device/\(Self.objectID("pass:snoqualmie"))/config"))
            #expect((device["device"] as? [String: Any])?["name"] as? String == "Snoqualmie Pass I-90")
            #expect(recorder.last(on: stateTopic)?["closed"] as? String == "OFF")

            // The pass closes (a recording of Snoqualmie with WSDOT's closure wording in the
            // eastbound restriction, derived from the real fixture): `closed` turns on, saying why.
            let fixture = dir.appendingPathComponent("Fixtures/pass/snoqualmie.json")
            let closedText = try String(contentsOf: fixture, encoding: .utf8)
                .replacingOccurrences(of: #""direction":"Eastbound","text":"Traction tires advised, oversize vehicles prohibited.","status":"restricted""#,
                                      with: #""direction":"Eastbound","text":"Pass closed due to multiple spin outs.","status":"closed""#)
            try #require(closedText.contains("Pass closed"))
            try closedText.write(to: fixture, atomically: true, encoding: .utf8)
            #expect(await Self.eventually { recorder.last(on: stateTopic)?["closed"] as? String == "ON" },
                    "\(recorder.messages(on: stateTopic).last?.payload ?? "none")")
            let state = try #require(recorder.last(on: stateTopic))
            #expect(state["status"] as? String == "closed")
            let closedBy = ((state["attributes"] as? [String: Any])?["closed"] as? [String: Any])?["closedBy"]
            #expect("\(closedBy ?? "")".contains("Pass closed"), "\(state)")

            // Killed: the broker publishes the will, and every entity is unavailable.
            let availability = "conditions/availability/shipped"
            #expect(recorder.messages(on: availability).last?.payload == "online")
            kill(server.pid, SIGKILL)
            #expect(await Self.eventually { recorder.messages(on: availability).last?.payload == "offline" })
        }
        #expect(ended.status == 128 + SIGKILL, "\(ended.stderr)")
        }
    }

    /// A config answering `moon:` and `phases:` from the Astronomy module, publishing `urns`.
    static func moonConfig(_ broker: MosquittoBroker, urns: [String], replica: String = "one", extra: String = "") throws -> URL {
        let list = urns.map { "\"\($0)\"" }.joined(separator: ", ")
        let credentials = broker.tls ? #""cafile": "\#(broker.caFile.path)""# : #""username": "conditions", "password": "${MQTT_PASSWORD}""#
        return try Upstream.config(sources: #""sky": {"module": "Astronomy"}"#, routes: #""moon": "sky", "phases": "sky""#,
                                   extra: #", "mqtt": {"url": "\#(broker.url)", \#(credentials), "every": "1s", "replica": "\#(replica)", "urns": [\#(list)]}\#(extra)"#)
    }

    static func config(_ urn: String) -> String { "homeassistant/device/\(objectID(urn))/config" }
    static func state(_ urn: String) -> String { "conditions/\(objectID(urn))/state" }

    @Test func homeAssistantsBirthABrokerRestartAndAURNRemoved() async throws {
        try await MosquittoBroker.with(authenticated: true) { broker in
            let recorder = try await MQTTRecorder(broker)
            defer { recorder.stop() }
            let dir = try Self.moonConfig(broker, urns: ["moon:now", "phases:3"])
            defer { try? FileManager.default.removeItem(at: dir) }
            let environment = ["MQTT_PASSWORD": broker.password]
            let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0", "-v"], in: dir, environment: environment) { server in
                #expect(await Self.eventually { recorder.last(on: Self.config("phases:3")) != nil && recorder.last(on: Self.state("moon:now")) != nil })
                let ready = try Upstream.json(try await server.request("/readyz").body)
                let mqtt = try #require(ready["mqtt"] as? [String: Any])
                #expect(mqtt["connected"] as? Bool == true && mqtt["publishing"] as? Bool == true, "\(ready)")

                // HA restarted: its birth message asks for discovery again.
                let before = recorder.messages(on: Self.config("moon:now")).count
                try await Self.publish(broker, "homeassistant/status", "online")
                #expect(await Self.eventually { recorder.messages(on: Self.config("moon:now")).count > before })

                // The broker restarted (its retained messages lost): discovery, states and
                // availability come back once the server has reconnected.
                let seen = recorder.messages.count
                try await broker.restart()
                #expect(await Self.eventually {
                    let after = recorder.messages.dropFirst(seen)
                    return [Self.config("moon:now"), Self.config("phases:3"), Self.state("moon:now"), "conditions/availability/one"]
                        .allSatisfy { topic in after.contains { $0.topic == topic && !$0.payload.isEmpty } }
                }, "\(recorder.messages.dropFirst(seen).map(\.topic))")
                #expect(recorder.messages(on: "conditions/availability/one").last?.payload == "online")
                // Said on stderr, which reaches the test on its own pipe, maybe after the messages.
                #expect(await Self.eventually { server.stderrSoFar().contains("connected to \(broker.url) again") }, "\(server.stderrSoFar())")
            }
            #expect(ended.status == 0, "\(ended.stderr)")
            // A clean stop says offline itself.
            #expect(recorder.messages(on: "conditions/availability/one").last?.payload == "offline")

            // phases:3 no longer configured: the next start clears its discovery and state.
            let fewer = try Self.moonConfig(broker, urns: ["moon:now"])
            try FileManager.default.copyItem(at: fewer.appendingPathComponent("sources.json"), to: dir.appendingPathComponent("sources-fewer.json"))
            try? FileManager.default.removeItem(at: fewer)
            let again = try await ServeProcess.with(["--listen", "127.0.0.1:0", "-v", "--config", "sources-fewer.json"], in: dir, environment: environment) { _ in
                #expect(await Self.eventually { recorder.messages(on: Self.config("phases:3")).last?.payload == "" },
                        "\(recorder.messages(on: Self.config("phases:3")).map(\.payload.count))")
                #expect(await Self.eventually { recorder.messages(on: Self.state("phases:3")).last?.payload == "" })
                #expect(recorder.last(on: Self.config("moon:now")) != nil, "the configured device stays")
            }
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("removed phases:3 from Home Assistant"), "\(again.stderr)")
        }
    }

    @Test func aWrongPasswordIsOneLineAndExit2() async throws {
        try await MosquittoBroker.with(authenticated: true) { broker in
            let dir = try Self.moonConfig(broker, urns: ["moon:now"])
            defer { try? FileManager.default.removeItem(at: dir) }
            let out = try await CLI.run(["serve", "--listen", "127.0.0.1:0", "--config", dir.appendingPathComponent("sources.json").path],
                                        in: dir, environment: ["MQTT_PASSWORD": "not-" + broker.password], timeout: 60)
            #expect(out.status == 2, "\(out.stderr)")
            let lines = out.stderr.split(separator: "\n").filter { $0.hasPrefix("conditions: ") && !$0.contains("listening on") }
            #expect(lines.count == 1, "\(out.stderr)")
            #expect(lines.first?.contains("\(broker.url) refused the connection: ") == true, "\(out.stderr)")
            #expect(!out.stderr.contains(broker.password), "the password never shows")
        }
    }

    @Test func overTLSWithTheBrokersCAAndNotWithAnother() async throws {
        try await MosquittoBroker.with(tls: true) { broker in
            let recorder = try await MQTTRecorder(broker)
            defer { recorder.stop() }
            let dir = try Self.moonConfig(broker, urns: ["moon:now", "moon:garbage"])
            defer { try? FileManager.default.removeItem(at: dir) }
            let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
                #expect(await Self.eventually { recorder.last(on: Self.state("moon:now")) != nil })
                // A URN that does not answer is said once, and its device waits for an answer.
                #expect(await Self.eventually { server.stderrSoFar().contains("mqtt: moon:garbage: ") })
            }
            #expect(ended.status == 0, "\(ended.stderr)")
            #expect(ended.stderr.components(separatedBy: "mqtt: moon:garbage: ").count == 2, "once, not every poll: \(ended.stderr)")
            #expect(ended.stderr.contains("its device is not published until it answers"))
            #expect(recorder.messages(on: Self.config("moon:garbage")).isEmpty)

            // A CA that did not sign the broker's certificate: the server runs, retries, and
            // /readyz and doctor say why.
            var text = try String(contentsOf: dir.appendingPathComponent("sources.json"), encoding: .utf8)
            text = text.replacingOccurrences(of: broker.caFile.path, with: broker.otherCAFile.path)
            try text.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
            let other = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
                #expect(await Self.eventually {
                    let ready = (try? Upstream.json(try await server.request("/readyz").body)) ?? [:]
                    let mqtt = ready["mqtt"] as? [String: Any]
                    return mqtt?["connected"] as? Bool == false && (mqtt?["reason"] as? String ?? "connecting") != "connecting"
                })
            }
            #expect(other.status == 0, "\(other.stderr)")
            let doctor = try await CLI.run(["doctor", "--config", dir.appendingPathComponent("sources.json").path], in: dir, timeout: 60)
            #expect(doctor.status != 0)
            #expect(doctor.stdout.contains("mqtt → \(broker.url)"), "\(doctor.stdout)")
        }
    }

    @Test func aBrokerDownAtStartIsRetriedAndSaidSo() async throws {
        try await MosquittoBroker.with(authenticated: true) { broker in
            await broker.halt()
            let dir = try Self.moonConfig(broker, urns: ["moon:now"])
            defer { try? FileManager.default.removeItem(at: dir) }
            let environment = ["MQTT_PASSWORD": broker.password]
            let doctor = try await CLI.run(["doctor", "--config", dir.appendingPathComponent("sources.json").path], in: dir,
                                           environment: environment, timeout: 60)
            #expect(doctor.status != 0 && doctor.stdout.contains("mqtt → \(broker.url)"), "\(doctor.stdout)")
            let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: environment) { server in
                #expect(await Self.eventually {
                    let ready = (try? Upstream.json(try await server.request("/readyz").body)) ?? [:]
                    return (ready["mqtt"] as? [String: Any])?["connected"] as? Bool == false && ready["ready"] as? Bool == true
                })
                try await broker.start()
                let recorder = try await MQTTRecorder(broker)
                defer { recorder.stop() }
                #expect(await Self.eventually { recorder.last(on: Self.state("moon:now")) != nil })
                #expect(await Self.eventually {
                    let ready = (try? Upstream.json(try await server.request("/readyz").body)) ?? [:]
                    return (ready["mqtt"] as? [String: Any])?["connected"] as? Bool == true
                })
            }
            #expect(ended.status == 0, "\(ended.stderr)")
            let connected = try await CLI.run(["doctor", "--config", dir.appendingPathComponent("sources.json").path], in: dir,
                                              environment: environment, timeout: 60)
            #expect(connected.stdout.contains("connected as conditions"), "\(connected.stdout)")
        }
    }
}
