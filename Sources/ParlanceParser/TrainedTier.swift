import Foundation
import ParlanceContext
import ParlanceText

/// The trained tier: whole frames for what no template reads. The intent comes from the
/// classifier (its distribution restricted to the named app's intents), the names, places
/// and texts from the tagger, typed values from the text layer's entities, enum values from
/// the language's lexicon. Names still go to the resolver.
extension IntentParser {
    /// What the trained tier sees of an utterance.
    struct TrainedInput {
        var classifierFeatures: [String]
        var tagger: TaggerInput
    }

    /// Parameter types the tagger places (the words as said).
    static func isTagged(_ p: ParameterSpec) -> Bool {
        switch p.type {
        case .person, .place, .string, .text, .spatialTrigger: true
        default: false
        }
    }

    /// The classifier's features alone (what the near-miss veto reads).
    func classifierFeatures(
        units: [MatchUnit], entities: [Entity], mentions: [Mention], grammar: LanguageGrammar, vocabularies: [String: PhraseSet]
    ) -> [String] {
        classifierFeatures(
            units: units, entities: entities,
            mentionRanges: featureMentions(units, mentions: mentions, grammar: grammar, vocabularies: vocabularies), grammar: grammar)
    }

    /// The classifier's features, with the ranges read as "@app" already known (`featureMentions`).
    func classifierFeatures(units: [MatchUnit], entities: [Entity], mentionRanges: [Range<Int>], grammar: LanguageGrammar) -> [String] {
        FallbackFeatures.extract(units: units, entities: entities, mentions: mentionRanges, stemmer: Stemmer.shared(grammar.language))
    }

    /// The rows of the classifier's features in `model` (`FallbackModel.rows`), with the
    /// ranges read as "@app" already known.
    func classifierRows(
        _ model: FrameModel, units: [MatchUnit], entities: [Entity], mentionRanges: [Range<Int>], grammar: LanguageGrammar
    ) -> [Int32] {
        model.classifier.rows(units: units, entities: entities, mentions: mentionRanges, stemmer: Stemmer.shared(grammar.language))
    }

    /// `classifierRows` with the ranges read as "@app" worked out from the mentions (`featureMentions`).
    func classifierRows(
        _ model: FrameModel, units: [MatchUnit], entities: [Entity], mentions: [Mention], grammar: LanguageGrammar,
        vocabularies: [String: PhraseSet]
    ) -> [Int32] {
        classifierRows(
            model, units: units, entities: entities,
            mentionRanges: featureMentions(units, mentions: mentions, grammar: grammar, vocabularies: vocabularies), grammar: grammar)
    }

    func trainedInput(
        units: [MatchUnit], entities: [Entity], mentions: [Mention], grammar: LanguageGrammar, vocabularies: [String: PhraseSet]
    ) -> TrainedInput {
        let classifier = classifierFeatures(
            units: units, entities: entities, mentions: mentions, grammar: grammar, vocabularies: vocabularies)
        var entityTags = [String?](repeating: nil, count: units.count)
        for entity in entities {
            var first = true
            for (i, unit) in units.enumerated() where unit.token.span.start >= entity.span.start && unit.token.span.end <= entity.span.end {
                entityTags[i] = (first ? "B-" : "I-") + entity.type.rawValue
                first = false
            }
        }
        let keys = units.map(\.key)
        let known = Self.mark(keys, with: vocabularies.filter { $0.key != "." })
        // The language's sample values (people, places, activities…): what such words tend to be.
        let gazetteer = Self.mark(keys, with: (try? resources(for: grammar.language).gazetteerSets()) ?? [:])
        var app = [Bool](repeating: false, count: units.count)
        for mention in mentions {
            let extent = mentionExtent(mention, units: units, grammar: grammar, vocabularies: vocabularies)
            for i in extent where i < units.count { app[i] = true }
        }
        let tagger = TaggerInput(
            keys: keys, shapes: units.map { TaggerInput.shape($0.token.text) }, entities: entityTags, known: known, app: app,
            function: keys.map { grammar.notNames.contains($0) },
            stems: Stemmer.shared(grammar.language).map { s in keys.map { s.stem($0) } } ?? [],
            gazetteer: gazetteer)
        return TrainedInput(classifierFeatures: classifier, tagger: tagger)
    }

    /// "B-<kind>"/"I-<kind>" for the units inside a phrase of one of the sets (longest phrase
    /// first, kinds in name order; a unit keeps the first mark it gets), else nil.
    static func mark(_ keys: [String], with sets: [String: PhraseSet]) -> [String?] {
        var marks = [String?](repeating: nil, count: keys.count)
        for (kind, set) in sets.sorted(by: { $0.key < $1.key }) where set.longest > 0 {
            var i = 0
            while i < keys.count {
                guard let matched = set.longestMatch(keys, at: i) else {
                    i += 1
                    continue
                }
                for j in i..<(i + matched) where marks[j] == nil { marks[j] = (j == i ? "B-" : "I-") + kind }
                i += matched
            }
        }
        return marks
    }

    /// The classifier's distribution, calibrated (temperature) and restricted to the classes
    /// `allowed` (a named app's intents and `none`), renormalized.
    ///
    /// A named app also shifts the prior: the training lines are mostly out of domain (public
    /// corpora of everything people ask an assistant), while a request that names an app of the
    /// context is nearly always for it, so its intents get `namedAppPrior` more log-odds.
    static func distribution(_ model: FrameModel, features: [String], allowed: ((String) -> Bool)?) -> [(label: String, p: Double)] {
        distribution(model, rows: features.compactMap { model.classifier.rows[$0] }, allowed: allowed)
    }

    /// `distribution(_:features:allowed:)` from the rows of the features, in their order
    /// (`FallbackModel.rows(units:entities:mentions:stemmer:)`).
    static func distribution(_ model: FrameModel, rows: [Int32], allowed: ((String) -> Bool)?) -> [(label: String, p: Double)] {
        ranking(model, rows: rows, allowed: allowed).ranked
    }

    /// `distribution(_:rows:allowed:)` before its classes are put in order: its first entry
    /// (`Ranking.top`) and any class's probability (`Ranking.p(of:)`) are read without ranking
    /// the others.
    struct Ranking {
        let classes: [String]
        /// The classes kept, by index, and their probabilities, in the classifier's order.
        let kept: [Int]
        let p: [Double]

        /// The distribution, likeliest first (ties by the classes' names).
        var ranked: [(label: String, p: Double)] {
            var order = Array(kept.indices)
            order.sort { p[$0] != p[$1] ? p[$0] > p[$1] : classes[kept[$0]] < classes[kept[$1]] }
            return order.map { (classes[kept[$0]], p[$0]) }
        }

        /// `ranked.first`, found in one pass.
        var top: (label: String, p: Double)? {
            guard !kept.isEmpty else { return nil }
            var best = 0
            for k in kept.indices.dropFirst() where p[k] > p[best] || (p[k] == p[best] && classes[kept[k]] < classes[kept[best]]) {
                best = k
            }
            return (classes[kept[best]], p[best])
        }

        /// The probability of `label`, nil when the distribution does not have it.
        func p(of label: String) -> Double? { kept.indices.first { classes[kept[$0]] == label }.map { p[$0] } }
    }

    static func ranking(_ model: FrameModel, rows: [Int32], allowed: ((String) -> Bool)?) -> Ranking {
        ranking(model, rows: rows, allowedClasses: allowed.map { allowed in model.classifier.classes.map(allowed) })
    }

    /// `ranking(_:rows:allowed:)` with the classes allowed given by index (`allowed` of each of
    /// the classifier's classes; "none" is kept whatever its entry).
    static func ranking(_ model: FrameModel, rows: [Int32], allowedClasses allowed: [Bool]?) -> Ranking {
        let c = model.classifier
        let classes = c.classes
        let scores = c.scores(rows: rows)
        let t = max(model.temperature, 0.05)
        // The classes kept, by index, and their logits: the ranking then sorts indices (no
        // string moved or compared but for a tie).
        var kept: [Int] = []
        var logits: [Double] = []
        kept.reserveCapacity(scores.count)
        logits.reserveCapacity(scores.count)
        for k in scores.indices {
            let score = scores[k] / t
            guard let allowed else {
                kept.append(k)
                logits.append(score)
                continue
            }
            if classes[k] == FallbackModel.none {
                kept.append(k)
                logits.append(score)
            } else if allowed[k] {
                kept.append(k)
                logits.append(score + namedAppPrior)
            }
        }
        return Ranking(classes: classes, kept: kept, p: FallbackModel.softmax(logits))
    }

    /// The least probability the unrestricted classifier must give a named app's intent for
    /// the trained tier to read it.
    static let plausibleShare = 0.1
    /// How sure the trained tier must be of a reading, with no template and no app, that lacks a
    /// required parameter of its intent or has none of its parameters. Chosen on the public
    /// dev splits as whole splits, each with models trained without it
    /// (`Corpora/external/without.sh`), 2026-11-28. Lacking a required parameter: at 0.7, 31
    /// more out-of-domain lines refused for 5 requests lost (0.8: 16 more refused for 12 more
    /// lost). With none of its parameters (`emptyShare`): 0.6, 0.65 and 0.7 refuse 88, 117 and
    /// 154 more for 2, 4 and 6 requests lost; above 0.6 each request lost buys fewer refusals,
    /// and at 0.7 the aside tenth of CLINC150 falls below its floor (3 of its 72 second-wave
    /// questions said without a parameter).
    static let incompleteShare = 0.7
    /// The same for a reading with none of its intent's parameters (see `incompleteShare`).
    static let emptyShare = 0.6

    /// Log-odds added to a named app's intents (see `distribution`).
    static let namedAppPrior = 2.0

    /// The frame the trained tier reads, or why it reads none.
    func trainedResult(
        _ model: FrameModel, units: [MatchUnit], entities: [Entity], mentions: [Mention], scalars: [Unicode.Scalar],
        grammar: LanguageGrammar,
        vocabularies: [String: PhraseSet], notes: [String], templatesReadIt: Bool = false
    ) -> ParseResult {
        let input = trainedInput(units: units, entities: entities, mentions: mentions, grammar: grammar, vocabularies: vocabularies)
        let mention = mentions.first
        var ranked = Self.distribution(model, features: input.classifierFeatures, allowed: mention.map { m in { m.app.handles($0) } })
        // A named app's intent must be plausible on its own: a reading the unrestricted model
        // gives less than `plausibleShare` is not one ("Start a run in MonkeyChat").
        if mention != nil, ranked[0].label != FallbackModel.none {
            let free = Self.distribution(model, features: input.classifierFeatures, allowed: nil)
            let share = free.first { $0.label == ranked[0].label }?.p ?? 0
            if share < Self.plausibleShare {
                ranked.insert((FallbackModel.none, 1 - share), at: 0)
            }
        }
        let (label, probability) = ranked[0]
        // Names the context knows (contacts, groups, workouts…) are not words the model should know.
        let names = Set(units.indices.filter { input.tagger.known[$0] != nil }.map { "w:" + units[$0].key })
        let coverage = model.classifier.coverage(input.classifierFeatures, excluding: names)
        let rounded = (probability * 1000).rounded() / 1000
        let mentionText = mention.map { "\($0.said) → \($0.app.name)" }
        let source = "trained tier \(model.language) (threshold \(model.classifier.threshold))"
        // The rejection threshold was tuned on requests that name no app; a named app's intent
        // (plausible on its own, above) needs only to be likelier than "none", unless a template
        // read the request as something the app does not handle.
        let threshold = mention == nil || templatesReadIt ? model.classifier.threshold : 0
        guard label != FallbackModel.none, probability >= threshold, coverage >= FallbackModel.minimumCoverage,
            let spec = catalogue.intent(label)
        else {
            let reason =
                mention != nil && label == FallbackModel.none && ranked.count <= 1
                ? "\(mention!.app.name) handles none of the readings"
                : label == FallbackModel.none
                    ? "out of domain (trained tier, p = \(rounded))"
                    : coverage < FallbackModel.minimumCoverage
                        ? "out of domain: most words are unknown to the trained tier (\(label), p = \(rounded))"
                        : "no template matched and the trained tier is unsure (\(label), p = \(rounded))"
            return ParseResult(
                intent: nil, alternatives: [], reason: reason,
                explanation: Explanation(
                    decidedBy: "trained", source: source, score: rounded, appMention: mentionText, notes: notes))
        }
        var parameters: [Parameter] = []
        // Names, places and texts from the tagger.
        let tagged = spec.parameters.filter(Self.isTagged).map(\.name)
        if let tagger = model.tagger, !tagged.isEmpty {
            let labels = tagger.tag(input.tagger, intent: label, parameters: tagged)
            var i = 0
            while i < labels.count {
                guard labels[i].hasPrefix("B-") else {
                    i += 1
                    continue
                }
                let name = String(labels[i].dropFirst(2))
                var end = i + 1
                while end < labels.count, labels[end] == "I-" + name { end += 1 }
                let (raw, span) = Self.said(i..<end, units: units, scalars: scalars)
                parameters.append(Parameter(name: name, value: .text(raw), raw: raw, span: span))
                i = end
            }
        }
        // Typed values from the text layer, by type, outside the tagged words.
        _ = placeTypedValues(&parameters, spec: spec, entities: entities, numbers: true)
        // Enum values from the language's lexicon, outside tagged and typed words.
        let keys = units.map(\.key)
        let occupied = parameters.compactMap(\.span)
        for p in spec.parameters where p.type == .enum || p.type == .boolean {
            guard let lexicon = grammar.enumerations[p.name] else { continue }
            var start = 0
            while start < keys.count {
                guard let (end, value, exact) = lexicon.matches(keys, from: start).max(by: { $0.0 < $1.0 }), exact else {
                    start += 1
                    continue
                }
                let (raw, span) = Self.said(start..<end, units: units, scalars: scalars)
                if !occupied.contains(where: { $0.start < span.end && span.start < $0.end }) {
                    parameters.append(
                        Parameter(
                            name: p.name, value: p.type == .boolean ? .boolean(value == "true") : .enumCase(value), raw: raw, span: span))
                    if !p.list { break }
                }
                start = end
            }
        }
        parameters.sort { ($0.span?.start ?? .max) < ($1.span?.start ?? .max) }
        // With no template and no app, a reading that lacks what its intent cannot do without
        // ("call" with nobody to call, "complete" with no task), or that has none of its
        // intent's parameters ("cancel that last thing", "oír de nuevo"), must be surer: such
        // requests are rarely said that way, statements and commands of other kinds often are.
        if mention == nil, !templatesReadIt, probability < Self.incompleteShare {
            let missing = spec.parameters.first { p in p.required && !parameters.contains { $0.name == p.name } }
            if missing != nil || (parameters.isEmpty && !spec.parameters.isEmpty && probability < Self.emptyShare) {
                let lacks = missing.map { "has no \($0.name)" } ?? "has none of its parameters"
                return ParseResult(
                    intent: nil, alternatives: [],
                    reason: "no template matched and the trained tier's \(label) (p = \(rounded)) \(lacks)",
                    explanation: Explanation(decidedBy: "trained", source: source, score: rounded, appMention: mentionText, notes: notes))
            }
        }
        let app: String? =
            mention.map { reported($0.app) }
            ?? {
                let apps = apps(handling: label)
                return apps.count == 1 ? apps[0].name : nil
            }()
        let frame = IntentFrame(domain: spec.domain, name: spec.name, app: app, confidence: rounded, parameters: parameters)
        let alternatives = ranked.dropFirst().filter { $0.label != FallbackModel.none && $0.p >= 0.1 }.prefix(2).compactMap {
            alt -> IntentFrame? in
            guard let s = catalogue.intent(alt.label) else { return nil }
            return IntentFrame(domain: s.domain, name: s.name, app: nil, confidence: (alt.p * 1000).rounded() / 1000, parameters: [])
        }
        return ParseResult(
            intent: frame, alternatives: Array(alternatives), reason: nil,
            explanation: Explanation(
                decidedBy: "trained", source: source, score: rounded, appMention: mentionText, notes: notes))
    }

    // MARK: - Training

    /// One annotated utterance as the trained tier learns from it: the classifier's features,
    /// and, when its parameters are annotated, the tagger's input with the gold labels (each
    /// surface value found in the text, left to right).
    public struct TrainingItem: Sendable {
        /// The utterance's features for the intent classifier (words with entities and app names
        /// replaced, stems, bigrams, character trigrams).
        public var classifierFeatures: [String]
        var tagger: FrameTaggerTrainer.Example?
        /// Surface values that were not found in the text (annotation problems), by name.
        public var unplaced: [String]
    }

    /// The training item of one annotated utterance, read with the same text layer, app mentions and
    /// vocabularies as `parse`.
    ///
    /// - Parameters:
    ///   - text: the utterance.
    ///   - locale: its locale; the language must have an intent grammar.
    ///   - referenceTime: the time relative dates are resolved against.
    ///   - intent: the annotated catalogue intent, or nil for an out-of-domain utterance.
    ///   - parameters: the annotated surface values by parameter name, in utterance order; only the
    ///     parameters the tagger places are used.
    ///   - tagParameters: whether to build the tagger's example; without it (or without a catalogue
    ///     intent) the item has the classifier's features only.
    /// - Returns: the item; the names of values not found in the text are listed in `unplaced`.
    /// - Throws: `ParseError.unsupportedLanguage` when the language has no intent grammar, or an error
    ///   of the text layer or of loading the grammar.
    public func trainingItem(
        _ text: String, locale: ParlanceLocale, referenceTime: ReferenceTime, intent: String?, parameters: [String: [String]],
        tagParameters: Bool
    ) throws -> TrainingItem {
        let grammar = try grammar(for: locale.language)
        let analysis = try analyzer.analyze(text, locale: locale, referenceTime: referenceTime)
        let units = IntentParser.units(analysis.tokens, titles: grammar.titleWords)
        var notes: [String] = []
        var lookalikes: [String] = []
        let vocabularies = try vocabularies(for: locale.language)
        let mentions = findMentions(units, notes: &notes, lookalikes: &lookalikes, vocabularies: vocabularies)
        let input = trainedInput(
            units: units, entities: analysis.entities, mentions: mentions, grammar: grammar, vocabularies: vocabularies)
        guard tagParameters, let intent, let spec = catalogue.intent(intent), !units.isEmpty else {
            return TrainingItem(classifierFeatures: input.classifierFeatures, tagger: nil, unplaced: [])
        }
        let tagged = spec.parameters.filter(Self.isTagged).map(\.name)
        var gold = [String](repeating: "O", count: units.count)
        let scalars = Array(text.unicodeScalars)
        var unplaced: [String] = []
        for (name, values) in parameters.sorted(by: { $0.key < $1.key }) where tagged.contains(name) {
            var from = 0
            for value in values {
                let needle = Array(value.unicodeScalars)
                guard !needle.isEmpty, let start = Self.find(needle, in: scalars, from: from) else {
                    unplaced.append(name)
                    continue
                }
                let end = start + needle.count
                from = end
                let covered = units.indices.filter { units[$0].token.span.start >= start && units[$0].token.span.end <= end }
                guard let first = covered.first, covered.allSatisfy({ gold[$0] == "O" }) else {
                    unplaced.append(name)
                    continue
                }
                for i in covered { gold[i] = (i == first ? "B-" : "I-") + name }
            }
        }
        let example = FrameTaggerTrainer.Example(input: input.tagger, intent: intent, parameters: tagged, gold: gold)
        return TrainingItem(classifierFeatures: input.classifierFeatures, tagger: example, unplaced: unplaced)
    }

    static func find(_ needle: [Unicode.Scalar], in haystack: [Unicode.Scalar], from: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], Array(haystack[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return from > 0 ? find(needle, in: haystack, from: 0) : nil
    }

    /// Whether the language's capitals say anything about names (not in German, which
    /// capitalizes every noun).
    public func capitalsCarrySignal(_ language: String) throws -> Bool { !(try grammar(for: language).capitalizedNouns) }
}

/// Trains the trained tier of a language from `IntentParser.TrainingItem`s.
public enum FrameModelTrainer {
    /// One utterance of the training data, as `train` takes it.
    public struct Item: Sendable {
        /// The record's id.
        public var id: String
        /// The intent name, or `FallbackModel.none` for an out-of-domain utterance.
        public var label: String
        /// Whether it is kept aside (never trained on) to fit the temperature and tune the threshold;
        /// for corpus records, `FallbackTrainer.isAside(_:)` of the id.
        public var aside: Bool
        /// The utterance's classifier features and tagger example (`IntentParser.trainingItem`).
        public var item: IntentParser.TrainingItem

        /// An item with its id, its label, whether it is aside, and its training item.
        public init(id: String, label: String, aside: Bool, item: IntentParser.TrainingItem) {
            self.id = id
            self.label = label
            self.aside = aside
            self.item = item
        }
    }

    /// Fits the classifier and the tagger on the items not aside; fits the temperature and
    /// tunes the rejection threshold on the aside items (so what is reported on them was
    /// never trained on).
    public static func train(language: String, items: [Item], capitalsCarrySignal: Bool, sources: [String: Int]) -> FrameModel {
        let examples = items.map { FallbackTrainer.Example(features: $0.item.classifierFeatures, label: $0.label, id: $0.id) }
        let asideIDs = Set(items.filter(\.aside).map(\.id))
        let classifier = FallbackTrainer.train(language: language, examples: examples, aside: asideIDs)
        let tagger = FrameTaggerTrainer.train(
            items.filter { !$0.aside }.compactMap(\.item.tagger), capitalsCarrySignal: capitalsCarrySignal)
        let aside = items.filter(\.aside).map { FallbackTrainer.Example(features: $0.item.classifierFeatures, label: $0.label, id: $0.id) }
        let temperature = FallbackTrainer.temperature(classifier.model, aside: aside)
        let threshold = FallbackTrainer.threshold(classifier.model, temperature: temperature, aside: aside)
        let model = classifier.model.with(
            threshold: threshold.threshold,
            training: .init(
                examples: examples.count, heldOut: aside.count, heldOutAccuracy: threshold.accuracy, heldOutRejection: threshold.rejection,
                epochs: classifier.model.training.epochs, seed: classifier.model.training.seed))
        let report: [String: Any] = [
            "examples": examples.count, "aside": aside.count, "taggerExamples": items.filter { !$0.aside && $0.item.tagger != nil }.count,
            "asideIntentAccuracy": threshold.accuracy, "asideRejection": threshold.rejection, "temperature": temperature,
            "threshold": threshold.threshold, "sources": sources
        ]
        let json =
            (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])).flatMap { String(data: $0, encoding: .utf8) }
            ?? "{}"
        return FrameModel(classifier: model, tagger: tagger, temperature: temperature, report: json)
    }
}
