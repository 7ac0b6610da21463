import ConditionsJSON

/// How a result of a kind no module presents reads: the URN, then `data` as indented
/// key/value lines. `watch` compares a top-level `"status"` string when there is one (with
/// the whole data as detail), else the whole data: any change in it is a change.
///
/// Modules may fall back to it for data their own presentation does not recognise.
public struct GenericPresentation: ResultPresentation {
    /// `generic`: never set on a result; the host uses this presentation for unknown kinds.
    public let kind: ResultKind = "generic"

    /// The fallback presentation.
    public init() {}

    /// The URN in bold, then `data` as indented key/value lines.
    public func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        [context.style.bold(context.urn)] + Self.lines(data, indent: 1, style: context.style)
    }

    /// A top-level `"status"` string and the whole data, else `changed` and the whole data.
    public func changeKey(_ data: JSONValue) -> ChangeKey {
        if let status = data["status"]?.stringValue { return ChangeKey(status: status, detail: data.serialized()) }
        return ChangeKey(status: "changed", detail: data.serialized())
    }

    /// `value` as indented lines: `key  value` for scalars, nested values one level deeper,
    /// array elements as `- value`.
    public static func lines(_ value: JSONValue, indent: Int, style: TextStyle) -> [String] {
        let pad = String(repeating: "  ", count: indent)
        switch value {
        case .object(let object):
            return object.flatMap { key, member -> [String] in
                switch member {
                case .object, .array: return ["\(pad)\(style.dim(key))"] + lines(member, indent: indent + 1, style: style)
                default: return ["\(pad)\(style.dim(key))  \(scalarText(member))"]
                }
            }
        case .array(let elements):
            return elements.flatMap { element -> [String] in
                switch element {
                case .object, .array: return ["\(pad)-"] + lines(element, indent: indent + 1, style: style)
                default: return ["\(pad)- \(scalarText(element))"]
                }
            }
        default:
            return [pad + scalarText(value)]
        }
    }

    private static func scalarText(_ value: JSONValue) -> String {
        if case .string(let s) = value { return s }
        return value.serialized()
    }
}
