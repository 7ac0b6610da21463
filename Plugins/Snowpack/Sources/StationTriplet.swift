import ConditionsKit

/// An AWDB station triplet, `{id}:{state}:{network}` (`791:WA:SNTL`), each part checked
/// before it goes into a URL.
struct StationTriplet: Sendable, Hashable {
    static let snotel = "SNTL"

    /// The station number, digits.
    let id: String
    /// The two-letter state code, upper case.
    let state: String
    /// The network code (`SNTL`, `SNTLT`, `SCAN`, …), upper case.
    let network: String

    var text: String { "\(id):\(state):\(network)" }

    /// The triplet from a URN's three segments; a bad part is `invalidArguments` naming it.
    init(id: String, state: String, network: String) throws(ConditionsError) {
        guard (1...10).contains(id.utf8.count), id.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw ConditionsError.invalidArguments(argument: "id", value: id, allowed: "a station number, 1 to 10 digits (791)")
        }
        guard let state = Self.state(state) else {
            throw ConditionsError.invalidArguments(argument: "state", value: state, allowed: "a two-letter state code (WA)")
        }
        guard (2...8).contains(network.utf8.count), network.utf8.allSatisfy(Self.isLetter) else {
            throw ConditionsError.invalidArguments(argument: "network", value: network, allowed: "a network code of 2 to 8 letters (SNTL)")
        }
        self.id = id
        self.state = state
        self.network = network.uppercased()
    }

    /// `791:WA:SNTL` as AWDB writes it; nil when it is not one.
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let triplet = try? StationTriplet(id: parts[0], state: parts[1], network: parts[2]) else { return nil }
        self = triplet
    }

    /// `wa` → `WA`; nil unless two ASCII letters.
    static func state(_ text: String) -> String? {
        guard text.utf8.count == 2, text.utf8.allSatisfy(isLetter) else { return nil }
        return text.uppercased()
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
