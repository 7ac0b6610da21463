import ArgumentParser
import ConditionsCore
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// `conditions config path|show|init`: which config is in use, what it says once its profile
/// is applied, a copy of the built-in default to edit, and a module's sample config
/// (docs/configuration.md).
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Say which config is in use, print it, or write the built-in default for editing.",
        discussion: """
        Lookup order: --config, $CONDITIONS_CONFIG, ./sources.json, $XDG_CONFIG_HOME/conditions/sources.json \
        (~/.config/conditions/sources.json), /etc/conditions/sources.json, else the built-in default. \
        A file that is found replaces the default entirely.

        \(HelpExamples.block([
            ("conditions config path", "the file in use, or \"built-in\""),
            ("conditions config show --profile offline", "the effective config, masked"),
            ("conditions config init", "a copy to edit, in ~/.config"),
            ("conditions config init --module \(Init.exampleModule)", "a module's sample config, printed"),
        ]))
        """,
        subcommands: [Path.self, Show.self, Init.self])

    /// `config path`: the file in use, or "built-in".
    struct Path: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "path", abstract: "Print the config file in use, or \"built-in\" when none is found.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let file: ConfigFile
            do { file = try global.configFile() } catch { throw Failure.configuration(error) }
            write((file.isBuiltIn ? "built-in" : file.url.path) + "\n", to: .standardOutput)
        }
    }

    /// `config show`: the effective config as JSON, secrets masked.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the effective config: the profile applied, `profiles` left out, secrets masked.",
            discussion: "`${ENV}` references are shown as written, never their values; a secret option written literally shows as REDACTED.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let file: ConfigFile
            let configuration: Configuration
            do {
                file = try global.configFile()
                configuration = try global.loadConfiguration(from: file)
            } catch { throw Failure.configuration(error) }
            var document = Configuration.effectiveDocument(file, profile: configuration.profile)
            document["serve"] = document["serve"].map(Self.maskingToken)
            let secrets = Runtime.secrets(in: configuration, catalog: global.catalog, environment: global.environment)
            // Longest first, so a secret containing another is masked whole.
            let text = secrets.sorted { $0.count > $1.count }.reduce(JSONValue.object(document).serialized(pretty: true)) { text, secret in
                text.replacingOccurrences(of: JSONValue.string(secret).serialized().dropFirst().dropLast(), with: Redaction.mask)
            }
            write(text + "\n", to: .standardOutput)
        }

        /// `serve.token` written literally is a secret; `${ENV}` is not.
        static func maskingToken(_ serve: JSONValue) -> JSONValue {
            guard var object = serve.objectValue, let token = object["token"]?.stringValue, !token.contains("${") else { return serve }
            object["token"] = .string(Redaction.mask)
            return .object(object)
        }
    }

    /// `config init [--force]`: the built-in default, written where the lookup finds it;
    /// `config init --module NAME`: that module's sample config, printed.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Write the built-in default to $XDG_CONFIG_HOME/conditions/sources.json (~/.config/conditions/sources.json) for editing.",
            discussion: """
            Never overwrites a file unless --force is given. The written file replaces the built-in default from then on.

            With --module, nothing is written: the module's sample config, a {"sources": …, "routes": …} fragment \
            showing its options (secrets as ${ENV}), is printed to standard output to merge into a config.

            \(HelpExamples.block([
                ("conditions config init", "~/.config/conditions/sources.json"),
                ("conditions config init --module \(exampleModule)", "its sample sources and routes, printed"),
            ]))
            """)

        /// A registered module with a sample, for the examples: the help names only what this build links.
        static let exampleModule = GlobalOptions.registered.modules.first { $0.sampleConfig != nil }?.moduleName ?? "Name"

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Overwrite a config file already there.")
        var force = false

        @Option(help: ArgumentHelp("Print this module's sample config to standard output instead of writing a file.", valueName: "name"))
        var module: String?

        func run() throws {
            if let module {
                write(try Self.sample(of: module, in: global.catalog), to: .standardOutput)
                return
            }
            let target = ConfigFile.userFile(environment: global.environment)
            let manager = FileManager.default
            if manager.fileExists(atPath: target.path), !force {
                throw Failure.usage("config init: \(target.path) exists; edit it, or pass --force to replace it with the built-in default")
            }
            do {
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                // Written beside and renamed, so a reader never sees half a file.
                try GlobalOptions.builtInConfigText.write(to: target, options: .atomic)
            } catch {
                throw Failure.usage("config init: cannot write \(target.path): \(error.localizedDescription)")
            }
            write("wrote \(target.path)\n", to: .standardOutput)
        }

        /// The sample config of the module called `name` (in any case), ending in a newline; an
        /// unknown name, or a module without a sample, is a one-line usage error.
        static func sample(of name: String, in catalog: SourceCatalog) throws -> String {
            let module = catalog.module(named: name) ?? {
                let matches = catalog.modules.filter { $0.moduleName.lowercased() == name.lowercased() }
                return matches.count == 1 ? matches[0] : nil
            }()
            guard let module else {
                let close = Suggestions.closest(to: name, among: catalog.moduleNames)
                throw Failure.usage("config init: unknown module \"\(name)\"" + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)")
                                    + "; modules: \(catalog.moduleNames.joined(separator: ", "))")
            }
            guard let sample = module.sampleConfig, !sample.isEmpty else {
                throw Failure.usage("config init: module \(module.moduleName) has no sample config; its README describes its options")
            }
            return sample.hasSuffix("\n") ? sample : sample + "\n"
        }
    }
}
