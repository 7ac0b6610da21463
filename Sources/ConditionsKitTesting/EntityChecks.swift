import ConditionsEntities
import ConditionsJSON

/// The entity keyed `key` in a presentation's `entities`, when there is exactly one.
public func entity(_ key: String, in entities: [Entity]) -> Entity? {
    let found = entities.filter { $0.key == key }
    return found.count == 1 ? found[0] : nil
}

/// What is wrong with a presentation's `entities` for `serve` to publish them to Home
/// Assistant, one line each (none: `[]`): the keys other than `keys`, in order; a key twice or
/// outside `[a-z0-9_]` (a value template names it); an enum sensor's state not one of its
/// options. A module's test expects `entityProblems(…, keys: […]) == []`.
public func entityProblems(_ entities: [Entity], keys: [String]) -> [String] {
    var problems: [String] = []
    if entities.map(\.key) != keys { problems.append("keys \(entities.map(\.key)), expected \(keys)") }
    if Set(entities.map(\.key)).count != entities.count { problems.append("a key given twice") }
    for entity in entities {
        if entity.key.wholeMatch(of: /[a-z0-9_]+/) == nil { problems.append("\(entity.key): not [a-z0-9_]") }
        if let options = entity.options {
            if entity.deviceClass != "enum" { problems.append("\(entity.key): options without device class enum") }
            if entity.state != .null, entity.state.stringValue.map(options.contains) != true {
                problems.append("\(entity.key): \(entity.state) is not one of \(options)")
            }
        }
    }
    return problems
}

/// What is wrong with the pass kind's entities (ConditionsPass's `PassPresentation`, which every
/// pass module shares: WSDOT, Caltrans), one line each: `entityProblems` over the five fixed keys
/// with `directions` (when given; else whatever stands) between temperature and the report time,
/// and the status an enum of exactly the four words.
public func passEntityProblems(_ entities: [Entity], directions: [String]?) -> [String] {
    let middle = directions ?? Array(entities.map(\.key).dropFirst(4).dropLast())
    var problems = entityProblems(entities, keys: ["status", "closed", "traction", "temperature"] + middle + ["report_age"])
    let options = entities.first { $0.key == "status" }?.options
    if options != ["open", "restricted", "closed", "unknown"] { problems.append("status options \(options ?? [])") }
    return problems
}
