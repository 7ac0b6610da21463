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
}
