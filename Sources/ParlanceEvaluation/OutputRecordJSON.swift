import Foundation
import ParlanceContext
import ParlanceText

/// Output records written by hand (`JSONLineWriter`): the same bytes as their `Encodable`
/// conformances give through `ParlanceJSON.encoder()`, keys in sorted order, at a fraction of
/// the cost. `OutputRecordJSONTests` holds the two side by side.
extension OutputRecord {
    /// The record as one line of JSON, without the newline.
    public func jsonLine() throws -> [UInt8] {
        var w = JSONLineWriter()
        try write(to: &w)
        return w.bytes
    }

    /// Writes the record's fields (see `encode(to:)`) in sorted order.
    func write(to w: inout JSONLineWriter) throws {
        w.beginObject()
        w.key("alternatives")
        try w.array(alternatives) { w, alternative in try alternative.write(to: &w) }
        w.key("error")
        if let error {
            w.object("code", error.code, "message", error.message)
        } else {
            w.null()
        }
        if let explanation {
            w.key("explanation")
            explanation.write(to: &w)
        }
        w.key("id")
        w.string(id)
        w.key("intent")
        if let intent { try intent.write(to: &w) } else { w.null() }
        w.key("locale")
        w.string(locale)
        if let reason {
            w.key("reason")
            w.string(reason)
        }
        if let shortcut {
            w.key("shortcut")
            shortcut.write(to: &w)
        }
        w.key("text")
        w.string(text)
        if let unavailableApp {
            w.key("unavailableApp")
            w.string(unavailableApp)
        }
        w.endObject()
    }
}

extension OutputRecord.Intent {
    func write(to w: inout JSONLineWriter) throws {
        w.beginObject()
        w.key("app")
        w.string(app)
        w.key("confidence")
        w.number(confidence)
        w.key("domain")
        w.string(domain)
        if !missing.isEmpty {
            w.key("missing")
            w.array(missing) { w, parameter in
                w.beginObject()
                w.key("name")
                w.string(parameter.name)
                w.key("resolution")
                parameter.resolution.write(to: &w)
                w.endObject()
            }
        }
        w.key("name")
        w.string(name)
        w.key("parameters")
        try w.array(parameters) { w, parameter in try parameter.write(to: &w) }
        w.endObject()
    }
}

extension Parameter {
    func write(to w: inout JSONLineWriter) throws {
        w.beginObject()
        w.key("name")
        w.string(name)
        w.key("raw")
        w.string(raw)
        if let resolution {
            w.key("resolution")
            resolution.write(to: &w)
        }
        if let span {
            w.key("span")
            w.beginArray()
            w.element()
            w.number(span.start)
            w.element()
            w.number(span.end)
            w.endArray()
        }
        w.key("value")
        switch value {
        case .text(let s), .date(let s), .enumCase(let s): w.string(s)
        case .number(let n): w.number(n)
        case .boolean(let b): w.bool(b)
        // Objects (amounts, ranges, triggers) with their keys sorted, and an optional field left
        // out when nil, as their synthesized conformances write them.
        case .currencyAmount(let a):
            w.beginObject()
            w.key("amount")
            w.number(a.amount)
            w.key("currency")
            w.string(a.currency)
            w.endObject()
        case .dateRange(let r): w.object("end", r.end, "start", r.start)
        case .temporalTrigger(let t):
            w.beginObject()
            if let rule = t.recurrence {
                w.key("recurrence")
                w.beginObject()
                if let part = rule.dayPart {
                    w.key("dayPart")
                    w.string(part)
                }
                w.key("frequency")
                w.string(rule.frequency.rawValue)
                if let days = rule.weekdays {
                    w.key("weekdays")
                    w.array(days) { w, day in w.string(day) }
                }
                w.endObject()
            }
            if let start = t.start {
                w.key("start")
                w.string(start)
            }
            w.endObject()
        case .spatialTrigger(let t): w.object("event", t.event.rawValue, "place", t.place)
        }
        w.endObject()
    }
}

extension Resolution {
    func write(to w: inout JSONLineWriter) {
        w.beginObject()
        w.key("items")
        w.array(items) { w, item in
            w.beginObject()
            w.key("display")
            w.string(item.display)
            w.key("id")
            w.string(item.id)
            w.key("score")
            w.number(item.score)
            w.endObject()
        }
        w.key("kind")
        w.string(kind.rawValue)
        if let reason {
            w.key("reason")
            w.string(reason)
        }
        w.endObject()
    }
}

extension Explanation {
    func write(to w: inout JSONLineWriter) {
        w.beginObject()
        if let appMention {
            w.key("appMention")
            w.string(appMention)
        }
        w.key("decidedBy")
        w.string(decidedBy)
        w.key("notes")
        w.array(notes) { w, note in w.string(note) }
        if let score {
            w.key("score")
            w.number(score)
        }
        if let source {
            w.key("source")
            w.string(source)
        }
        w.endObject()
    }
}

extension JSONLineWriter {
    /// An object of two string fields, `first` before `second` (keys in sorted order).
    mutating func object(_ first: StaticString, _ a: String, _ second: StaticString, _ b: String) {
        beginObject()
        key(first)
        string(a)
        key(second)
        string(b)
        endObject()
    }
}
