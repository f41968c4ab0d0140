import Foundation
import Testing

@testable import ParlanceContext
@testable import ParlanceEvaluation
@testable import ParlanceParser

/// `report.json` metrics against a hand count on six records.
@Suite struct EvaluationReportTests {
    static func record(_ json: String) -> AnnotatedRecord {
        try! JSONDecoder().decode(AnnotatedRecord.self, from: Data(json.utf8))
    }

    static func frame(_ domain: String, _ name: String, app: String?, _ parameters: [(String, ParameterValue)] = []) -> IntentFrame {
        IntentFrame(
            domain: domain, name: name, app: app, confidence: 0.9,
            parameters: parameters.map { Parameter(name: $0.0, value: $0.1, raw: $0.1.display, span: nil) })
    }

    static func outcome(_ record: AnnotatedRecord, _ frame: IntentFrame?) -> CorpusRun.Outcome {
        let explanation = Explanation(decidedBy: "template", source: nil, score: nil, appMention: nil, notes: [])
        return CorpusRun.Outcome(
            record: record, result: ParseResult(intent: frame, alternatives: [], reason: nil, explanation: explanation), error: nil)
    }

    static let outcomes: [CorpusRun.Outcome] = [
        // 1. Right intent and app; content said a little longer (text: token overlap 0.8).
        outcome(
            record(
                #"{"id": "1", "locale": "en-US", "text": "a", "expected": {"domain": "messaging", "intent": "sendMessage", "app": "MonkeyChat", "parameters": {"recipients": ["Bobo"], "content": "more bananas"}}}"#
            ),
            frame("messaging", "sendMessage", app: "MonkeyChat", [("recipients", .text("Bobo")), ("content", .text("more bananas please"))])
        ),
        // 2. Right intent, wrong app.
        outcome(
            record(
                #"{"id": "2", "locale": "en-US", "text": "b", "expected": {"domain": "calling", "intent": "startCall", "app": "MonkeyCall", "parameters": {"contacts": ["Ana"]}}}"#
            ),
            frame("calling", "startCall", app: nil, [("contacts", .text("ana"))])),
        // 3. Wrong intent, same domain.
        outcome(
            record(
                #"{"id": "3", "locale": "en-US", "text": "c", "expected": {"domain": "payments", "intent": "sendPayment", "app": "MonkeyPay", "parameters": {"payee": "Luis", "currencyAmount": {"amount": 20, "currency": "USD"}}}}"#
            ),
            frame("payments", "requestPayment", app: "MonkeyPay", [("payer", .text("Luis"))])),
        // 4. Out of domain, rejected.
        outcome(
            record(
                #"{"id": "4", "locale": "en-US", "text": "d", "expected": {"domain": null, "intent": null, "app": null, "parameters": {}}}"#
            ), nil),
        // 5. Out of domain, accepted.
        outcome(
            record(
                #"{"id": "5", "locale": "en-US", "text": "e", "expected": {"domain": null, "intent": null, "app": null, "parameters": {}}}"#
            ),
            frame("messaging", "sendMessage", app: "MonkeyChat")),
        // 6. In domain, rejected.
        outcome(
            record(
                #"{"id": "6", "locale": "en-US", "text": "f", "expected": {"domain": "workouts", "intent": "startWorkout", "app": "MonkeyFit", "parameters": {"workoutName": "Bananarific"}}}"#
            ), nil)
    ]

    static let settings = EvaluationReport.Settings(
        parlanceVersion: "test", icuVersion: "72.1", date: "2026-11-21T10:00:00Z", context: nil, corpora: [], options: [:])

    @Test func metricsAgreeWithAHandCount() throws {
        let report = EvaluationReport(outcomes: Self.outcomes, settings: Self.settings)
        let l = try #require(report.locales["en-US"])
        #expect((l.records, l.inDomain, l.outOfDomain) == (6, 4, 2))
        #expect(l.intentAccuracy == 0.5)  // records 1 and 2
        #expect(l.appAccuracy == 0.25)  // record 1
        #expect(l.exactFrameRate == 0)  // 1 has a partial content, 2 the wrong app
        #expect(l.outOfDomainRejection == 0.5 && l.falseAcceptanceRate == 0.5)
        #expect(l.falseRejectionRate == 0.25)  // record 6
        // Intents: sendMessage predicted twice (1 and 5), right once.
        let send = try #require(l.perIntent["sendMessage"])
        #expect((send.expected, send.predicted, send.correct) == (1, 2, 1))
        #expect(abs(send.f1 - 2.0 / 3.0) < 1e-9)
        #expect(l.perIntent["requestPayment"].map { ($0.expected, $0.predicted, $0.correct) } ?? (9, 9, 9) == (0, 1, 0))
        #expect(l.perIntent["startWorkout"].map { ($0.expected, $0.predicted) } ?? (9, 9) == (1, 0))
        // Domains: record 3 is the right domain with the wrong intent.
        #expect(l.perDomain["payments"].map { ($0.expected, $0.predicted, $0.correct) } ?? (9, 9, 9) == (1, 1, 1))
        #expect(l.perDomain["messaging"].map { ($0.expected, $0.predicted, $0.correct) } ?? (9, 9, 9) == (1, 2, 1))
        // Parameters: predicted only where the intent is right; "ana" = "Ana" after folding;
        // content earns its token overlap F1 (2 common tokens: P 2/3, R 1 → 0.8).
        #expect(l.perParameter["recipients"].map { ($0.expected, $0.predicted, $0.correct) } ?? (9, 9, 9) == (1, 1, 1))
        #expect(l.perParameter["contacts"].map { ($0.expected, $0.predicted, $0.correct) } ?? (9, 9, 9) == (1, 1, 1))
        #expect(abs((l.perParameter["content"]?.correct ?? 0) - 0.8) < 1e-9)
        #expect(l.perParameter["payer"] == nil)  // record 3's parameters do not count
        #expect(l.perParameter["payee"].map { ($0.expected, $0.predicted) } ?? (9, 9) == (1, 0))
        #expect((l.parameters.expected, l.parameters.predicted) == (6, 3))
        #expect(abs(l.parameters.correct - 2.8) < 1e-9)
        // Confusions and samples.
        #expect(l.confusion["sendPayment"]?["requestPayment"] == 1)
        #expect(l.confusion["none"]?["sendMessage"] == 1 && l.confusion["none"]?["none"] == 1)
        #expect(l.confusion["startWorkout"]?["none"] == 1)
        #expect(l.errors.map(\.id) == ["1", "2", "3", "5", "6"])
        // What is wrong with each (errors.jsonl).
        #expect(l.allErrors.map(\.id) == ["1", "2", "3", "5", "6"])
        #expect(
            l.allErrors.map { $0.what ?? [] } == [
                ["parameter content: wrong"], ["app"], ["intent"], ["accepted out of domain"], ["rejected"]
            ])
        #expect(l.worstConfusions(10).count == 3)
    }

    @Test func theReportRoundTripsAndRenders() throws {
        let report = EvaluationReport(outcomes: Self.outcomes, settings: Self.settings)
        let data = try JSONEncoder().encode(report)
        let again = try JSONDecoder().decode(EvaluationReport.self, from: data)
        #expect(again.locales["en-US"]?.intentAccuracy == 0.5)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let en = try #require((json["locales"] as? [String: Any])?["en-US"] as? [String: Any])
        #expect(en["intentAccuracy"] as? Double == 0.5)
        let markdown = report.markdown()
        #expect(markdown.contains("| en-US | 6 | 4 | 0.500 | 0.250 | 0.000 | 2 | 0.500 | 0.250 |"))
        #expect(markdown.contains("sendPayment → requestPayment (1)"))
        let html = report.html()
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<svg") && html.contains("sendPayment → requestPayment: 1"))
        #expect(!html.contains("http://") || !html.contains("<script"))  // no script, nothing fetched
        #expect(!html.contains("<script"))
    }

    @Test func baselineComparisonPutsRegressionsFirst() throws {
        var current = EvaluationReport(outcomes: Self.outcomes, settings: Self.settings)
        // The baseline got record 3 right and rejected record 5.
        var better = Self.outcomes
        better[2] = Self.outcome(
            better[2].record,
            Self.frame(
                "payments", "sendPayment", app: "MonkeyPay",
                [("payee", .text("Luis")), ("currencyAmount", .currencyAmount(.init(amount: 20, currency: "USD")))]))
        better[4] = Self.outcome(better[4].record, nil)
        let baseline = EvaluationReport(outcomes: better, settings: Self.settings)
        current.compare(with: baseline)
        let changes = try #require(current.changes)
        #expect(changes.first?.regression == true)
        #expect(changes.contains { $0.metric == "en-US intent accuracy" && abs($0.delta + 0.25) < 1e-9 && $0.regression })
        #expect(changes.contains { $0.metric == "en-US out-of-domain rejection" && $0.regression })
        // Regressions come before any improvement.
        if let firstBetter = changes.firstIndex(where: { !$0.regression }) {
            #expect(changes[firstBetter...].allSatisfy { !$0.regression })
        }
        #expect(current.locales(below: 0.6) == ["en-US"])
        #expect(current.locales(below: 0.5).isEmpty)
    }

    @Test func sha256MatchesKnownDigests() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Data(String(repeating: "a", count: 1000).utf8)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
        )
    }
}

/// Corpus files as editors write them: CRLF line ends and blank lines; errors name the line.
@Suite struct CorpusFileTests {
    @Test func crlfAndBlankLinesAreRead() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-crlf-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let line =
            #"{"id": "ID", "locale": "en-US", "text": "hi", "expected": {"domain": null, "intent": null, "app": null, "parameters": {}}}"#
        try (line.replacingOccurrences(of: "ID", with: "a") + "\r\n\r\n" + line.replacingOccurrences(of: "ID", with: "b") + "\r\n").write(
            to: url, atomically: true, encoding: .utf8)
        #expect(try AnnotatedRecord.load(url.path).map(\.id) == ["a", "b"])
        // A bad third line (after a blank one) is named by its line number.
        try (line + "\r\n\r\n" + String(repeating: "[", count: 600) + "\r\n").write(to: url, atomically: true, encoding: .utf8)
        #expect { try AnnotatedRecord.load(url.path) } throws: { "\($0)".contains(":3") && "\($0)".contains("nested deeper") }
    }
}
