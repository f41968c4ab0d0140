import Foundation
import ParlanceContext
import ParlanceText

/// The trained tier of a context's custom intents, per language, learned when the context
/// is first asked for it (few-shot, as Snips NLU trains an app's own intents): a classifier
/// over the same features as the language's trained tier, with one class per custom intent
/// and "none".
///
/// - Each intent's sentences are generated from its templates (`CustomGrammar`: the example
///   phrases, the title, the category's verbs, articles, modifiers on either side, the app as
///   the verb) and its raw phrases, slots filled with its parameters' values (enum cases in
///   every said form, numbers, the vocabulary's names).
/// - "None" learns from the language's first-wave templates, their slots filled with words the
///   language's trained tier knows, so that only the custom intents' own words carry weight.
/// - A request that names no app needs one of the intent's *distinctive* words (said by its
///   sentences, by no first-wave template and by none of the values, and not a function
///   word): "how many loyalty points have I got" reaches checkLoyaltyPoints, "how do I make
///   clam chowder?" does not.
/// - With an app named, only its custom intents compete, and the one chosen must be plausible
///   on its own (`IntentParser.plausibleShare` of the unrestricted distribution): "order a
///   tomato soup with CoffeeMonkey" is not CoffeeMonkey's checkLoyaltyPoints.
struct CustomTier: Sendable {
    let classifier: FallbackModel
    /// For each of the classifier's classes, the custom intent's entry in
    /// `CustomGrammar.entries`; nil for "none".
    let entryOfClass: [Int?]
    /// Per entry, its distinctive words: said by its sentences, by no first-wave template and
    /// by none of the values (the words that ask, not the things asked for).
    let distinctive: [Int: Set<String>]
    let examples: Int

    /// Least probability for a custom intent (among the allowed ones and "none").
    static let threshold = 0.7
    /// Generated sentences per custom intent, and first-wave sentences as "none".
    static let sentencesPerIntent = 160
    static let negativeTemplates = 500
    static let seed: UInt64 = 2026
}

extension IntentParser {
    /// Builds the custom tier of a language (see `CustomTier`).
    func makeCustomTier(
        custom: CustomGrammar, grammar: LanguageGrammar, vocabularies: [String: PhraseSet], items: VocabularyStore.Snapshot
    ) throws -> CustomTier {
        let locale = try ParlanceLocale(grammar.language)
        let generator = TemplateGenerator(rules: grammar.rules)
        var rng = SplitMix64(seed: CustomTier.seed)
        let reference = ReferenceTime(year: 2026, month: 1, day: 5, hour: 10)
        func features(_ text: String) throws -> (features: [String], keys: [String]) {
            let analysis = try analyzer.analyze(text, locale: locale, referenceTime: reference)
            let units = IntentParser.units(analysis.tokens, titles: grammar.titleWords)
            var notes: [String] = []
            var lookalikes: [String] = []
            let mentions = findMentions(units, notes: &notes, lookalikes: &lookalikes, vocabularies: vocabularies)
            let features = classifierFeatures(
                units: units, entities: analysis.entities, mentions: mentions, grammar: grammar, vocabularies: vocabularies)
            return (features, units.map(\.key))
        }
        var examples: [FallbackTrainer.Example] = []
        var positiveWords: [Int: Set<String>] = [:]
        // A class per custom intent, named for people reading the model: "<app>/<intent>".
        let label = { (entry: CustomGrammar.Entry) in "\(entry.app.name)/\(entry.intent.name)" }
        for (index, entry) in custom.entries.enumerated() {
            let intent = entry.intent
            let names = entry.app.allNames
            // Values for a slot: an enum's cases in every form said, a number, a known name.
            let fill = { (slot: String, rng: inout SplitMix64) -> String? in
                guard let p = intent.parameter(slot) else { return nil }
                switch p.type {
                case .enum, .boolean:
                    let forms = p.cases.flatMap { p.saidForms(of: $0, language: grammar.language) }
                    return forms.isEmpty ? nil : forms[Int(rng.next() % UInt64(forms.count))]
                case .integer: return String(2 + rng.next() % 4)
                case .decimal: return "1.5"
                case .object, .string:
                    let items = p.vocabulary.map { items.items($0).map(\.phrase) } ?? []
                    return items.isEmpty ? "" : items[Int(rng.next() % UInt64(items.count))]
                }
            }
            var patterns: [(TemplatePattern, verbified: Bool)] = custom.templates.filter { $0.intent == entry.key }.map {
                ($0.pattern, $0.verbified)
            }
            for phrase in intent.phrases[grammar.language] ?? [] {
                if let pattern = try? TemplateExpressionParser.parse(phrase, file: "", line: 1) { patterns.append((pattern, false)) }
            }
            guard !patterns.isEmpty else { continue }
            var made = 0
            for n in 0..<(CustomTier.sentencesPerIntent * 2) where made < CustomTier.sentencesPerIntent {
                let (pattern, verbified) = patterns[n % patterns.count]
                guard var text = generator.sentence(pattern, rng: &rng, fill: fill) else { continue }
                let name = names[Int(rng.next() % UInt64(names.count))]
                if verbified { text = name + " " + text } else if rng.next() % 4 == 0 { text = name + ", " + text }
                let (f, keys) = try features(text)
                examples.append(FallbackTrainer.Example(features: f, label: label(entry), id: "\(label(entry)):\(made)"))
                positiveWords[index, default: []].formUnion(keys)
                made += 1
            }
        }
        // None: the language's own requests, slots filled with words it knows.
        let firstWave = grammar.templates.filter { !$0.verbified }
        var templateWords = Set<String>()
        if let model = try model(for: grammar.language) {
            let words = model.classifier.features.filter { $0.hasPrefix("w:") && !$0.hasPrefix("w:#") && !$0.hasPrefix("w:@") }.map {
                String($0.dropFirst(2))
            }.sorted()
            let noise = { (rng: inout SplitMix64) -> String in words.isEmpty ? "" : words[Int(rng.next() % UInt64(words.count))] }
            for n in 0..<CustomTier.negativeTemplates where !firstWave.isEmpty {
                let template = firstWave[Int(rng.next() % UInt64(firstWave.count))]
                guard let text = generator.sentence(template.pattern, rng: &rng, fill: { _, rng in noise(&rng) }) else { continue }
                let (f, keys) = try features(text)
                examples.append(FallbackTrainer.Example(features: f, label: FallbackModel.none, id: "template:\(n)"))
                templateWords.formUnion(keys)
            }
        }
        // The words every first-wave template says (without slot values).
        for template in firstWave {
            if let text = generator.sentence(template.pattern, rng: &rng, fill: { _, _ in "" }) {
                templateWords.formUnion(LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(text)))
            }
        }
        let classes = custom.entries.map(label) + [FallbackModel.none]
        let fitted = FallbackTrainer.fit(examples, classes: classes, epochs: 12, seed: CustomTier.seed)
        let classifier = fitted.with(language: grammar.language, threshold: CustomTier.threshold)
        // The words of the values themselves (soups, drinks, names) say what is talked about,
        // not that something is asked for ("how do I make clam chowder?").
        var valueWords = Set<String>()
        for entry in custom.entries {
            for p in entry.intent.parameters {
                for c in p.cases {
                    for form in p.saidForms(of: c, language: grammar.language) {
                        valueWords.formUnion(LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(form)))
                    }
                }
                for item in p.vocabulary.map({ items.items($0) }) ?? [] {
                    valueWords.formUnion(LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(item.phrase)))
                }
            }
        }
        var distinctive: [Int: Set<String>] = [:]
        for (index, words) in positiveWords {
            distinctive[index] = words.filter {
                !templateWords.contains($0) && !valueWords.contains($0) && !grammar.notNames.contains($0) && $0.count > 2
                    && !$0.allSatisfy(\.isNumber)
            }
        }
        return CustomTier(
            classifier: classifier, entryOfClass: Array(custom.entries.indices) + [nil], distinctive: distinctive, examples: examples.count)
    }

    /// A custom intent read by the custom tier, or nil (no custom intent is plausible; `why`
    /// then says what it read and why that is not taken). With an app named, only its custom
    /// intents compete; with none, the intent needs one of its distinctive words.
    func customTierResult(
        _ tier: CustomTier, custom: CustomGrammar, units: [MatchUnit], entities: [Entity], mentions: [Mention], scalars: [Unicode.Scalar],
        grammar: LanguageGrammar, vocabularies: [String: PhraseSet], notes: [String], why: inout String?
    ) -> ParseResult? {
        let mention = mentions.first
        let features = classifierFeatures(
            units: units, entities: entities, mentions: mentions, grammar: grammar, vocabularies: vocabularies)
        let scores = tier.classifier.scores(features)
        let allowed = tier.classifier.classes.indices.filter { index in
            guard let entry = tier.entryOfClass[index] else { return true }
            return mention.map { $0.app.name == custom.entries[entry].app.name } ?? true
        }
        guard allowed.count > 1 else { return nil }
        // A named app's intents get the same prior as in the language's trained tier.
        let p = FallbackModel.softmax(
            allowed.map { tier.entryOfClass[$0] != nil && mention != nil ? scores[$0] + Self.namedAppPrior : scores[$0] })
        let best = p.indices.max { p[$0] < p[$1] }!
        guard let index = tier.entryOfClass[allowed[best]] else {
            why = "custom-intent tier: none of the custom intents (p = \((p[best] * 1000).rounded() / 1000))"
            return nil
        }
        let entry = custom.entries[index]
        let said = "custom-intent tier: \(entry.intent.name) of \(entry.app.name), p = \((p[best] * 1000).rounded() / 1000)"
        guard p[best] >= CustomTier.threshold else {
            why = "\(said), under \(CustomTier.threshold)"
            return nil
        }
        if mention != nil, FallbackModel.softmax(scores)[allowed[best]] < Self.plausibleShare {
            why = "\(said) among \(entry.app.name)'s intents, implausible among all"
            return nil
        }
        let keys = units.map(\.key)
        let evidence = keys.filter { tier.distinctive[index]?.contains($0) ?? false }
        guard mention != nil || !evidence.isEmpty else {
            why = "\(said), but no app is named and none of its own words is said"
            return nil
        }
        let confidence = (p[best] * 1000).rounded() / 1000
        var parameters: [Parameter] = []
        var occupied: [Span] = []
        let text = { (range: Range<Int>) in Self.said(range, units: units, scalars: scalars) }
        for p in entry.intent.parameters {
            switch p.type {
            case .enum, .boolean:
                guard let lexicon = custom.enumerations[CustomGrammar.slotName(index, p.name)] else { continue }
                var start = 0
                while start < keys.count {
                    guard let (end, value, _) = lexicon.matches(keys, from: start).max(by: { $0.0 < $1.0 }) else {
                        start += 1
                        continue
                    }
                    let (raw, span) = text(start..<end)
                    let values = lexicon.values(of: keys[start..<end])
                    let typed: ParameterValue =
                        values.count > 1 ? .text(raw) : p.type == .boolean ? .boolean(value == "true") : .enumCase(value)
                    parameters.append(Parameter(name: p.name, value: typed, raw: raw, span: span))
                    occupied.append(span)
                    if !p.list { break }
                    start = end
                }
            case .integer, .decimal:
                for entity in entities {
                    guard case .number(let n) = entity.value,
                        !occupied.contains(where: { $0.start < entity.span.end && entity.span.start < $0.end })
                    else { continue }
                    parameters.append(Parameter(name: p.name, value: .number(n), raw: entity.text, span: entity.span))
                    occupied.append(entity.span)
                    break
                }
            case .object:
                guard let type = p.vocabulary, let set = vocabularies[type], set.longest > 0 else { continue }
                var i = 0
                while i < keys.count {
                    guard let length = set.longestMatch(keys, at: i) else {
                        i += 1
                        continue
                    }
                    let (raw, span) = text(i..<(i + length))
                    parameters.append(Parameter(name: p.name, value: .text(raw), raw: raw, span: span))
                    if !p.list { break }
                    i += length
                }
            case .string:
                continue
            }
        }
        // A required value not said, and words in its place the tier never saw ("order a
        // pepperoni pizza from Soup Chef"): something the app does not offer, not its intent.
        let unknown = units.indices.filter { i in
            !(mentions.contains { $0.range.contains(i) }) && !grammar.notNames.contains(keys[i]) && keys[i].count > 2
                && !tier.classifier.knows("w:" + keys[i])
                && !entities.contains { $0.span.start <= units[i].token.span.start && units[i].token.span.end <= $0.span.end }
        }
        if let missing = entry.intent.parameters.first(where: { p in
            p.required && p.type == .enum && !parameters.contains { $0.name == p.name }
        }), !unknown.isEmpty {
            why = "\(said), but no \(missing.name) is said and '\(unknown.map { units[$0].token.text }.joined(separator: " "))' is none"
            return nil
        }
        parameters.sort { ($0.span?.start ?? .max) < ($1.span?.start ?? .max) }
        let frame = IntentFrame(
            domain: "custom", name: entry.intent.name, app: entry.app.name, confidence: confidence, parameters: parameters)
        let why = mention != nil ? "\(entry.app.name) named" : "said: \(evidence.prefix(3).joined(separator: ", "))"
        return ParseResult(
            intent: frame, alternatives: [], reason: nil,
            explanation: Explanation(
                decidedBy: "trained",
                source: "custom-intent tier \(grammar.language) (\(tier.examples) generated sentences, threshold \(CustomTier.threshold))",
                score: confidence,
                appMention: mention.map { "\($0.said) → \($0.app.name)" },
                notes: notes + ["\(entry.intent.name) of \(entry.app.name) (\(why))"]))
    }
}
