import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// One 3-hour Kp period of an SWPC product.
struct KpPeriod: Sendable, Equatable {
    /// The period's start (`time_tag`, UTC).
    let time: Date
    let kp: Double
    /// `observed`, `estimated` or `predicted` (the forecast product); nil when not given.
    let kind: String?
    /// SWPC's own G-level for the period (`noaa_scale` `G1`…), nil when null or absent.
    let scale: Int?

    /// SWPC's level when it gives one, else the level Kp reaches.
    var level: Int { scale ?? KpScale.level(kp: kp) }
}

/// A Kp product (`noaa-planetary-k-index.json` or `…-forecast.json`) in either of SWPC's forms,
/// told apart by shape, never by date: before the 2026 change an array of arrays with a header
/// row and every value a string; after, an array of objects with numbers, `Kp` or `kp`, and
/// `time_tag` in UTC without a `Z`. Rows that cannot be read are skipped and counted, never
/// read as Kp 0.
struct KpSeries: Sendable {
    enum Format: String, Sendable {
        /// Arrays with a header row, strings (before 2026-04).
        case old
        /// Objects with numbers (after).
        case new
    }

    let format: Format
    /// The readable periods, in time order.
    let periods: [KpPeriod]
    /// Rows present but unreadable (no time, no Kp, Kp outside 0…9, wrong shape).
    let skipped: Int

    /// Reads `document`; `what` and `source` name it in errors. An empty array is `notFound`;
    /// a document of neither shape, or with no readable row, is `badResponse`.
    init(document: JSONValue, what: String, source: String) throws(ConditionsError) {
        guard let rows = document.arrayValue else {
            throw ConditionsError.badResponse("\(source): \(what) is a JSON \(document.typeName), not the array SWPC sends")
        }
        guard let first = rows.first else {
            throw ConditionsError.notFound("\(source): \(what) is an empty array (SWPC lists no periods)")
        }
        var periods: [KpPeriod] = []
        var skipped = 0
        switch first {
        case .array(let header):
            format = .old
            let columns = header.map { $0.stringValue?.lowercased() }
            guard let time = columns.firstIndex(of: "time_tag"), let kp = columns.firstIndex(of: "kp") else {
                throw ConditionsError.badResponse("\(source): \(what) is an array of arrays whose first row is not SWPC's header (time_tag, Kp, …)")
            }
            let kind = columns.firstIndex(of: "observed")
            let scale = columns.firstIndex(of: "noaa_scale")
            for row in rows.dropFirst() {
                guard let cells = row.arrayValue else { skipped += 1; continue }
                func cell(_ index: Int?) -> JSONValue? { index.flatMap { $0 < cells.count ? cells[$0] : nil } }
                if let period = Self.period(time: cell(time), kp: cell(kp), kind: cell(kind), scale: cell(scale)) {
                    periods.append(period)
                } else {
                    skipped += 1
                }
            }
        case .object:
            format = .new
            for row in rows {
                guard row.objectValue != nil else { skipped += 1; continue }
                if let period = Self.period(time: row["time_tag"], kp: row["kp"] ?? row["Kp"], kind: row["observed"], scale: row["noaa_scale"]) {
                    periods.append(period)
                } else {
                    skipped += 1
                }
            }
        default:
            throw ConditionsError.badResponse("\(source): \(what) is an array of \(first.typeName)s, neither SWPC's arrays with a header row nor its objects")
        }
        guard !periods.isEmpty else {
            throw ConditionsError.badResponse("\(source): \(what) has no readable period among its \(rows.count) rows")
        }
        // SWPC lists periods in order; sorted anyway, so the latest is always the last.
        self.periods = periods.sorted { $0.time < $1.time }
        self.skipped = skipped
    }

    /// A row's period, or nil when its time or Kp cannot be read. Values may be strings (old
    /// form) or numbers (new); `noaa_scale` that is not `G0`…`G5` is left to Kp.
    private static func period(time: JSONValue?, kp: JSONValue?, kind: JSONValue?, scale: JSONValue?) -> KpPeriod? {
        guard let text = time?.stringValue, let date = Timestamp.parse(text, timeZone: .gmt) else { return nil }
        let value: Double?
        switch kp {
        case .string(let text)?: value = Double(text.trimmingCharacters(in: .whitespaces))
        case let number?: value = number.doubleValue
        case nil: value = nil
        }
        guard let value, value.isFinite, (0...9).contains(value) else { return nil }
        return KpPeriod(time: date, kp: value, kind: kind?.stringValue?.lowercased(), scale: scale?.stringValue.flatMap(KpScale.level(scale:)))
    }
}
