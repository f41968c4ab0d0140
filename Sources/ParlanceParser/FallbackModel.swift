import Foundation
import ParlanceText

/// The fallback for phrasings no template covers: a multinomial logistic regression over
/// normalized word unigrams and bigrams and character trigrams, trained from `Corpora/`
/// (`parlance train`), with a probability threshold below which the utterance is rejected
/// as out of domain. It decides the intent only; parameters then come from the entities
/// and known names in the utterance.
public struct FallbackModel: Sendable, Codable {
    public let language: String
    /// Class names: intent names, and `none` for out of domain.
    public let classes: [String]
    /// Below this probability the prediction is rejected.
    public let threshold: Double
    public let bias: [Double]
    /// Feature → sparse weights: [class index, weight] pairs.
    public let weights: [String: [[Double]]]
    /// How the model was made and how it did on held-out data.
    public let training: TrainingReport

    public struct TrainingReport: Sendable, Codable, Hashable {
        public let examples: Int
        public let heldOut: Int
        public let heldOutAccuracy: Double
        public let heldOutRejection: Double
        public let epochs: Int
        public let seed: UInt64
    }

    public static let none = "none"

    /// `Grammar/Models/<language>.json` in the bundle, or in `PARLANCE_MODEL_DIR` when set.
    static func url(for language: String) -> URL? {
        if let override = ProcessInfo.processInfo.environment["PARLANCE_MODEL_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("\(language).json")
        }
        return Bundle.module.url(forResource: language, withExtension: "json", subdirectory: "Grammar/Models")
    }

    /// Class probabilities for a feature set.
    func probabilities(_ features: [String]) -> [Double] {
        var scores = bias
        for feature in features {
            guard let pairs = weights[feature] else { continue }
            for pair in pairs { scores[Int(pair[0])] += pair[1] }
        }
        return Self.softmax(scores)
    }

    /// Below this share of known words, an utterance is out of domain whatever the model says:
    /// a linear model extrapolates wildly on words it never saw.
    public static let minimumCoverage = 0.5

    /// The share of the utterance's words the model has weights for.
    public func coverage(_ features: [String]) -> Double {
        let words = features.filter { $0.hasPrefix("w:") }
        guard !words.isEmpty else { return 0 }
        return Double(words.filter { weights[$0] != nil }.count) / Double(words.count)
    }

    /// The most likely class and its probability.
    public func predict(_ features: [String]) -> (label: String, probability: Double) {
        let p = probabilities(features)
        let best = p.indices.max { p[$0] < p[$1] }!
        return (classes[best], p[best])
    }

    static func softmax(_ scores: [Double]) -> [Double] {
        let m = scores.max() ?? 0
        let e = scores.map { Foundation.exp($0 - m) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}

/// The features of an utterance, shared by training and prediction: unit keys with
/// entities replaced by their type and app names by "@app", their bigrams, and the
/// character trigrams of each word (which carry misspellings and inflections).
enum FallbackFeatures {
    static func extract(units: [MatchUnit], entities: [Entity], mentions: [Range<Int>]) -> [String] {
        var words: [String] = []
        var i = 0
        while i < units.count {
            if let mention = mentions.first(where: { $0.lowerBound == i }) {
                words.append("@app")
                i = mention.upperBound
                continue
            }
            if let entity = entities.first(where: { $0.span.start == units[i].token.span.start }) {
                words.append("#" + entity.type.rawValue)
                while i < units.count, units[i].token.span.end <= entity.span.end { i += 1 }
                continue
            }
            words.append(units[i].key)
            i += 1
        }
        var features = Set<String>()
        for word in words {
            features.insert("w:" + word)
            guard !word.hasPrefix("#"), !word.hasPrefix("@") else { continue }
            let padded = Array("<" + word + ">")
            if padded.count >= 3 {
                for k in 0...(padded.count - 3) { features.insert("c:" + String(padded[k..<(k + 3)])) }
            }
        }
        let bounded = ["^"] + words + ["$"]
        for k in 0..<(bounded.count - 1) { features.insert("b:" + bounded[k] + " " + bounded[k + 1]) }
        return features.sorted()
    }
}

/// Trains a ``FallbackModel`` (deterministic for a seed).
public enum FallbackTrainer {
    public struct Example: Sendable {
        public var features: [String]
        public var label: String
        public var id: String

        public init(features: [String], label: String, id: String) {
            self.features = features
            self.label = label
            self.id = id
        }
    }

    /// Trains on the examples whose id is not in the held-out fifth, tunes the rejection
    /// threshold on the held-out fifth, then retrains on everything (or, with
    /// `excludeHeldOut`, keeps the model that never saw the held-out fifth, to measure the
    /// whole parser on it). The threshold maximizes held-out utterances handled right,
    /// where accepting an out-of-domain one costs `falseAcceptCost` times a missed one.
    public static func isHeldOut(_ id: String) -> Bool { stableHash(id) % 5 == 0 }

    public static func train(
        language: String, examples: [Example], epochs: Int = 40, seed: UInt64 = 2026, excludeHeldOut: Bool = false, falseAcceptCost: Double = 2
    ) -> FallbackModel {
        let classes = Array(Set(examples.map(\.label)).union([FallbackModel.none])).sorted()
        let heldOutIDs = Set(examples.filter { isHeldOut($0.id) }.map(\.id))
        let trainPart = examples.filter { !heldOutIDs.contains($0.id) }
        let heldOut = examples.filter { heldOutIDs.contains($0.id) }
        let probe = fit(trainPart, classes: classes, epochs: epochs, seed: seed)
        // Tune the threshold on held-out data: the share of utterances handled right
        // (in domain: the right intent above the threshold; out of domain: rejected).
        var best = (threshold: 0.5, score: -Double.infinity, accuracy: 0.0, rejection: 0.0)
        for step in 0...18 {
            let t = 0.2 + Double(step) * 0.04
            var right = 0.0, inDomain = 0, inRight = 0, ood = 0, oodRight = 0
            for e in heldOut {
                let p = probe.predict(e.features)
                let accepted = p.label != FallbackModel.none && p.probability >= t
                if e.label == FallbackModel.none {
                    ood += 1
                    if !accepted { oodRight += 1 } else { right -= falseAcceptCost }
                } else {
                    inDomain += 1
                    if accepted && p.label == e.label { inRight += 1; right += 1 }
                }
            }
            let score = right / Double(max(heldOut.count, 1))
            if score > best.score {
                best = (t, score, Double(inRight) / Double(max(inDomain, 1)), Double(oodRight) / Double(max(ood, 1)))
            }
        }
        let final = excludeHeldOut ? probe : fit(examples, classes: classes, epochs: epochs, seed: seed)
        return FallbackModel(
            language: language, classes: classes, threshold: (best.threshold * 100).rounded() / 100, bias: final.bias, weights: final.weights,
            training: .init(examples: examples.count, heldOut: heldOut.count, heldOutAccuracy: (best.accuracy * 1000).rounded() / 1000,
                            heldOutRejection: (best.rejection * 1000).rounded() / 1000, epochs: epochs, seed: seed))
    }

    /// Softmax regression with AdaGrad and L2, over shuffled epochs.
    static func fit(_ examples: [Example], classes: [String], epochs: Int, seed: UInt64) -> FallbackModel {
        let index = Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1, $0) })
        // Features seen once teach little and make the model large.
        var counts: [String: Int] = [:]
        for e in examples { for f in e.features { counts[f, default: 0] += 1 } }
        var featureIndex: [String: Int] = [:]
        for e in examples { for f in e.features where featureIndex[f] == nil && counts[f]! >= 2 { featureIndex[f] = featureIndex.count } }
        let k = classes.count
        var w = [Double](repeating: 0, count: featureIndex.count * k)
        var g = [Double](repeating: 1e-8, count: featureIndex.count * k)
        var b = [Double](repeating: 0, count: k)
        var gb = [Double](repeating: 1e-8, count: k)
        let rate = 0.3, l2 = 1e-4
        var order = Array(examples.indices)
        var rng = SplitMix64(seed: seed)
        let encoded = examples.map { e in (e.features.compactMap { featureIndex[$0] }, index[e.label]!) }
        for _ in 0..<epochs {
            order.shuffle(using: &rng)
            for n in order {
                let (features, label) = encoded[n]
                var scores = b
                for f in features { for c in 0..<k { scores[c] += w[f * k + c] } }
                let p = FallbackModel.softmax(scores)
                for c in 0..<k {
                    let grad = p[c] - (c == label ? 1 : 0)
                    gb[c] += grad * grad
                    b[c] -= rate * grad / gb[c].squareRoot()
                    for f in features {
                        let i = f * k + c
                        let gi = grad + l2 * w[i]
                        g[i] += gi * gi
                        w[i] -= rate * gi / g[i].squareRoot()
                    }
                }
            }
        }
        var weights: [String: [[Double]]] = [:]
        for (feature, f) in featureIndex {
            // Small weights change no decision; dropping them keeps the model files small.
            let pairs = (0..<k).compactMap { c -> [Double]? in
                let value = (w[f * k + c] * 100).rounded() / 100
                return abs(value) >= 0.05 ? [Double(c), value] : nil
            }
            if !pairs.isEmpty { weights[feature] = pairs }
        }
        return FallbackModel(language: "", classes: classes, threshold: 0.5, bias: b.map { ($0 * 1000).rounded() / 1000 }, weights: weights,
                             training: .init(examples: examples.count, heldOut: 0, heldOutAccuracy: 0, heldOutRejection: 0, epochs: epochs, seed: seed))
    }

    /// FNV-1a: a split that does not change between runs or machines.
    static func stableHash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
