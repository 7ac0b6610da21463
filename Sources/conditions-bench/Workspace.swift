import Foundation

/// A temporary folder for the run's configs, fixtures, caches and captured output, removed at the end.
final class Workspace: Sendable {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// A path inside the workspace.
    func file(_ name: String) -> String { root.appendingPathComponent(name).path }

    /// A fresh folder inside the workspace.
    func folder(_ name: String) throws -> URL {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `sources.json` for the given instances and routes; returns its path.
    /// Every config also has the shipped Astronomy instance, as the shipped `sources.json` does.
    /// `extra`: more top-level members, e.g. `, "cache": {"enabled": false}`.
    func config(_ name: String, sources: String, routes: String, extra: String = "") throws -> String {
        let text = """
        {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
         "sources": {\(sources.isEmpty ? "" : sources + ", ")"astronomy": {"module": "Astronomy"}},
         "routes": {\(routes)}\(extra)}
        """
        let folder = try self.folder(name)
        let path = folder.appendingPathComponent("sources.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The environment every `conditions` child gets: nothing from the caller's, a private
    /// home and cache folder, and the fake credentials the benchmark's configs refer to.
    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": root.path, "XDG_CACHE_HOME": file("xdg-cache"), "TZ": "America/Los_Angeles",
         "LANG": "C.UTF-8", "WSDOT_ACCESS_CODE": "bench-access-code", "AERIS_CLIENT_ID": "bench-id", "AERIS_CLIENT_SECRET": "bench-secret"]
    }
}
