import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceEvaluation
@testable import ParlanceParser

/// `batch --outcomes` and `eval --from-outcomes`: per-line counts that add up, in any order,
/// to the report `parlance eval` writes for the same lines.
@Suite struct OutcomeTests {
    // MARK: Exact sums

    @Test func anExactSumRoundsOnceNotAtEveryStep() {
        var exact = ExactSum()
        var naive = 0.0
        for _ in 0..<10 {
            exact.add(0.1)
            naive += 0.1
        }
        #expect(naive != 1.0)  // 0.9999999999999999: ten roundings
        #expect(exact.value == 1.0)  // the exact sum of ten 0.1s, 1.0000000000000000555…, rounded once
    }

    @Test func anExactSumRoundsTiesToEvenAndKeepsSmallParts() {
        let big = 9_007_199_254_740_992.0  // 2^53: the next doubles are 2^53 + 2, + 4
        var sum = ExactSum(big)
        sum.add(1)
        #expect(sum.value == big)  // halfway between 2^53 and 2^53 + 2: the even one
        sum.add(1)
        #expect(sum.value == big + 2)  // the two halves were kept, not rounded away one by one
        sum.add(1)
        #expect(sum.value == big + 4)  // 2^53 + 3 is halfway again: 2^53 + 4 is even
        var tiny = ExactSum(Double.leastNonzeroMagnitude)
        tiny.add(Double.leastNonzeroMagnitude)
        #expect(tiny.value == 2 * Double.leastNonzeroMagnitude)
        var cancel = ExactSum(1e16)
        cancel.add(1)
        cancel.add(-1e16)
        #expect(cancel.value == 1)
        cancel.add(-3)
        #expect(cancel.value == -2)
        #expect(ExactSum(0.3).value == 0.3 && ExactSum(Double.greatestFiniteMagnitude).value == .greatestFiniteMagnitude)
    }

    @Test func anExactSumDoesNotDependOnTheOrder() {
        var generator = SystemRandomNumberGenerator()
        // Confidences and token-overlap credits as reports add them (three decimals, ratios).
        var values: [Double] = []
        for i in 0..<5000 {
            let confidence = Double(Int.random(in: 0...1000, using: &generator)) / 1000
            let overlap = 2 * Double(i % 7) / Double(i % 13 + 7)
            values.append(i % 2 == 0 ? confidence : overlap)
        }
        var forward = ExactSum()
        for v in values { forward.add(v) }
        for _ in 0..<5 {
            // In another order, and as partial sums added together (as partitions are).
            let shuffled = values.shuffled(using: &generator)
            var parts = [ExactSum(), ExactSum(), ExactSum()]
            for (i, v) in shuffled.enumerated() { parts[i % 3].add(v) }
            #expect((parts[2] + parts[0] + parts[1]).value == forward.value)
            #expect(parts[0] + parts[1] + parts[2] == forward)
        }
    }

    // MARK: Counts

    /// The hand-counted records of `EvaluationReportTests`, with a resolution, an app the user
    /// lacks and confidences in several bins.
    static var outcomes: [CorpusRun.Outcome] {
        var outcomes = EvaluationReportTests.outcomes
        let resolved = EvaluationReportTests.record(
            #"{"id": "7", "locale": "en-US", "text": "g", "expected": {"domain": "messaging", "intent": "sendMessage", "app": "MonkeyChat", "parameters": {"recipients": ["Bobo"]}, "resolution": {"recipients": {"kind": "success", "items": ["bobo"]}}}}"#
        )
        let frame = IntentFrame(
            domain: "messaging", name: "sendMessage", app: "MonkeyChat", confidence: 0.437,
            parameters: [Parameter(name: "recipients", value: .text("Bobo"), raw: "Bobo", span: nil)])
        outcomes.append(EvaluationReportTests.outcome(resolved, frame))
        let unavailable = EvaluationReportTests.record(
            #"{"id": "8", "locale": "fr-FR", "text": "h", "expected": {"domain": null, "intent": null, "app": null, "parameters": {}, "unavailableApp": "WhatsApp"}}"#
        )
        outcomes.append(CorpusRun.Outcome(record: unavailable, result: nil, error: "bad reference time"))
        // Many confidences in one bin and many partial texts: sums whose rounding depends on
        // the order of the additions, unless they are exact.
        for k in 0..<60 {
            let record = EvaluationReportTests.record(
                #"{"id": "m\#(k)", "locale": "en-US", "text": "m", "expected": {"domain": "messaging", "intent": "sendMessage", "app": "MonkeyChat", "parameters": {"recipients": ["Bobo"], "content": "bring \#(k) ripe bananas for the whole troop"}}}"#
            )
            let frame = IntentFrame(
                domain: "messaging", name: "sendMessage", app: "MonkeyChat", confidence: 0.9 + Double(k % 97) / 1000,
                parameters: [
                    Parameter(name: "recipients", value: .text("Bobo"), raw: "Bobo", span: nil),
                    Parameter(
                        name: "content", value: .text("bring \(k) bananas" + String(repeating: " now", count: k % 5)), raw: "", span: nil)
                ])
            outcomes.append(EvaluationReportTests.outcome(record, frame))
        }
        return outcomes
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// report.json's locales, less the sample errors (which summed outcomes do not have).
    static func localesWithoutSamples(_ report: EvaluationReport) throws -> String {
        var locales = report.locales
        for tag in locales.keys { locales[tag]!.samplesKept = false }
        return try json(locales)
    }

    @Test func outcomesSummedInAnyOrderGiveEvalsReport() throws {
        let outcomes = Self.outcomes
        let report = EvaluationReport(outcomes: outcomes, settings: EvaluationReportTests.settings)
        let lines = try outcomes.map { try Self.json(ReportOutcome($0, locale: $0.record.locale ?? "en-US")) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<6 {
            let data = Data(lines.shuffled(using: &generator).joined(separator: "\n").utf8)
            let summed = EvaluationReport(
                locales: try ReportOutcome.sum(jsonLines: data, file: "outcomes.jsonl"), settings: EvaluationReportTests.settings)
            #expect(try Self.localesWithoutSamples(summed) == Self.localesWithoutSamples(report))
        }
        // Every summable field took part: the report has a resolution, an unavailable app,
        // two locales and a failure, and the summed report leaves the sample errors out.
        let en = try #require(report.locales["en-US"])
        let fr = try #require(report.locales["fr-FR"])
        #expect(en.resolution?.expected == 1 && fr.unavailableAppExpected == 1 && fr.failures == 1)
        let summed = try ReportOutcome.sum(jsonLines: Data(lines.joined(separator: "\n").utf8), file: "o")
        let encoded = try Self.json(EvaluationReport(locales: summed, settings: EvaluationReportTests.settings))
        #expect(!encoded.contains("\"errors\"") && encoded.contains("\"calibration\""))
    }

    @Test func countsLeaveOutZerosButKeepEveryEntry() throws {
        let outcome = ReportOutcome(Self.outcomes[3], locale: "en-US")  // out of domain, rejected
        let line = try Self.json(outcome)
        #expect(line == #"{"counts":{"confusion":{"none":{"none":1}},"outOfDomain":1,"records":1,"rejected":1},"locale":"en-US"}"#)
        // A parameter entry keeps its three counts even when they are zero.
        let missed = ReportOutcome(Self.outcomes[5], locale: "en-US")
        #expect(try Self.json(missed).contains(#""perParameter":{"workoutName":{"correct":0,"expected":1,"predicted":0}}"#))
    }

    @Test func aLineThatIsNotAnOutcomeIsNamed() throws {
        let data = Data(
            "{\"locale\": \"en-US\", \"counts\": {\"records\": 1}}\n\n{\"locale\": \"en-US\", \"counts\": {\"recrods\": 1}}\n".utf8)
        #expect {
            _ = try ReportOutcome.sum(jsonLines: data, file: "o.jsonl")
        } throws: { error in
            "\(error)".hasPrefix("o.jsonl:3: not an outcome") && "\(error)".contains("recrods")
        }
        let sum = try ReportOutcome.sum(
            jsonLines: Data(
                "{\"locale\": \"en-US\", \"counts\": {\"records\": 1}}\n{\"locale\": \"en-US\", \"counts\": {\"records\": 2}}".utf8),
            file: "o")
        #expect(sum["en-US"]?.records == 3)
    }

    // MARK: batch --outcomes

    @Test func batchOutcomesAreEvalsCountsLineByLine() throws {
        let parser = try IntentParser(context: .demo)
        let batch = BatchLineProcessor(parser: parser, defaultLocale: "en-US")
        let processor = OutcomeLineProcessor(batch: batch)
        let time = #""reference_time": "2026-11-21T10:00:00+01:00""#
        let measured = [
            #"{"id": "a", "locale": "en-US", "text": "MonkeyChat Bobo send more bananas", \#(time), "expected": {"domain": "messaging", "intent": "sendMessage", "app": "MonkeyChat", "parameters": {"recipients": ["Bobo"], "content": "more bananas"}}}"#,
            #"{"id": "b", "text": "What's the weather like?", \#(time), "expected": {"domain": null, "intent": null, "app": null, "parameters": {}}}"#,
            #"{"id": "c", "locale": "es-ES", "text": "Manda un mensaje a Bobo en MonkeyChat que diga hola", \#(time), "expected": {"domain": "messaging", "intent": "sendMessage", "app": "MonkeyChat", "parameters": {"recipients": ["Bobo"], "content": "hola"}}}"#,
            #"{"id": "d", "locale": "en-US", "text": "Call Bobo", "reference_time": "yesterday", "expected": {"domain": "calling", "intent": "startCall", "app": null, "parameters": {}}}"#
        ]
        let unmeasured = [
            #"{"id": "e", "locale": "en-US", "text": "MonkeyChat Bobo send more bananas"}"#,  // no expected
            // no grammar
            #"{"id": "f", "locale": "ja-JP", "text": "こんにちは", "expected": {"domain": null, "intent": null, "app": null, "parameters": {}}}"#,
            // bad locale
            #"{"id": "g", "locale": "xx-??", "text": "hi", "expected": {"domain": null, "intent": null, "app": null, "parameters": {}}}"#,
            #"{"id": "h", "text": 7, "expected": {"domain": null, "intent": null, "app": null, "parameters": {}}}"#,  // text not a string
            #"{"id": "i", "locale": "en-US""#  // bad JSON
        ]
        var outcomeLines: [String] = []
        for line in measured + unmeasured {
            let record = processor.process(Array(line.utf8), number: 1)
            // The output record is the batch's own, with "outcome" added.
            var object = try #require(try JSONSerialization.jsonObject(with: ParlanceJSON.encoder().encode(record)) as? [String: Any])
            let plain = try #require(
                try JSONSerialization.jsonObject(with: ParlanceJSON.encoder().encode(batch.process(Array(line.utf8)))) as? [String: Any])
            let outcome = object.removeValue(forKey: "outcome")
            #expect(NSDictionary(dictionary: object).isEqual(to: plain))
            #expect((outcome != nil) == measured.contains(line), "\(line)")
            if let outcome = record.outcome { outcomeLines.append(try Self.json(outcome)) }
        }
        let records = measured.map { try! JSONDecoder().decode(AnnotatedRecord.self, from: Data($0.utf8)) }
        let eval = EvaluationReport(outcomes: CorpusRun(parser: parser).parse(records), settings: EvaluationReportTests.settings)
        #expect(eval.locales["en-US"]?.failures == 1 && eval.locales["es-ES"]?.records == 1)
        let summed = EvaluationReport(
            locales: try ReportOutcome.sum(jsonLines: Data(outcomeLines.joined(separator: "\n").utf8), file: "o"),
            settings: EvaluationReportTests.settings)
        #expect(try Self.localesWithoutSamples(summed) == Self.localesWithoutSamples(eval))
    }
}
