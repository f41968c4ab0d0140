import Foundation
import Testing

@testable import ParlanceContext
@testable import ParlanceEvaluation
@testable import ParlanceParser
@testable import ParlanceText

/// The metrics' definitions (`EvaluationReport.LocaleReport`) on a small corpus, counted by
/// hand: folding, typed values, multiplicity, wrong intents and wrong apps.
@Suite struct MetricsTests {
    func outcome(_ n: Int, _ expected: String, _ predicted: IntentFrame?) -> CorpusRun.Outcome {
        let record = try! JSONDecoder().decode(
            AnnotatedRecord.self, from: Data(#"{"id": "\#(n)", "locale": "en-US", "text": "x", "expected": \#(expected)}"#.utf8))
        let explanation = Explanation(decidedBy: "template", source: nil, score: nil, appMention: nil, notes: [])
        return CorpusRun.Outcome(
            record: record, result: ParseResult(intent: predicted, alternatives: [], reason: nil, explanation: explanation), error: nil)
    }

    func frame(_ name: String, app: String?, _ parameters: [(String, ParameterValue)]) -> IntentFrame {
        IntentFrame(
            domain: "messaging", name: name, app: app, confidence: 0.9,
            parameters: parameters.map { Parameter(name: $0.0, value: $0.1, raw: "", span: nil) })
    }

    @Test func handCountedCorpus() throws {
        let outcomes = [
            // 1. right intent, app and both parameters (accents and case folded).
            outcome(
                1, #"{"intent": "sendMessage", "app": "MonkeyChat", "parameters": {"recipients": ["Íñigo"], "content": "hola"}}"#,
                frame("sendMessage", app: "MonkeyChat", [("recipients", .text("inigo")), ("content", .text("Hola"))])),
            // 2. right intent, wrong app, one of two recipients, one extra parameter.
            outcome(
                2, #"{"intent": "sendMessage", "app": null, "parameters": {"recipients": ["Ana", "Luis"]}}"#,
                frame("sendMessage", app: "Parrot", [("recipients", .text("Ana")), ("content", .text("x"))])),
            // 3. wrong intent: its expected amount counts as missed.
            outcome(
                3, #"{"intent": "sendPayment", "app": "MonkeyPay", "parameters": {"currencyAmount": {"amount": 20, "currency": "EUR"}}}"#,
                frame(
                    "requestPayment", app: "MonkeyPay", [("currencyAmount", .currencyAmount(CurrencyAmount(amount: 20, currency: "EUR")))])),
            // 4. typed value compared as JSON: 20 == 20.0.
            outcome(
                4, #"{"intent": "sendPayment", "app": "MonkeyPay", "parameters": {"currencyAmount": {"amount": 20.0, "currency": "EUR"}}}"#,
                frame("sendPayment", app: "MonkeyPay", [("currencyAmount", .currencyAmount(CurrencyAmount(amount: 20, currency: "EUR")))])),
            // 5, 6. out of domain: one rejected, one accepted.
            outcome(5, #"{"intent": null, "parameters": {}}"#, nil),
            outcome(6, #"{"intent": null, "parameters": {}}"#, frame("sendMessage", app: nil, []))
        ]
        let settings = EvaluationReport.Settings(parlanceVersion: "test", icuVersion: "", date: "", context: nil, corpora: [], options: [:])
        let m = try #require(EvaluationReport(outcomes: outcomes, settings: settings).locales["en-US"])
        #expect(m.inDomain == 4 && m.outOfDomain == 2)
        #expect(m.intentCorrect == 3)
        #expect(m.appCorrect == 2)
        #expect(m.exactFrames == 2)
        #expect(m.rejected == 1)
        #expect(m.parameters.expected == 2 + 2 + 1 + 1)
        #expect(m.parameters.predicted == 2 + 2 + 1)
        #expect(abs(m.parameters.correct - 4) < 1e-9)
        #expect(abs(m.intentAccuracy - 0.75) < 1e-9)
        #expect(abs(m.outOfDomainRejection - 0.5) < 1e-9)
        #expect(abs(m.parameters.precision - 4.0 / 5.0) < 1e-9)
        #expect(abs(m.parameters.recall - 4.0 / 6.0) < 1e-9)
        #expect(abs(m.parameters.f1 - 2 * 0.8 * (4.0 / 6.0) / (0.8 + 4.0 / 6.0)) < 1e-9)
    }
}
