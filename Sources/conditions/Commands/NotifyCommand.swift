import ArgumentParser
import ConditionsCore
import ConditionsKit
import ConditionsText
import Foundation
import Logging

/// `conditions notify`: the `notify` section's targets, tried by hand.
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Send a test notice to a target of the config's \"notify\" section.",
        discussion: """
        Targets (ntfy topics, signed webhooks, Apprise services) and the rules saying which URNs' \
        notices go where live in sources.json's "notify" section; every secret is written \
        ${VARIABLE}. 'conditions watch --notify TARGET' and 'conditions serve' send what each \
        change is worth telling. See docs/notifications.md.

        \(HelpExamples.block([
            ("conditions notify test phone", "a test notice; says what the target answered"),
            ("NTFY_TOKEN=tk_… conditions notify test phone", nil),
        ]))
        """,
        subcommands: [Test.self])

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Send a test notice (priority 3) to TARGET and print what it answered; exit 1 when it failed.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("A target of notify.targets.", valueName: "target"))
        var target: String

        func run() async throws {
            let logger = LogSetup.makeLogger(level: global.logLevel)
            let runtime: Runtime
            do { runtime = try global.loadRuntime(logger: logger) } catch { throw Failure.configuration(error) }
            let resolved = try NotifySetup.targets([target], settings: runtime.configuration.notify, environment: global.environment)[0]
            let now = Date()
            let notice = Notice(title: "Conditions: a test notice", body: "Sent by 'conditions notify test \(target)' at \(Timestamp.string(from: now)).",
                                priority: .normal, tags: ["white_check_mark", "test"])
            let delivery = NoticeDelivery(changeID: "test\(Int(now.timeIntervalSince1970))", urn: "notify:test", target: target, notice: notice,
                                          before: .null, after: .null, at: now)
            let sender = NoticeSender(http: HTTPClients.make(version: Version.current, logger: logger)(HTTPLimits()))
            switch await sender.send(delivery, to: resolved, now: now) {
            case .delivered(let detail):
                write("ok: \(target): \(detail)\n", to: .standardOutput)
            case .retry(let reason, _), .failed(let reason):
                write("conditions: notify test \(target): \(reason)\n", to: .standardError)
                throw ExitCode(1)
            }
        }
    }
}
