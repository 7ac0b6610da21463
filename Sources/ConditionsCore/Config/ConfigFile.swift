import ConditionsJSON
import ConditionsKit
import Foundation

/// Finds and reads `sources.json`, turning JSON syntax errors into `file:line:column` messages.
package struct ConfigFile {
    /// Where the config was read from; for the built-in default, a `sources.json` in the
    /// folder its relative paths resolve against (`directory`), which need not exist.
    package let url: URL
    /// The parsed top-level object, keys in file order.
    package private(set) var root: JSONObject
    /// Whether this is the default compiled into the program, no file at all.
    package var isBuiltIn = false

    /// The folder holding the config; relative paths in it resolve against this.
    package var directory: URL { url.deletingLastPathComponent() }

    /// How messages name it: the file's path, or "built-in config".
    package var name: String { isBuiltIn ? Self.builtInName : url.path }

    /// How messages name the default compiled into the program.
    package static let builtInName = "built-in config"

    /// The system-wide config, a Debian package's conffile: step 5 of the lookup.
    package static let systemFile = URL(fileURLWithPath: "/etc/conditions/sources.json")

    /// The config file to read, in lookup order (docs/configuration.md):
    /// 1. `--config`; 2. `$CONDITIONS_CONFIG`; 3. `./sources.json`;
    /// 4. `$XDG_CONFIG_HOME/conditions/sources.json` (default `~/.config/...`);
    /// 5. `/etc/conditions/sources.json`; nil: 6, the built-in default. A file that is found
    /// replaces the default entirely.
    ///
    /// `currentDirectory` is a path, not a URL: the first reading of a URL's path costs a local
    /// answer ~0.1 ms (scenario 1, docs/performance.md, "Issue 45"), so the lookup joins and
    /// checks paths as text and makes the URL of the file it found.
    package static func locate(explicit: String?, environment: [String: String], currentDirectory: String,
                               systemFile: URL = systemFile) throws(ConfigurationError) -> URL? {
        if let explicit {
            return try existing(explicit, origin: "--config", currentDirectory: currentDirectory)
        }
        if let fromEnvironment = environment["CONDITIONS_CONFIG"], !fromEnvironment.isEmpty {
            return try existing(fromEnvironment, origin: "CONDITIONS_CONFIG", currentDirectory: currentDirectory)
        }
        // Each candidate made only when the one before is absent (the system file's URL read
        // last), as text.
        let candidates: [() -> String] = [{ joined(currentDirectory, "sources.json") }, { userFilePath(environment: environment) }, { systemFile.path }]
        var info = stat()
        for candidate in candidates {
            let path = candidate()
            if stat(path, &info) == 0 { return URL(fileURLWithPath: path) }
        }
        return nil
    }

    /// `path` against `directory` unless it is absolute.
    private static func joined(_ directory: String, _ path: String) -> String {
        path.hasPrefix("/") ? path : directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    /// `$XDG_CONFIG_HOME/conditions/sources.json` (default `~/.config/conditions/sources.json`):
    /// the user's own config, where `config init` writes.
    package static func userFile(environment: [String: String]) -> URL {
        URL(fileURLWithPath: userFilePath(environment: environment))
    }

    /// `userFile`'s path, joined as text (the lookup's step 4 at every start without a config).
    static func userFilePath(environment: [String: String]) -> String {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? joined(environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory(), ".config")
        return joined(configHome, "conditions/sources.json")
    }

    /// The default compiled into the program (`data`), its relative paths resolving against
    /// `directory` (the recordings installed beside the program).
    package static func builtIn(_ data: Data, directory: URL) throws(ConfigurationError) -> ConfigFile {
        var file = try parse(data, url: directory.appendingPathComponent("sources.json"), name: builtInName)
        file.isBuiltIn = true
        return file
    }

    /// The built-in default for a program linking `modules`: a source whose module is not among
    /// them is left out, with the routes to it (a chain keeps its other instances), in the main
    /// routes and every profile's. So a program built without a plugin (its folder and its lines
    /// in Package.swift and RegisteredModules.swift deleted) runs its default as the rest; a
    /// config file naming a module the program lacks is still refused.
    package func keepingOnly(modules: [String]) -> ConfigFile {
        guard let sources = root["sources"]?.objectValue else { return self }
        let absent = Set(sources.compactMap { id, entry in
            entry.objectValue?["module"]?.stringValue.flatMap { modules.contains($0) ? nil : id }
        })
        guard !absent.isEmpty else { return self }
        func trimmed(_ routes: JSONValue?) -> JSONValue? {
            guard let routes = routes?.objectValue else { return routes }
            var kept = JSONObject()
            for (scheme, target) in routes {
                if let id = target.stringValue {
                    if !absent.contains(id) { kept[scheme] = target }
                } else if let chain = target.arrayValue {
                    let rest = chain.filter { $0.stringValue.map { !absent.contains($0) } ?? true }
                    if !rest.isEmpty { kept[scheme] = .array(rest) }
                } else {
                    kept[scheme] = target
                }
            }
            return .object(kept)
        }
        var root = self.root
        root["sources"] = .object(JSONObject(sources.filter { !absent.contains($0.key) }.map { ($0.key, $0.value) }))
        root["routes"] = trimmed(root["routes"])
        if var profiles = root["profiles"]?.objectValue {
            for (name, profile) in profiles {
                guard var profile = profile.objectValue else { continue }
                if profile["routes"] != nil { profile["routes"] = trimmed(profile["routes"]) }
                profiles[name] = .object(profile)
            }
            root["profiles"] = .object(profiles)
        }
        var file = self
        file.root = root
        return file
    }

    private static func existing(_ path: String, origin: String, currentDirectory: String) throws(ConfigurationError) -> URL {
        let joined = joined(currentDirectory, path)
        // stat(2) as FileManager.fileExists(atPath:isDirectory:) calls it (following links),
        // without that API's first-use costs at every start (scenario 1, issue 45).
        var info = stat()
        guard stat(joined, &info) == 0 else {
            throw ConfigurationError("\(origin): \(path): no such file")
        }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw ConfigurationError("\(origin): \(path) is a folder, not a file") }
        return URL(filePath: joined, directoryHint: .notDirectory).standardizedFileURL
    }

    /// The largest config file read; anything bigger is not a hand-written config.
    static let maximumSize = 4 << 20

    /// Reads and parses `url`: a regular file of at most `maximumSize` bytes holding one JSON object; problems name the file, line and column.
    package static func read(_ url: URL) throws(ConfigurationError) -> ConfigFile {
        let name = url.path
        let data: Data
        do {
            // stat(2), not FileManager.attributesOfItem: that also looks up the owner's user
            // and group names (nsswitch.conf, /etc/passwd, /etc/group) and extended attributes,
            // ~0.15 ms of a local answer. On failure FileManager reports the error as before.
            var info = stat()
            guard stat(url.path, &info) == 0 else {
                let code = errno
                _ = try FileManager.default.attributesOfItem(atPath: url.path)
                throw ConfigurationError("\(name): cannot read: \(String(cString: strerror(code)))")
            }
            // Before opening: opening a FIFO blocks until a writer appears, and a device such
            // as /dev/zero never ends; neither is a config, and "permission denied" (what
            // reading one reported before) sent people after the wrong problem.
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw ConfigurationError("\(name): not a regular file (\(Self.kind(of: info.st_mode)))")
            }
            let size = Int(info.st_size)
            if size > maximumSize {
                throw ConfigurationError("\(name): \(size) bytes is larger than the \(maximumSize)-byte limit")
            }
            // Foundation's Data(contentsOf:) leaks a 4 KiB buffer for an empty file (found by
            // fuzzing the loader), so an empty regular file is not read at all.
            data = size == 0 ? Data() : try Data(contentsOf: url)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("\(name): cannot read: \(error.localizedDescription)")
        }
        return try parse(data, url: url, name: name)
    }

    /// `data` as a config read from `url`, named `name` in messages.
    private static func parse(_ data: Data, url: URL, name: String) throws(ConfigurationError) -> ConfigFile {
        let value: JSONValue
        // A repeated key is an error: the parser would otherwise keep the last value and the
        // first (a whole source, say) would vanish without a word.
        do { value = try JSONValue.parse(data, duplicateKeys: .reject) } catch {
            throw ConfigurationError("\(name):\(error.line):\(error.column): invalid JSON: \(error.reason)")
        }
        guard let root = value.objectValue else {
            throw ConfigurationError("\(name): the top level must be an object, found \(value.typeName)")
        }
        return ConfigFile(url: url, root: root)
    }

    /// What a non-regular file is, for the message.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a folder"
        default: return "not a plain file"
        }
    }
}

/// One or more problems with the configuration: printed one per line, exit code 2.
package struct ConfigurationError: Error, CustomStringConvertible {
    /// One line each, already prefixed with the file (and line and column) they concern.
    package var problems: [String]

    /// An error of one problem.
    package init(_ problem: String) { problems = [problem] }
    /// An error of several problems, reported together.
    package init(problems: [String]) { self.problems = problems }

    /// The problems, one per line.
    package var description: String { problems.joined(separator: "\n") }
}
