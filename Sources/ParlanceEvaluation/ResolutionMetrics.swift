import ParlanceContext
import ParlanceParser

/// Resolution accuracy against `expected.resolution`, per expected kind.
/// - An expected resolution of parameter P (or of its n-th value) is compared with the
///   resolution on the predicted intent's n-th value of P, or, for `needsValue`, with the
///   predicted intent's `missing` entry for P. No predicted intent or value → wrong.
/// - Right means: same kind; for success and confirmationRequired the same item id; for
///   disambiguation the same set of ids; other kinds carry no items.
public struct ResolutionMetrics: Sendable, Codable, Hashable {
    /// Expected resolutions of one kind, and how many were right.
    public struct Count: Sendable, Codable, Hashable {
        /// Expected resolutions of the kind.
        public var expected = 0
        /// Those the parser got right.
        public var correct = 0
        /// `correct` / `expected`; 0 when none was expected.
        public var accuracy: Double { expected == 0 ? 0 : Double(correct) / Double(expected) }
    }

    /// By expected kind.
    public var byKind: [String: Count] = [:]
    /// Expected kind → predicted kind ("none" when nothing was predicted) → count.
    public var confusion: [String: [String: Int]] = [:]

    /// Empty metrics: nothing expected yet.
    public init() {}

    /// Expected resolutions over every kind.
    public var expected: Int { byKind.values.reduce(0) { $0 + $1.expected } }
    /// Right resolutions over every kind.
    public var correct: Int { byKind.values.reduce(0) { $0 + $1.correct } }
    /// `correct` / `expected` over every kind; 0 when none was expected.
    public var accuracy: Double { expected == 0 ? 0 : Double(correct) / Double(expected) }

    /// Adds one record; returns the (parameter, expected, predicted) pairs that were wrong.
    @discardableResult
    public mutating func add(expected: [String: ExpectedResolutions]?, predicted intent: IntentFrame?) -> [(
        parameter: String, expected: ExpectedResolution, predicted: Resolution?
    )] {
        var wrong: [(String, ExpectedResolution, Resolution?)] = []
        for (name, expectations) in (expected ?? [:]).sorted(by: { $0.key < $1.key }) {
            let values = intent?.values(name) ?? []
            for (n, expectation) in expectations.all.enumerated() {
                let predicted: Resolution?
                if expectation.kind == .needsValue, values.isEmpty {
                    predicted = intent?.missing.first { $0.name == name }?.resolution
                } else {
                    predicted = n < values.count ? values[n].resolution : nil
                }
                let right = expectation.matches(predicted)
                byKind[expectation.kind.rawValue, default: Count()].expected += 1
                if right {
                    byKind[expectation.kind.rawValue, default: Count()].correct += 1
                } else {
                    wrong.append((name, expectation, predicted))
                }
                confusion[expectation.kind.rawValue, default: [:]][predicted?.kind.rawValue ?? "none", default: 0] += 1
            }
        }
        return wrong
    }

    /// The counts and confusion tables of two metrics, added up.
    public static func + (a: ResolutionMetrics, b: ResolutionMetrics) -> ResolutionMetrics {
        var sum = a
        for (kind, count) in b.byKind {
            sum.byKind[kind, default: Count()].expected += count.expected
            sum.byKind[kind, default: Count()].correct += count.correct
        }
        for (kind, row) in b.confusion {
            for (predicted, n) in row { sum.confusion[kind, default: [:]][predicted, default: 0] += n }
        }
        return sum
    }
}
