import Hummingbird
import Synchronization

/// The methods each registered path answers, so that a request whose path is known but whose
/// method is not gets 405 with `Allow` (RFC 9110, 15.5.6) where Hummingbird's router says 404.
///
/// Recorded once, after the router's last route is added: `FrontMiddleware`, which asks it,
/// must be added before the first route to apply to them all.
final class AllowedMethods: Sendable {
    private let table = Mutex<[(path: RouterPath, methods: [HTTPRequest.Method])]>([])

    /// Records the router's routes; `everywhere` are methods every path answers (`OPTIONS`
    /// when CORS preflights are answered). A path that answers GET answers HEAD too: the
    /// router makes those endpoints (`autoGenerateHeadEndpoints`) and does not list them.
    func record(_ routes: [Hummingbird.Router<ServerRequestContext>.RouteDescription], everywhere: [HTTPRequest.Method]) {
        var table: [(path: RouterPath, methods: [HTTPRequest.Method])] = []
        for route in routes {
            let methods = route.method == .get ? [route.method, .head] : [route.method]
            if let index = table.firstIndex(where: { $0.path == route.path }) {
                table[index].methods += methods
            } else {
                table.append((route.path, methods))
            }
        }
        for index in table.indices { table[index].methods += everywhere }
        self.table.withLock { $0 = table }
    }

    /// The methods a route for `path` answers, in the order recorded; empty when no route
    /// matches the path.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let components = path.split(separator: "/")
        return table.withLock { table in
            table.filter { Self.matches($0.path.components[...], components[...]) }.flatMap(\.methods)
        }
    }

    /// `components` of a request path fit `pattern` as Hummingbird's router matches them: each
    /// element one component, `**` one or more.
    static func matches(_ pattern: ArraySlice<RouterPath.Element>, _ components: ArraySlice<Substring>) -> Bool {
        guard let element = pattern.first else { return components.isEmpty }
        guard !components.isEmpty else { return false }
        if element == .recursiveWildcard {
            return (components.startIndex + 1...components.endIndex).contains { end in
                matches(pattern.dropFirst(), components[end...])
            }
        }
        return element ~= components.first! && matches(pattern.dropFirst(), components.dropFirst())
    }
}
