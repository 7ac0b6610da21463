import ConditionsEntities
import ConditionsJSON

extension ResultPresentation {
    /// One sensor, `state`: the first plain text line (HA keeps at most 255 characters of a
    /// state), with the data's members as its attributes.
    public func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        let line = render(data, context: context).first.map { String($0.prefix(255)) }
        let attributes = data.objectValue.map { Dictionary($0.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }) } ?? [:]
        return [.sensor("state", name: "State", state: line.map(JSONValue.string) ?? .null, attributes: attributes)]
    }
}
