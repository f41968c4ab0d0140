import Foundation
import ParlanceContext
import ParlanceText

/// What the trained tier's tagger reads of one utterance: its units, with what the text
/// layer and the context already know about each (entity, known name, app mention).
struct TaggerInput: Sendable {
    var keys: [String]
    /// The word shape of each unit as said: "Xx", "x", "X", "d", "Xd", "p".
    var shapes: [String]
    /// "B-<type>"/"I-<type>" for units inside a text-layer entity, else nil.
    var entities: [String?]
    /// "B-<vocabulary type>"/"I-…" for units inside a known name of the context, else nil.
    var known: [String?]
    /// Units of the app mention and the words that go with it.
    var app: [Bool]
    /// Words that never are (or start) a name: pronouns, articles.
    var function: [Bool]
    /// The Snowball stem of each unit (empty when the language has no stemmer).
    var stems: [String] = []
    /// "B-<kind>"/"I-<kind>" for units inside a sample value of the language's gazetteer
    /// (people, places, activities…), else nil (empty: none marked).
    var gazetteer: [String?] = []

    var count: Int { keys.count }

    static func shape(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return "" }
        let properties = first.properties
        if properties.numericType != nil { return text.unicodeScalars.allSatisfy { $0.properties.numericType != nil } ? "d" : "dx" }
        if properties.isUppercase {
            let rest = text.unicodeScalars.dropFirst()
            if rest.isEmpty { return "X" }
            return rest.allSatisfy { $0.properties.isUppercase } ? "XX" : "Xx"
        }
        if properties.isAlphabetic { return "x" }
        return "p"
    }

    /// The features of position `i` for a reading of `intent`: the words around it, its
    /// affixes and shape, the entity and known-name marks, the app mention, and the same
    /// conjoined with the intent (a name after "to" is a recipient in one intent and a
    /// drop-off in another).
    func features(at i: Int, intent: String, capitalsCarrySignal: Bool) -> [String] {
        func key(_ j: Int) -> String { j < 0 ? "^" : j >= keys.count ? "$" : keys[j] }
        let w = keys[i]
        var f: [String] = [
            "b", "w=" + w, "w-1=" + key(i - 1), "w+1=" + key(i + 1), "w-2=" + key(i - 2), "w+2=" + key(i + 2),
            "w-1w=" + key(i - 1) + " " + w, "ww+1=" + w + " " + key(i + 1),
            "e=" + (entities[i] ?? "-"), "k=" + (known[i] ?? "-"),
            "e-1=" + (i > 0 ? entities[i - 1] ?? "-" : "^"), "k-1=" + (i > 0 ? known[i - 1] ?? "-" : "^"),
            "k+1=" + (i + 1 < count ? known[i + 1] ?? "-" : "$"),
            "app=" + (app[i] ? "1" : "0"), "fn=" + (function[i] ? "1" : "0"),
            "afterApp=" + (app[..<i].contains(true) ? "1" : "0"),
            "pos=" + (i == 0 ? "first" : i == count - 1 ? "last" : i < 3 ? "early" : "mid")
        ]
        if capitalsCarrySignal { f.append("sh=" + shapes[i]) }
        if gazetteer.count == count {
            f.append("g=" + (gazetteer[i] ?? "-"))
            f.append(intent + "|g=" + (gazetteer[i] ?? "-"))
        }
        if stems.count == count {
            f.append("st=" + stems[i])
            f.append("st-1=" + (i > 0 ? stems[i - 1] : "^"))
            f.append("st+1=" + (i + 1 < count ? stems[i + 1] : "$"))
        }
        let letters = Array(w)
        if letters.count >= 4 {
            f.append("s3=" + String(letters.suffix(3)))
            f.append("p3=" + String(letters.prefix(3)))
        }
        let conjoined = [
            "b", "w=" + w, "w-1=" + key(i - 1), "w+1=" + key(i + 1), "e=" + (entities[i] ?? "-"), "k=" + (known[i] ?? "-"),
            "w-2=" + key(i - 2), "fn=" + (function[i] ? "1" : "0")
        ]
        for c in conjoined { f.append(intent + "|" + c) }
        return f
    }
}

/// The trained tier's parameter tagger: a linear-chain model over BIO labels of parameter
/// names, trained as an averaged structured perceptron and decoded with Viterbi restricted
/// to the labels of one intent (as Snips NLU's CRF slot filler is per intent, but one model
/// shares what intents have in common). Weights are sparse; the model is stored as a compact
/// binary file (see `FrameModelFile`).
public struct FrameTagger: Sendable {
    /// "O", then "B-<parameter>", "I-<parameter>" for every tagged parameter.
    let labels: [String]
    /// The features with weights, by row.
    let features: FeatureTable
    /// CSR rows: for feature f, pairs offsets[f]..<offsets[f+1] of (label, weight).
    let offsets: [Int32]
    let pairLabels: [UInt16]
    let pairWeights: [Float]
    /// (labels + 1) × labels: row `labels.count` is the start of the utterance.
    let transitions: [Float]
    let capitalsCarrySignal: Bool
    /// Whether every index the weights hold falls inside its table (offsets rising from 0 to
    /// the number of weights, one more than the features; every label one of `labels`):
    /// checked once, then `tag` reads the tables without a check per weight.
    private let indicesInBounds: Bool

    init(
        labels: [String], features: FeatureTable, offsets: [Int32], pairLabels: [UInt16], pairWeights: [Float], transitions: [Float],
        capitalsCarrySignal: Bool
    ) {
        self.labels = labels
        self.features = features
        self.offsets = offsets
        self.pairLabels = pairLabels
        self.pairWeights = pairWeights
        self.transitions = transitions
        self.capitalsCarrySignal = capitalsCarrySignal
        self.indicesInBounds = Self.inBounds(
            offsets: offsets, rows: features.count, pairLabels: pairLabels, pairWeights: pairWeights, labels: labels.count)
    }

    /// Whether the weights' indices all fall inside their tables (see `indicesInBounds`;
    /// `FallbackModel.inBounds`, with labels for classes).
    static func inBounds(offsets: [Int32], rows: Int, pairLabels: [UInt16], pairWeights: [Float], labels: Int) -> Bool {
        FallbackModel.inBounds(rows: rows, offsets: offsets, pairClasses: pairLabels, pairWeights: pairWeights, classes: labels)
    }

    var labelCount: Int { labels.count }
    /// How many features carry weights.
    public var featureCount: Int { features.count }

    /// Labels allowed for an intent's parameters.
    func allowed(parameters: [String]) -> [Bool] {
        let names = Set(parameters)
        return labels.map { $0 == "O" || names.contains(String($0.dropFirst(2))) }
    }

    /// The best label sequence for a reading of `intent` whose taggable parameters are
    /// `parameters`, and its score margin per position (best label minus the next, a
    /// measure of how sure the tagger is).
    func tag(_ input: TaggerInput, intent: String, parameters: [String]) -> [String] {
        let allowed = allowed(parameters: parameters)
        // The weights read through raw buffers when every index they hold is in range (checked
        // once per tagger, `indicesInBounds`); the sums are made in the same order either way.
        let unchecked = indicesInBounds
        let emissions = (0..<input.count).map { i -> [Float] in
            var scores = [Float](repeating: 0, count: labelCount)
            let features = input.features(at: i, intent: intent, capitalsCarrySignal: capitalsCarrySignal)
            guard unchecked else {
                for feature in features {
                    guard let f = self.features[feature] else { continue }
                    for p in Int(offsets[Int(f)])..<Int(offsets[Int(f) + 1]) { scores[Int(pairLabels[p])] += pairWeights[p] }
                }
                return scores
            }
            scores.withUnsafeMutableBufferPointer { scores in
                offsets.withUnsafeBufferPointer { offsets in
                    pairLabels.withUnsafeBufferPointer { labels in
                        pairWeights.withUnsafeBufferPointer { weights in
                            for feature in features {
                                guard let f = self.features[feature] else { continue }
                                for p in Int(offsets[Int(f)])..<Int(offsets[Int(f) + 1]) { scores[Int(labels[p])] += weights[p] }
                            }
                        }
                    }
                }
            }
            return scores
        }
        return Viterbi.decode(emissions: emissions, transitions: transitions, labels: labels, allowed: allowed).map { labels[$0] }
    }
}

/// First-order Viterbi with BIO constraints (an I- label only after its B- or I-).
enum Viterbi {
    static func decode(emissions: [[Float]], transitions: [Float], labels: [String], allowed: [Bool]) -> [Int] {
        let n = emissions.count
        let k = labels.count
        guard n > 0 else { return [] }
        // Each label's parameter as a number (-1 for "O"), and each I- label's parameter (-3
        // for a label that is no I- one, -2 for a parameter no label other than "O" has): an I-
        // label follows a label of its parameter, compared as numbers rather than strings.
        var numbers: [Substring: Int] = [:]
        let parameter = labels.map { label -> Int in
            guard label != "O" else { return -1 }
            let name = label.dropFirst(2)
            if let known = numbers[name] { return known }
            numbers[name] = numbers.count
            return numbers.count - 1
        }
        let inside = labels.map { label -> Int in label.hasPrefix("I-") ? numbers[label.dropFirst(2)] ?? -2 : -3 }
        func legal(_ from: Int?, _ to: Int) -> Bool {
            guard allowed[to] else { return false }
            guard inside[to] != -3 else { return true }
            guard let from else { return false }
            return parameter[from] == inside[to]
        }
        var score = [Float](repeating: -.infinity, count: k)
        var back = [[Int]](repeating: [Int](repeating: 0, count: k), count: n)
        for y in 0..<k where legal(nil, y) { score[y] = transitions[k * k + y] + emissions[0][y] }
        for i in 1..<n {
            var next = [Float](repeating: -.infinity, count: k)
            for y in 0..<k where allowed[y] {
                var best: Float = -.infinity
                var arg = 0
                for x in 0..<k where score[x] > -.infinity && legal(x, y) {
                    let s = score[x] + transitions[x * k + y]
                    if s > best {
                        best = s
                        arg = x
                    }
                }
                if best > -.infinity {
                    next[y] = best + emissions[i][y]
                    back[i][y] = arg
                }
            }
            score = next
        }
        var y = score.indices.max { score[$0] < score[$1] }!
        var path = [Int](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            path[i] = y
            y = back[i][y]
        }
        return path
    }
}

/// Trains a `FrameTagger` (averaged structured perceptron; deterministic for a seed).
public enum FrameTaggerTrainer {
    struct Example {
        var input: TaggerInput
        var intent: String
        var parameters: [String]
        var gold: [String]
    }

    static func train(_ examples: [Example], epochs: Int = 12, seed: UInt64 = 2026, capitalsCarrySignal: Bool) -> FrameTagger {
        var labelSet = Set<String>()
        for e in examples { for l in e.gold where l != "O" { labelSet.insert(l) } }
        for e in examples {
            for p in e.parameters {
                labelSet.insert("B-" + p)
                labelSet.insert("I-" + p)
            }
        }
        let labels = ["O"] + labelSet.sorted()
        let labelIndex = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        let k = labels.count
        // Features, with their rows, as met.
        var featureIndex: [String: Int32] = [:]
        let encoded: [(features: [[Int32]], gold: [Int], allowed: [Bool])] = examples.map { e in
            let features = (0..<e.input.count).map { i in
                e.input.features(at: i, intent: e.intent, capitalsCarrySignal: capitalsCarrySignal).map { f -> Int32 in
                    if let id = featureIndex[f] { return id }
                    let id = Int32(featureIndex.count)
                    featureIndex[f] = id
                    return id
                }
            }
            let names = Set(e.parameters)
            let allowed = labels.map { $0 == "O" || names.contains(String($0.dropFirst(2))) }
            return (features, e.gold.map { labelIndex[$0] ?? 0 }, allowed)
        }
        let f = featureIndex.count
        var w = [Float](repeating: 0, count: f * k)
        var u = [Float](repeating: 0, count: f * k)
        var t = [Float](repeating: 0, count: (k + 1) * k)
        var tu = [Float](repeating: 0, count: (k + 1) * k)
        var c: Float = 1
        var order = Array(encoded.indices)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<epochs {
            order.shuffle(using: &rng)
            for n in order {
                let (features, gold, allowed) = encoded[n]
                let emissions = features.map { row -> [Float] in
                    var s = [Float](repeating: 0, count: k)
                    for id in row {
                        let base = Int(id) * k
                        for y in 0..<k { s[y] += w[base + y] }
                    }
                    return s
                }
                let predicted = Viterbi.decode(emissions: emissions, transitions: t, labels: labels, allowed: allowed)
                if predicted != gold {
                    for i in features.indices where predicted[i] != gold[i] {
                        for id in features[i] {
                            let base = Int(id) * k
                            w[base + gold[i]] += 1
                            u[base + gold[i]] += c
                            w[base + predicted[i]] -= 1
                            u[base + predicted[i]] -= c
                        }
                    }
                    for i in features.indices {
                        let g0 = i == 0 ? k : gold[i - 1]
                        let p0 = i == 0 ? k : predicted[i - 1]
                        if g0 != p0 || gold[i] != predicted[i] {
                            t[g0 * k + gold[i]] += 1
                            tu[g0 * k + gold[i]] += c
                            t[p0 * k + predicted[i]] -= 1
                            tu[p0 * k + predicted[i]] -= c
                        }
                    }
                }
                c += 1
            }
        }
        // Averaged weights; rows kept sparse.
        var offsets: [Int32] = [0]
        var pairLabels: [UInt16] = []
        var pairWeights: [Float] = []
        var kept: [String: Int32] = [:]
        let names = featureIndex.sorted { $0.value < $1.value }
        for (feature, id) in names {
            let base = Int(id) * k
            var any = false
            for y in 0..<k {
                let value = w[base + y] - u[base + y] / c
                if abs(value) >= 0.01 {
                    pairLabels.append(UInt16(y))
                    pairWeights.append(value)
                    any = true
                }
            }
            if any {
                kept[feature] = Int32(offsets.count - 1)
                offsets.append(Int32(pairLabels.count))
            }
        }
        let transitions = (0..<t.count).map { t[$0] - tu[$0] / c }
        return FrameTagger(
            labels: labels, features: FeatureTable(rows: kept), offsets: offsets, pairLabels: pairLabels, pairWeights: pairWeights,
            transitions: transitions, capitalsCarrySignal: capitalsCarrySignal)
    }
}
