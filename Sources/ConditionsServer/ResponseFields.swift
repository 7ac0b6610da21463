import HTTPTypes
import NIOHTTP1

/// Where a response's header fields are written: HTTPTypes' fields for the router's responses,
/// NIO's headers for the answers `CachedAnswerHandler` gives before the HTTPTypes codec. One
/// `API.validated` fills either, so both paths give the same fields in the same order.
protocol ResponseFields {
    init()
    mutating func reserveCapacity(_ minimumCapacity: Int)
    /// Adds a field whose name is not there yet.
    mutating func append(_ name: HTTPField.Name, _ value: String)
}

extension HTTPFields: ResponseFields {
    mutating func append(_ name: HTTPField.Name, _ value: String) {
        append(HTTPField(name: name, value: value))
    }
}

extension HTTPHeaders: ResponseFields {
    init() { self.init([]) }

    mutating func append(_ name: HTTPField.Name, _ value: String) {
        add(name: name.rawName, value: value)
    }
}
