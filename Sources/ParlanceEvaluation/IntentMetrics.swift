import Foundation
import ParlanceParser
import ParlanceText

/// Accuracy of parses against annotations, with the definitions used everywhere in
/// Parlance (tests, `parlance eval`, the closing notes):
/// - intent accuracy: in-domain records whose predicted intent is the expected one;
/// - out-of-domain rejection: out-of-domain records with no predicted intent;
/// - app accuracy: in-domain records with the right intent and the right app;
/// - parameters: a predicted (name, value) pair is right when an expected one has the
///   same name and the same value after case and diacritic folding (typed values compared
///   as JSON), counted with multiplicity; precision, recall and F1 over all in-domain
///   records whose intent is right (records with a wrong intent count their expected
///   parameters as missed);
/// - exact frame: right intent, right app and exactly the expected parameters.
public struct IntentMetrics: Sendable, Codable, Hashable {
    public var inDomain = 0
    public var intentCorrect = 0
    public var appCorrect = 0
    public var exactFrames = 0
    public var outOfDomain = 0
    public var rejected = 0
    public var parametersPredicted = 0
    public var parametersExpected = 0
    public var parametersCorrect = 0

    public init() {}

    public var intentAccuracy: Double { ratio(intentCorrect, inDomain) }
    public var appAccuracy: Double { ratio(appCorrect, inDomain) }
    public var exactFrameRate: Double { ratio(exactFrames, inDomain) }
    public var rejectionRate: Double { ratio(rejected, outOfDomain) }
    /// Out-of-domain records that got an intent.
    public var falseAcceptanceRate: Double { ratio(outOfDomain - rejected, outOfDomain) }
    public var parameterPrecision: Double { ratio(parametersCorrect, parametersPredicted) }
    public var parameterRecall: Double { ratio(parametersCorrect, parametersExpected) }
    public var parameterF1: Double {
        let (p, r) = (parameterPrecision, parameterRecall)
        return p + r == 0 ? 0 : 2 * p * r / (p + r)
    }

    private func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) / Double(b) }

    /// Adds one record and its parse.
    public mutating func add(expected: AnnotatedRecord.Expected, predicted: IntentFrame?, parametersAnnotated: Bool = true) {
        guard let intent = expected.intent else {
            outOfDomain += 1
            if predicted == nil { rejected += 1 }
            return
        }
        inDomain += 1
        let gold = parametersAnnotated ? Self.pairs(expected.parameters) : [:]
        if parametersAnnotated { parametersExpected += gold.values.reduce(0, +) }
        guard let predicted, predicted.name == intent else { return }
        intentCorrect += 1
        if predicted.app == expected.app { appCorrect += 1 }
        guard parametersAnnotated else { return }
        let got = Self.pairs(predicted)
        parametersPredicted += got.values.reduce(0, +)
        let correct = gold.reduce(0) { $0 + min($1.value, got[$1.key] ?? 0) }
        parametersCorrect += correct
        if got == gold && predicted.app == expected.app { exactFrames += 1 }
    }

    public static func + (a: IntentMetrics, b: IntentMetrics) -> IntentMetrics {
        var m = a
        m.inDomain += b.inDomain; m.intentCorrect += b.intentCorrect; m.appCorrect += b.appCorrect; m.exactFrames += b.exactFrames
        m.outOfDomain += b.outOfDomain; m.rejected += b.rejected
        m.parametersPredicted += b.parametersPredicted; m.parametersExpected += b.parametersExpected; m.parametersCorrect += b.parametersCorrect
        return m
    }

    /// Expected parameters as comparable (name, folded value) pairs with counts.
    static func pairs(_ parameters: [String: JSONValue]) -> [String: Int] { counts(comparableValues(parameters)) }

    static func pairs(_ frame: IntentFrame) -> [String: Int] { counts(comparableValues(frame)) }

    static func counts(_ values: [String: [String]]) -> [String: Int] {
        var result: [String: Int] = [:]
        for (name, list) in values {
            for v in list { result["\(name)=\(v)", default: 0] += 1 }
        }
        return result
    }

    /// Annotated parameter values by name, folded for comparison (a list gives each item).
    static func comparableValues(_ parameters: [String: JSONValue]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (name, value) in parameters {
            let items: [JSONValue] = if case .array(let list) = value { list } else { [value] }
            result[name] = items.map(comparable)
        }
        return result
    }

    /// Predicted parameter values by name, in utterance order, folded for comparison.
    static func comparableValues(_ frame: IntentFrame) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for p in frame.parameters {
            let json = (try? JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(p.value))) ?? .string(p.raw)
            result[p.name, default: []].append(comparable(json))
        }
        return result
    }

    /// Case- and diacritic-folded strings; numbers without trailing zeros; objects by sorted keys.
    static func comparable(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return TextNormalizer.key(s).trimmingCharacters(in: .whitespaces)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array(let a): return "[" + a.map(comparable).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.keys.sorted().map { "\($0):\(comparable(o[$0]!))" }.joined(separator: ",") + "}"
        }
    }
}
