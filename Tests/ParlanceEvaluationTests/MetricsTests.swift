import Foundation
import Testing

@testable import ParlanceEvaluation
@testable import ParlanceParser
@testable import ParlanceText

/// The metrics on a small corpus, counted by hand.
@Suite struct MetricsTests {
    func expected(_ json: String) throws -> AnnotatedRecord.Expected {
        try JSONDecoder().decode(AnnotatedRecord.Expected.self, from: Data(json.utf8))
    }

    func frame(_ name: String, app: String?, _ parameters: [(String, ParameterValue)]) -> IntentFrame {
        IntentFrame(domain: "messaging", name: name, app: app, confidence: 0.9,
                    parameters: parameters.map { Parameter(name: $0.0, value: $0.1, raw: "", span: nil) })
    }

    @Test func handCountedCorpus() throws {
        var m = IntentMetrics()
        // 1. right intent, app and both parameters (accents and case folded).
        m.add(expected: try expected(#"{"intent": "sendMessage", "app": "MonkeyChat", "parameters": {"recipients": ["Íñigo"], "content": "hola"}}"#),
              predicted: frame("sendMessage", app: "MonkeyChat", [("recipients", .text("inigo")), ("content", .text("Hola"))]))
        // 2. right intent, wrong app, one of two recipients, one extra parameter.
        m.add(expected: try expected(#"{"intent": "sendMessage", "app": null, "parameters": {"recipients": ["Ana", "Luis"]}}"#),
              predicted: frame("sendMessage", app: "Parrot", [("recipients", .text("Ana")), ("content", .text("x"))]))
        // 3. wrong intent: its expected amount counts as missed.
        m.add(expected: try expected(#"{"intent": "sendPayment", "app": "MonkeyPay", "parameters": {"currencyAmount": {"amount": 20, "currency": "EUR"}}}"#),
              predicted: frame("requestPayment", app: "MonkeyPay", [("currencyAmount", .currencyAmount(CurrencyAmount(amount: 20, currency: "EUR")))]))
        // 4. typed value compared as JSON: 20 == 20.0.
        m.add(expected: try expected(#"{"intent": "sendPayment", "app": "MonkeyPay", "parameters": {"currencyAmount": {"amount": 20.0, "currency": "EUR"}}}"#),
              predicted: frame("sendPayment", app: "MonkeyPay", [("currencyAmount", .currencyAmount(CurrencyAmount(amount: 20, currency: "EUR")))]))
        // 5, 6. out of domain: one rejected, one accepted.
        m.add(expected: try expected(#"{"intent": null, "parameters": {}}"#), predicted: nil)
        m.add(expected: try expected(#"{"intent": null, "parameters": {}}"#), predicted: frame("sendMessage", app: nil, []))

        #expect(m.inDomain == 4 && m.outOfDomain == 2)
        #expect(m.intentCorrect == 3)
        #expect(m.appCorrect == 2)
        #expect(m.exactFrames == 2)
        #expect(m.rejected == 1)
        #expect(m.parametersExpected == 2 + 2 + 1 + 1)
        #expect(m.parametersPredicted == 2 + 2 + 1)
        #expect(m.parametersCorrect == 2 + 1 + 1)
        #expect(abs(m.intentAccuracy - 0.75) < 1e-9)
        #expect(abs(m.rejectionRate - 0.5) < 1e-9)
        #expect(abs(m.parameterPrecision - 4.0 / 5.0) < 1e-9)
        #expect(abs(m.parameterRecall - 4.0 / 6.0) < 1e-9)
        #expect(abs(m.parameterF1 - 2 * 0.8 * (4.0 / 6.0) / (0.8 + 4.0 / 6.0)) < 1e-9)
    }
}
