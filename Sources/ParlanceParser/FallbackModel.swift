import Foundation
import ParlanceContext
import ParlanceText

/// The fallback for phrasings no template covers: a multinomial logistic regression over
/// normalized word unigrams and bigrams and character trigrams, trained from `Corpora/`
/// (`parlance train`), with a probability threshold below which the utterance is rejected
/// as out of domain. It decides the intent only; parameters then come from the entities
/// and known names in the utterance.
public struct FallbackModel: Sendable, Codable {
    /// The language code of the utterances the model reads ("en").
    public let language: String
    /// Class names: intent names, and `none` for out of domain.
    public let classes: [String]
    /// Below this probability the prediction is rejected.
    public let threshold: Double
    /// The bias of each class, in the order of `classes`.
    public let bias: [Double]
    /// How the model was made and how it did on held-out data.
    public let training: TrainingReport
    /// The weights, compact (one row of (class, weight) pairs per feature, in flat arrays), so
    /// that a model of tens of thousands of features loads without an allocation per feature.
    let rows: FeatureTable
    let offsets: [Int32]
    let pairClasses: [UInt16]
    let pairWeights: [Float]

    /// How a model was trained, and how it did on the examples kept aside.
    ///
    /// A classifier read from a model file (`FrameModel(decoding:file:)`) has zeros here: the file
    /// keeps these figures in `FrameModel.report`.
    public struct TrainingReport: Sendable, Codable, Hashable {
        /// Examples in the training data, those kept aside included.
        public let examples: Int
        /// Examples kept aside: never trained on, used to fit the temperature and tune the threshold.
        public let heldOut: Int
        /// Share (0–1) of the in-domain aside examples given the right intent above the threshold.
        public let heldOutAccuracy: Double
        /// Share (0–1) of the out-of-domain aside examples rejected.
        public let heldOutRejection: Double
        /// Passes made over the training examples.
        public let epochs: Int
        /// The seed of the shuffling, which makes training deterministic.
        public let seed: UInt64
    }

    /// The class of out-of-domain utterances: a prediction of it rejects the utterance.
    public static let none = "none"

    /// A model from its weights as the JSON form gives them, stored compactly.
    ///
    /// - Parameters:
    ///   - language: the language code ("en").
    ///   - classes: the class names: intent names, and `none` for out of domain.
    ///   - threshold: the probability below which a prediction is rejected.
    ///   - bias: the bias of each class, in the order of `classes`.
    ///   - weights: feature → sparse weights, [class index, weight] pairs.
    ///   - training: how the model was made.
    public init(
        language: String, classes: [String], threshold: Double, bias: [Double], weights: [String: [[Double]]], training: TrainingReport
    ) {
        var names: [String] = []
        names.reserveCapacity(weights.count)
        var offsets: [Int32] = [0]
        var pairClasses: [UInt16] = []
        var pairWeights: [Float] = []
        for (feature, pairs) in weights.sorted(by: { $0.key < $1.key }) {
            names.append(feature)
            for pair in pairs {
                pairClasses.append(UInt16(pair[0]))
                pairWeights.append(Float(pair[1]))
            }
            offsets.append(Int32(pairClasses.count))
        }
        self.init(
            language: language, classes: classes, threshold: threshold, bias: bias, rows: FeatureTable(names), offsets: offsets,
            pairClasses: pairClasses, pairWeights: pairWeights, training: training)
    }

    init(
        language: String, classes: [String], threshold: Double, bias: [Double], rows: FeatureTable, offsets: [Int32],
        pairClasses: [UInt16],
        pairWeights: [Float], training: TrainingReport
    ) {
        self.language = language
        self.classes = classes
        self.threshold = threshold
        self.bias = bias
        self.rows = rows
        self.offsets = offsets
        self.pairClasses = pairClasses
        self.pairWeights = pairWeights
        self.training = training
        self.indicesInBounds = Self.inBounds(
            rows: rows.count, offsets: offsets, pairClasses: pairClasses, pairWeights: pairWeights, classes: bias.count)
        self.rowsAscend = rows.ascendsByBytes()
        self.serial = MemoOwner.next()
    }

    /// Which model a word's rows were looked up in (`IDsMemo`): one number per model made
    /// (copies share it, and their tables).
    let serial: Int

    /// Whether the features' rows are in the order of their names (byte by byte, each name
    /// once), as models are written: then an utterance's features sorted are its rows sorted,
    /// and the classifier reads rows found without making a string per feature
    /// (`FallbackFeatures.rows`).
    let rowsAscend: Bool

    /// Whether every index the weights hold falls inside its table: a row's offsets (one more
    /// than the rows, rising from 0 to the number of weights) and each weight's class. Checked
    /// once per model; `scores` then reads the tables without a check per weight, and a model
    /// that fails it is read with every check (and stops at the first bad index, as before).
    private let indicesInBounds: Bool

    /// Whether sparse rows' indices all fall inside their tables: `rows + 1` offsets rising from
    /// 0 to the number of pairs, and every pair's class below `classes` (the classifier's, and
    /// the tagger's with labels for classes).
    static func inBounds(rows: Int, offsets: [Int32], pairClasses: [UInt16], pairWeights: [Float], classes: Int) -> Bool {
        guard offsets.count == rows + 1, offsets.first == 0, Int(offsets[rows]) == pairClasses.count, pairWeights.count == pairClasses.count
        else { return false }
        // Plain loops over the buffers, which the compiler vectorizes: a model has about a
        // million weights, read here once.
        let rising = offsets.withUnsafeBufferPointer { o in
            var fall: Int32 = 0
            for k in 0..<rows { fall |= (o[k + 1] &- o[k]) & Int32.min }
            return fall == 0
        }
        let highest = pairClasses.withUnsafeBufferPointer { c in
            var most: UInt16 = 0
            for k in c.indices { most = Swift.max(most, c[k]) }
            return most
        }
        return rising && (pairClasses.isEmpty || Int(highest) < classes)
    }

    /// The same weights under another language, threshold or training report.
    func with(language: String? = nil, threshold: Double? = nil, training: TrainingReport? = nil) -> FallbackModel {
        FallbackModel(
            language: language ?? self.language, classes: classes, threshold: threshold ?? self.threshold, bias: bias, rows: rows,
            offsets: offsets,
            pairClasses: pairClasses, pairWeights: pairWeights, training: training ?? self.training)
    }

    /// Feature → sparse weights: [class index, weight] pairs (built on demand, for writing and
    /// inspecting a model).
    public var weights: [String: [[Double]]] {
        var result: [String: [[Double]]] = [:]
        for (row, feature) in rows.names.enumerated() { result[feature] = pairs(Int32(row)).map { [Double($0.0), Double($0.1)] } }
        return result
    }

    /// The features the model has weights for, in the order of their rows.
    public var features: [String] { rows.names }
    /// How many features the model has weights for.
    public var featureCount: Int { rows.count }

    /// Whether the model has weights for a feature.
    public func knows(_ feature: String) -> Bool { rows[feature] != nil }

    /// One feature's (class, weight) pairs, in the order written.
    func pairs(_ row: Int32) -> [(Int, Float)] {
        (Int(offsets[Int(row)])..<Int(offsets[Int(row) + 1])).map { (Int(pairClasses[$0]), pairWeights[$0]) }
    }

    enum CodingKeys: String, CodingKey { case language, classes, threshold, bias, weights, training }

    /// Reads the JSON form `encode(to:)` writes: `language`, `classes`, `threshold`, `bias`, `weights`
    /// (feature → [class index, weight] pairs) and `training`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            language: try c.decode(String.self, forKey: .language), classes: try c.decode([String].self, forKey: .classes),
            threshold: try c.decode(Double.self, forKey: .threshold), bias: try c.decode([Double].self, forKey: .bias),
            weights: try c.decode([String: [[Double]]].self, forKey: .weights),
            training: try c.decode(TrainingReport.self, forKey: .training))
    }

    /// Writes the JSON form: `language`, `classes`, `threshold`, `bias`, `weights` (as `weights` gives
    /// them) and `training`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(language, forKey: .language)
        try c.encode(classes, forKey: .classes)
        try c.encode(threshold, forKey: .threshold)
        try c.encode(bias, forKey: .bias)
        try c.encode(weights, forKey: .weights)
        try c.encode(training, forKey: .training)
    }

    /// Class scores (logits) for a feature set: the bias, then each feature's weights added in
    /// the order of the features and of the weights (read through raw buffers: no bounds or
    /// uniqueness check per weight).
    func scores(_ features: [String]) -> [Double] { scores(rows: features.compactMap { rows[$0] }) }

    /// The classes' scores from the rows of the features (`rows`), summed in the rows' order.
    func scores(rows found: [Int32]) -> [Double] {
        var scores = bias
        guard indicesInBounds else {
            for row in found where Int(row) < rows.count {
                for p in Int(offsets[Int(row)])..<Int(offsets[Int(row) + 1]) { scores[Int(pairClasses[p])] += Double(pairWeights[p]) }
            }
            return scores
        }
        scores.withUnsafeMutableBufferPointer { scores in
            offsets.withUnsafeBufferPointer { offsets in
                pairClasses.withUnsafeBufferPointer { classes in
                    pairWeights.withUnsafeBufferPointer { weights in
                        for row in found where Int(row) < offsets.count - 1 {
                            for p in Int(offsets[Int(row)])..<Int(offsets[Int(row) + 1]) {
                                scores[Int(classes[p])] += Double(weights[p])
                            }
                        }
                    }
                }
            }
        }
        return scores
    }

    /// The rows of an utterance's features (`FallbackFeatures.extract`), in the features'
    /// order, those the model has no weights for left out: found from the words without a
    /// string per feature when the rows are in the names' order (`rowsAscend`).
    func rows(units: [MatchUnit], entities: [Entity], mentions: [Range<Int>], stemmer: Stemmer?) -> [Int32] {
        guard rowsAscend else {
            return FallbackFeatures.extract(units: units, entities: entities, mentions: mentions, stemmer: stemmer).compactMap { rows[$0] }
        }
        return FallbackFeatures.rows(units: units, entities: entities, mentions: mentions, stemmer: stemmer, table: rows, model: serial)
    }

    /// Class probabilities for a feature set.
    func probabilities(_ features: [String]) -> [Double] { Self.softmax(scores(features)) }

    /// Below this share of known words, an utterance is out of domain whatever the model says:
    /// a linear model extrapolates wildly on words it never saw.
    public static let minimumCoverage = 0.5

    /// The share of the utterance's words the model has weights for.
    public func coverage(_ features: [String], excluding names: Set<String> = []) -> Double {
        let words = features.filter { $0.hasPrefix("w:") && !names.contains($0) }
        guard !words.isEmpty else { return 0 }
        return Double(words.filter { knows($0) }.count) / Double(words.count)
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
/// entities replaced by their type and app names by "@app", their Snowball stems, their
/// bigrams, and the character trigrams of each word (which carry misspellings and inflections).
enum FallbackFeatures {
    /// The words the features are made of: each unit's key, a mention's units as "@app", an
    /// entity's as "#" and its type.
    static func words(units: [MatchUnit], entities: [Entity], mentions: [Range<Int>]) -> [String] {
        var words: [String] = []
        words.reserveCapacity(units.count)
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
        return words
    }

    /// Each feature of the words, as its bytes, in the order made (a feature may come twice):
    /// "w:" and each word; for words but "@app" and entities, "s:" and its Snowball stem (one
    /// feature for "llamo", "llamar", "llamadas") and "c:" and each character trigram of the
    /// word padded with "<" and ">"; "b:" and each bigram of words with a space between, from
    /// "^" to "$". Written in one buffer, no string made (`extract` and `rows` read them).
    /// `ofWords: false` leaves out the features of each word (its own, stem and trigrams),
    /// `bigrams: false` the bigrams: the two parts, made apart, are the same features.
    static func forEachFeature(
        of words: [String], stemmer: Stemmer?, ofWords: Bool = true, bigrams: Bool = true, _ body: (UnsafeRawBufferPointer) -> Void
    ) {
        // "@app" and entities ("#date") have no stem and no trigrams.
        let marked = ofWords ? words.map { $0.hasPrefix("#") || $0.hasPrefix("@") } : []
        let stems = ofWords ? stemmer.map { s in words.indices.map { marked[$0] ? "" : s.stem(words[$0]) } } ?? [] : []
        // Room for the longest feature: a kind, a colon and two words with a space; the
        // padded word (for its trigrams) goes after the eight bytes a trigram feature needs.
        let longest = max(words.map(\.utf8.count).max() ?? 0, stems.map(\.utf8.count).max() ?? 0, 16)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * longest + 8) { buffer in
            var count = 0
            func emit() { body(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)) }
            func start(_ kind: UInt8) {
                buffer[0] = kind
                buffer[1] = UInt8(ascii: ":")
                count = 2
            }
            func add(_ text: String) { count = write(text, into: buffer, at: count) }
            for (n, word) in words.enumerated() where ofWords {
                start(UInt8(ascii: "w"))
                add(word)
                emit()
                guard !marked[n] else { continue }
                if !stems.isEmpty {
                    start(UInt8(ascii: "s"))
                    add(stems[n])
                    emit()
                }
                // A word of printable ASCII has one character per byte: its trigrams are cut
                // from the bytes. Any other word is cut by its character boundaries.
                if word.bytesAllSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                    let padded = buffer.baseAddress! + 8
                    padded[0] = UInt8(ascii: "<")
                    let end = write(word, into: buffer, at: 9) - 8
                    padded[end] = UInt8(ascii: ">")
                    // (An empty word, "<>", has no trigram.)
                    for k in stride(from: 0, through: end - 2, by: 1) {
                        start(UInt8(ascii: "c"))
                        buffer[2] = padded[k]
                        buffer[3] = padded[k + 1]
                        buffer[4] = padded[k + 2]
                        count = 5
                        emit()
                    }
                    continue
                }
                let padded = "<" + word + ">"
                let bounds = padded.characterBounds
                if bounds.count >= 4 {
                    for k in 0...(bounds.count - 4) {
                        start(UInt8(ascii: "c"))
                        add(String(padded[bounds[k]..<bounds[k + 3]]))
                        emit()
                    }
                }
            }
            for k in 0...words.count where bigrams {
                start(UInt8(ascii: "b"))
                add(k == 0 ? "^" : words[k - 1])
                buffer[count] = UInt8(ascii: " ")
                count += 1
                add(k == words.count ? "$" : words[k])
                emit()
            }
        }
    }

    /// The rows in `table` of the features `extract` makes, sorted and each once, those the
    /// table has not left out, no string made: in the order of `extract`'s features when the
    /// table's rows are in the order of their names' bytes (`FeatureTable.ascendsByBytes`),
    /// since keys are normalized (NFC), and strings in NFC sort as their UTF-8 bytes do.
    ///
    /// A word's own rows (its features but the bigrams) are kept per thread (`IDsMemo`, by
    /// `model`, the model's `serial`, and the stemmer's language): the same words come back line
    /// after line, and a stem and a dozen trigrams looked up cost thousands of instructions.
    static func rows(
        units: [MatchUnit], entities: [Entity], mentions: [Range<Int>], stemmer: Stemmer?, table: FeatureTable, model: Int
    ) -> [Int32] {
        let words = words(units: units, entities: entities, mentions: mentions)
        var found: [Int32] = []
        found.reserveCapacity(words.count * 12)
        let memo = IDsMemo.local.value
        for word in words {
            let key = IDsMemo.Key(owner: model, qualifier: stemmer?.language, word: word)
            found += memo.value(of: key, bytes: word.utf8.count) {
                var made: [Int32] = []
                forEachFeature(of: [word], stemmer: stemmer, bigrams: false) { bytes in
                    if let row = table.row(bytes: bytes) { made.append(row) }
                }
                return made
            }
        }
        forEachFeature(of: words, stemmer: nil, ofWords: false) { bytes in
            if let row = table.row(bytes: bytes) { found.append(row) }
        }
        found.sort()
        var unique: [Int32] = []
        unique.reserveCapacity(found.count)
        for row in found where unique.last != row { unique.append(row) }
        return unique
    }

    /// The classifier's features of an utterance (`forEachFeature`), sorted, each once.
    static func extract(units: [MatchUnit], entities: [Entity], mentions: [Range<Int>], stemmer: Stemmer? = nil) -> [String] {
        let words = words(units: units, entities: entities, mentions: mentions)
        var features: [String] = []
        features.reserveCapacity(words.count * 12)
        forEachFeature(of: words, stemmer: stemmer) { features.append(String(decoding: $0, as: UTF8.self)) }
        features.sort()
        var unique: [String] = []
        unique.reserveCapacity(features.count)
        for feature in features where unique.last != feature { unique.append(feature) }
        return unique
    }

    /// Writes a word's UTF-8 into `buffer` from `start`; returns where it ends.
    private static func write(_ word: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        let copied = word.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            if let source = bytes.baseAddress { (buffer.baseAddress! + start).update(from: source, count: bytes.count) }
            return bytes.count
        }
        if let copied { return start + copied }
        var i = start
        for byte in word.utf8 {
            buffer[i] = byte
            i += 1
        }
        return i
    }
}

/// Trains a `FallbackModel` (deterministic for a seed).
public enum FallbackTrainer {
    /// One training example of the classifier: an utterance's features and its label.
    public struct Example: Sendable {
        /// The utterance's features (`IntentParser.TrainingItem.classifierFeatures`).
        public var features: [String]
        /// The intent name, or `FallbackModel.none` for an out-of-domain utterance.
        public var label: String
        /// The record's id: `isAside(_:)` reads its group from it, and `train` leaves out the ids in
        /// `aside`.
        public var id: String

        /// An example with its features, its label and its record id.
        public init(features: [String], label: String, id: String) {
            self.features = features
            self.label = label
            self.id = id
        }
    }

    /// Whether a record belongs to the fixed tenth of every source kept aside for tuning and
    /// reporting (never trained on): by a stable hash of its group, so that the turns of one
    /// dialogue (SGD), the paraphrases of one test case (Home Assistant) and the translations
    /// of one sentence (xSID) fall on the same side.
    public static func isAside(_ id: String) -> Bool { stableHash(group(of: id)) % 10 == 0 }

    /// The group of a record id: `sgd:<split>:<dialogue>:t<turn>` → its dialogue;
    /// `ha:<lang>:<file>:<case>:<sentence>` → its test case, whatever the language;
    /// `xsid:<lang>:<split>:<index>` → its sentence index, whatever the language; any other
    /// id is its own group.
    static func group(of id: String) -> String {
        let parts = id.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.first {
        case "sgd" where parts.count >= 4: return parts.dropLast().joined(separator: ":")
        case "ha" where parts.count >= 5: return (["ha"] + parts[2..<(parts.count - 1)]).joined(separator: ":")
        case "xsid" where parts.count >= 4: return "xsid:" + parts[2...].joined(separator: ":")
        default: return id
        }
    }

    /// Fits the classifier on the examples not in `aside`.
    public static func train(language: String, examples: [Example], aside: Set<String>, epochs: Int = 30, seed: UInt64 = 2026) -> (
        model: FallbackModel, classes: [String]
    ) {
        let classes = Array(Set(examples.map(\.label)).union([FallbackModel.none])).sorted()
        let fitted = fit(examples.filter { !aside.contains($0.id) }, classes: classes, epochs: epochs, seed: seed)
        let model = fitted.with(
            language: language, threshold: 0.5,
            training: .init(
                examples: examples.count, heldOut: aside.count, heldOutAccuracy: 0, heldOutRejection: 0, epochs: epochs, seed: seed))
        return (model, classes)
    }

    /// The softmax temperature that minimizes the negative log-likelihood of the aside
    /// examples (temperature scaling, Guo et al. 2017): probabilities that mean what they say.
    public static func temperature(_ model: FallbackModel, aside: [Example]) -> Double {
        guard !aside.isEmpty else { return 1 }
        let index = Dictionary(uniqueKeysWithValues: model.classes.enumerated().map { ($1, $0) })
        let scores = aside.map { model.scores($0.features) }
        var best = (t: 1.0, nll: Double.infinity)
        for step in 0...40 {
            let t = 0.3 + Double(step) * 0.05
            var nll = 0.0
            for (n, e) in aside.enumerated() {
                let p = FallbackModel.softmax(scores[n].map { $0 / t })
                nll -= Foundation.log(max(p[index[e.label] ?? 0], 1e-12))
            }
            if nll < best.nll { best = (t, nll) }
        }
        return best.t
    }

    /// The rejection threshold that handles the most aside utterances right (in domain: the
    /// right intent above it; out of domain: rejected), where accepting an out-of-domain one
    /// costs `falseAcceptCost` times a missed one.
    public static func threshold(
        _ model: FallbackModel, temperature: Double, aside: [Example], falseAcceptCost: Double = 2, tolerance: Double = 0.005
    )
        -> (threshold: Double, accuracy: Double, rejection: Double)
    {
        let predictions = aside.map { e -> (String, Double) in
            let p = FallbackModel.softmax(model.scores(e.features).map { $0 / temperature })
            let best = p.indices.max { p[$0] < p[$1] }!
            return (model.classes[best], p[best])
        }
        var scored: [(threshold: Double, score: Double, accuracy: Double, rejection: Double)] = []
        // From 0.5: an intent is accepted only when it is likelier than everything else together.
        for step in 0...24 {
            let t = 0.5 + Double(step) * 0.02
            var right = 0.0
            var inDomain = 0
            var inRight = 0
            var ood = 0
            var oodRight = 0
            for (e, (label, p)) in zip(aside, predictions) {
                let accepted = label != FallbackModel.none && p >= t
                if e.label == FallbackModel.none {
                    ood += 1
                    if !accepted { oodRight += 1 } else { right -= falseAcceptCost }
                } else {
                    inDomain += 1
                    if accepted && label == e.label {
                        inRight += 1
                        right += 1
                    }
                }
            }
            scored.append((t, right, Double(inRight) / Double(max(inDomain, 1)), Double(oodRight) / Double(max(ood, 1))))
        }
        // A few hundred aside lines score neighbouring thresholds nearly alike: the lowest
        // threshold within `tolerance` of the best score (a request rejected is as lost as one
        // misread; a tie says nothing about which).
        let top = scored.map(\.score).max() ?? 0
        let slack = max(1, tolerance * Double(aside.count))
        let best = scored.first { $0.score >= top - slack } ?? (0.5, 0, 0, 0)
        return ((best.threshold * 100).rounded() / 100, (best.accuracy * 1000).rounded() / 1000, (best.rejection * 1000).rounded() / 1000)
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
        let rate = 0.3
        let l2 = 1e-4
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
        return FallbackModel(
            language: "", classes: classes, threshold: 0.5, bias: b.map { ($0 * 1000).rounded() / 1000 }, weights: weights,
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

/// Numbers worked out for a word, kept per thread: a word's own feature rows
/// (`FallbackFeatures.rows`, by model and stemmer) and the grammar words it is one slip from
/// (`Automaton.nearWords`, by automaton). At most `limit` words of at most `longest` bytes; a
/// full table is emptied. (Not a `WordMemo`: a generic class of the text module is not
/// specialized here, and its lookups through the generic code cost about 7 K instructions an
/// utterance more.)
final class IDsMemo {
    struct Key: Hashable {
        /// The object the numbers come from (`MemoOwner`): a model, an automaton.
        let owner: Int
        /// What else they depend on (a model's stemmer's language), nil for nothing.
        let qualifier: String?
        let word: String
    }

    static let limit = 8_192
    static let longest = 64
    static let local = ThreadLocal { IDsMemo() }

    /// (One thread's, so no dynamic exclusivity check.)
    @exclusivity(unchecked) private var entries: [Key: [Int32]] = [:]

    /// The numbers of `key`, made by `make` the first time.
    func value(of key: Key, bytes: Int, _ make: () -> [Int32]) -> [Int32] {
        guard bytes <= Self.longest else { return make() }
        if let known = entries[key] { return known }
        let made = make()
        if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
        entries[key] = made
        return made
    }
}
