import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// One California pass: its summit, route and counties, and how its checkpoints are found.
struct CaliforniaPass: Sendable, Equatable {
    /// The URN name: `ebbetts`.
    let id: String
    /// `Ebbetts Pass`.
    let name: String
    /// The road as people say it: `SR 4`.
    let highway: String
    let district: Int
    /// The route as CWWP2 writes it: `SR-4`.
    let route: String
    let counties: [String]
    let summit: GeoPoint
    let elevationFt: Int
    /// Whether a real chain-control file confirmed its checkpoints.
    let verified: Bool
    /// Its checkpoints' indexes, as the catalog script found them by name in a real file.
    let checkpointIndexes: [String]
    /// For a pass no real file confirmed: checkpoints on its route, in its counties, at least
    /// this high and within this distance of the summit.
    let rule: (minElevationFt: Double, withinKm: Double)?

    static func == (a: CaliforniaPass, b: CaliforniaPass) -> Bool { a.id == b.id }

    /// Whether `checkpoint` is one of this pass's.
    func owns(_ checkpoint: Checkpoint) -> Bool {
        if !checkpointIndexes.isEmpty { return checkpointIndexes.contains(checkpoint.index) }
        guard let rule, checkpoint.route == route, counties.contains(checkpoint.county),
              let elevation = checkpoint.elevationFt, elevation >= rule.minElevationFt,
              let location = checkpoint.location else { return false }
        return location.kilometres(to: summit) <= rule.withinKm
    }

    /// Full name and road: `Ebbetts Pass SR 4`, as WSDOT names its passes.
    var title: String { "\(name) \(highway)" }
}

/// The passes this module serves, from `Resources/passes.json`, which
/// `scripts/make-catalog.py` writes from real chain-control files (SOURCES.md there).
enum CaltransCatalog {
    /// `Resources/passes.json`, parsed once; `.null` if it cannot be (CatalogTests rules that out).
    private static let document = (try? JSONValue.parse(String(decoding: PackageResources.passes_json, as: UTF8.self))) ?? .null

    /// Every pass, in catalog order (District 10's, then 3's and 9's).
    static let all: [CaliforniaPass] = load(document)

    /// Passes left out, by id, and why (Tioga: the Park Service's road).
    static let leftOut: [String: String] = {
        var reasons: [String: String] = [:]
        for (id, reason) in document["leftOut"]?.objectValue ?? JSONObject() { reasons[id] = reason.stringValue }
        return reasons
    }()

    /// Districts the passes are in, ascending: the default `districts`.
    static let districts: [Int] = Array(Set(all.map(\.district))).sorted()

    /// The ids, for suggestions.
    static var ids: [String] { all.map(\.id) }

    /// The catalog's passes; empty (and every name not found) if it has none, which
    /// CatalogTests rules out.
    static func load(_ catalog: JSONValue) -> [CaliforniaPass] {
        guard let passes = catalog["passes"]?.arrayValue else { return [] }
        return passes.compactMap { pass in
            guard let id = pass["id"]?.stringValue, let name = pass["name"]?.stringValue, let route = pass["route"]?.stringValue,
                  let district = pass["district"]?.intValue, let latitude = pass["latitude"]?.doubleValue,
                  let longitude = pass["longitude"]?.doubleValue else { return nil }
            let rule = pass["rule"].flatMap { rule -> (Double, Double)? in
                guard let elevation = rule["minElevationFt"]?.doubleValue, let within = rule["withinKm"]?.doubleValue else { return nil }
                return (elevation, within)
            }
            return CaliforniaPass(id: id, name: name, highway: pass["highway"]?.stringValue ?? route, district: district, route: route,
                                  counties: (pass["counties"]?.arrayValue ?? []).compactMap(\.stringValue),
                                  summit: GeoPoint(latitude: latitude, longitude: longitude), elevationFt: pass["elevationFt"]?.intValue ?? 0,
                                  verified: pass["verified"]?.boolValue ?? false,
                                  checkpointIndexes: (pass["checkpoints"]?.arrayValue ?? []).compactMap(\.stringValue), rule: rule)
        }
    }

    /// `Ebbetts-Pass`, `ebbetts pass`, `EBBETTS` → `ebbettspass` / `ebbetts`: letters and digits.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(Character.init))
    }

    /// The pass `name` means: its id, or its name with or without "pass" or "summit".
    static func pass(named name: String, among passes: [CaliforniaPass] = all) -> CaliforniaPass? {
        let wanted = normalized(name)
        return passes.first { pass in
            [pass.id, pass.name, pass.title].map(normalized).contains(wanted)
        }
    }
}
