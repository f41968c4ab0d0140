import Foundation
import Testing

@testable import ParlanceContext
@testable import ParlanceEvaluation
@testable import ParlanceParser
@testable import ParlanceText

/// Batch records are written by hand (`OutputRecord.jsonLine()`); these tests hold them side
/// by side with `ParlanceJSON.encoder()`, which writes the same records through their
/// `Encodable` conformances: every byte must agree.
@Suite struct OutputRecordJSONTests {
    static func encoded(_ record: OutputRecord) throws -> String {
        String(decoding: try ParlanceJSON.encoder().encode(record), as: UTF8.self)
    }

    static func written(_ record: OutputRecord) throws -> String { String(decoding: try record.jsonLine(), as: UTF8.self) }

    /// Strings with every control character, quotes, backslashes, slashes and non-ASCII text;
    /// numbers whole, fractional, tiny and huge; every optional field present and absent.
    @Test func handWrittenRecordsAreTheEncodersBytes() throws {
        var awkward = "quote \" backslash \\ slash / tab \t newline \n é 😀 \u{2028} del \u{7F}"
        for scalar in 0..<0x20 { awkward.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        let resolution = Resolution(
            kind: .disambiguation,
            items: [.init(id: "bobo-1", display: "Bobo", score: 1), .init(id: "b/2", display: awkward, score: 0.3333333333333333)],
            reason: "two")
        let values: [ParameterValue] =
            [
                .text(awkward), .number(Decimal(string: "20.50")!), .number(-3), .date("2026-11-29"), .enumCase("unread"), .boolean(true),
                .boolean(false), .currencyAmount(CurrencyAmount(amount: Decimal(string: "12.5")!, currency: "EUR")),
                .dateRange(DateRange(start: "2026-11-29", end: "2026-11-30")),
                .spatialTrigger(SpatialTrigger(event: .arrive, place: "home")),
                .spatialTrigger(SpatialTrigger(event: .depart, place: awkward))
            ]
            // Triggers with every optional field present and absent.
            + [
                EntityValue.date("2026-11-29"), .dateTime("2026-11-29T09:00:00+01:00"),
                .dateRange(DateRange(start: "2026-11-29", end: "2026-12-01")),
                .recurrence(
                    Recurrence(frequency: .weekly, weekdays: ["monday", "thursday"], dayPart: "evening", start: "2026-11-30T18:00:00+01:00")
                ),
                .recurrence(Recurrence(frequency: .daily, weekdays: nil, dayPart: nil, start: nil)),
                .recurrence(Recurrence(frequency: .monthly, weekdays: [], dayPart: awkward, start: nil))
            ].compactMap { TemporalTrigger($0).map(ParameterValue.temporalTrigger) }
        let parameters = values.enumerated().map { i, value in
            Parameter(
                name: "p\(i)", value: value, raw: i == 0 ? awkward : "raw \(i)", span: i % 3 == 0 ? nil : Span(i, i + 4),
                resolution: i % 2 == 0 ? resolution : nil)
        }
        var frame = IntentFrame(domain: "messaging", name: "sendMessage", app: "MonkeyChat", confidence: 0.795, parameters: parameters)
        frame.missing = [MissingParameter(name: "content", resolution: Resolution(kind: .needsValue))]
        let bare = IntentFrame(domain: "custom", name: "orderSoup", app: nil, confidence: 1, parameters: [])
        let explanations = [
            Explanation(decidedBy: "template", source: "en/messaging.sentences:12", score: 1e-7, appMention: awkward, notes: [awkward, ""]),
            Explanation(decidedBy: "none", source: nil, score: nil, appMention: nil, notes: []),
            Explanation(decidedBy: "trained", source: "model", score: 123_456_789_012, appMention: nil, notes: ["n"])
        ]
        var records: [OutputRecord] = []
        for (i, explanation) in explanations.enumerated() {
            let result = ParseResult(
                intent: i == 1 ? nil : frame, alternatives: i == 2 ? [] : [bare, frame], reason: i == 1 ? awkward : nil,
                explanation: explanation,
                shortcut: i == 0 ? resolution : nil, unavailableApp: i == 2 ? "Zippy" : nil)
            for explain in [true, false] {
                records.append(OutputRecord(id: i == 1 ? nil : "id-\(i)", locale: "en-US", text: awkward, result: result, explain: explain))
            }
        }
        records.append(OutputRecord(id: nil, locale: nil, text: nil, error: .init(code: "bad_json", message: awkward)))
        records.append(OutputRecord(id: "7", locale: "xx", text: "hi", error: .init(code: "bad_locale", message: "no such locale")))
        for record in records { #expect(try Self.written(record) == Self.encoded(record)) }
    }

    /// What the parser says about the team's own sentences, written both ways.
    @Test func parsedRecordsAreTheEncodersBytes() throws {
        let processor = BatchLineProcessor(parser: try IntentParser(context: .demo), defaultLocale: "en-US", explain: true)
        let lines = [
            "send a message to Bobo saying more bananas", "MonkeyChat Bobo send more bananas", "pay Anna 20 euros for dinner",
            "remind me to call mom tomorrow at 9", "what's the weather", "open the pod bay doors", "{not json"
        ]
        for (number, line) in lines.enumerated() {
            let record = processor.process(Array(line.utf8), number: number + 1)
            #expect(try Self.written(record) == Self.encoded(record), "\(line)")
        }
        let plain = BatchLineProcessor(parser: try IntentParser(context: .demo), defaultLocale: "en-US", plainText: true)
        let record = plain.process(Array("envoie un message à Bobo".utf8), number: 3)
        #expect(try Self.written(record) == Self.encoded(record))
    }

    /// Numbers as `JSONEncoder` writes them: the shortest description, without ".0".
    @Test func numbersAreWrittenAsTheEncoderWritesThem() throws {
        for value in [0.1, 1.0, 1e-7, 123456789012.0, -0.0, 0.795, 1.0 / 3, 1e21, 12345678901234567.0, 100.0, -2.5] {
            var w = JSONLineWriter()
            w.number(value)
            #expect(String(decoding: w.bytes, as: UTF8.self) == String(decoding: try ParlanceJSON.encoder().encode(value), as: UTF8.self))
        }
    }
}
