import ConditionsEntities
import ConditionsJSON
import Testing

/// The entity keyed `key` in a presentation's `entities`, when there is exactly one.
public func entity(_ key: String, in entities: [Entity]) -> Entity? {
    let found = entities.filter { $0.key == key }
    return found.count == 1 ? found[0] : nil
}

/// What every module's entities must be, for `serve` to publish them to Home Assistant: the
/// keys given, in order, each once and `[a-z0-9_]` (a value template names it); an enum
/// sensor's state one of its options or unknown.
public func expectWellFormed(_ entities: [Entity], keys: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(entities.map(\.key) == keys, sourceLocation: sourceLocation)
    #expect(Set(entities.map(\.key)).count == entities.count, sourceLocation: sourceLocation)
    for entity in entities {
        #expect(entity.key.wholeMatch(of: /[a-z0-9_]+/) != nil, "\(entity.key)", sourceLocation: sourceLocation)
        if let options = entity.options {
            #expect(entity.deviceClass == "enum", sourceLocation: sourceLocation)
            #expect(entity.state == .null || entity.state.stringValue.map(options.contains) == true, "\(entity.key): \(entity.state)",
                    sourceLocation: sourceLocation)
        }
    }
}
