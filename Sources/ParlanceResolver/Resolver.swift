import Foundation
import ParlanceContext
import ParlanceICU
import ParlanceText

/// Resolves said names against the apps' vocabularies, as SiriKit's resolve stage does.
///
/// ```swift
/// let resolver = Resolver(context: .demo)
/// let answer = try resolver.resolve("Bobo the Grate", app: "MonkeyChat", type: "contactName", locale: ParlanceLocale("en-US"))
/// answer.resolution.kind   // .confirmationRequired, items [bobo-great "Bobo the Great"]
/// ```
/// Thread-safe; vocabulary updates go through `store`.
public final class Resolver: Sendable {
    /// The apps and their vocabularies, as the context file describes them.
    public let context: ParserContext
    /// The vocabularies that queries search; update user vocabulary through it.
    public let store: VocabularyStore
    /// The settings that turn scores into a resolution result.
    public let policy: ResolutionPolicy
    /// The known intents and their parameters, with each parameter's vocabulary type.
    public let catalogue: IntentCatalogue
    /// The user's donations: an item the user picked often and recently for a parameter wins
    /// a tie for it (see `ResolutionPolicy.donationLead`).
    public let donations: DonationLog
    /// Custom enum parameters' cases as vocabulary sets, by app, intent, parameter, language.
    private let caseSets = Locked<[String: VocabularySet]>([:])

    /// Creates a resolver for a context. Without a `store`, a new one is filled from the context's vocabularies; without
    /// `donations`, the context's donations are read.
    public init(
        context: ParserContext, store: VocabularyStore? = nil, policy: ResolutionPolicy = .standard, catalogue: IntentCatalogue = .standard,
        donations: DonationLog? = nil
    ) {
        self.context = context
        self.store = store ?? VocabularyStore(context: context)
        self.policy = policy
        self.catalogue = catalogue
        self.donations = donations ?? DonationLog(context.donations)
    }

    /// Whose donations count for a query: an app's intent parameter, at a time.
    struct DonationScope {
        var intent: String
        var parameter: String
        var time: Double
    }

    /// A resolution with the scored candidates behind it (best first), for explaining.
    public struct Answer: Sendable, Encodable {
        /// The resolution result.
        public let resolution: Resolution
        /// Every item scored, best first (by score plus prior, then by priority).
        public let candidates: [ResolutionPolicy.Candidate]
    }

    /// Resolves one said name for an app (or, with nil, for every app of the context that has
    /// vocabulary of the type) and a vocabulary type.
    public func resolve(_ said: String, app: String?, type: String, locale: ParlanceLocale) throws(ResolverError) -> Answer {
        let apps: [String]
        if let app {
            guard let known = context.apps.first(where: { $0.allNames.contains(app) }) else {
                throw ResolverError.unknownApp(app, known: context.apps.map(\.name))
            }
            apps = [known.name]
        } else {
            apps = context.apps.map(\.name)
        }
        let known = context.vocabularyTypes(catalogue: catalogue)
        guard known.contains(type) else {
            throw ResolverError.unknownType(type, known: known)
        }
        return try resolve(said, apps: apps, type: type, language: locale.language)
    }

    func resolve(_ said: String, apps: [String], type: String, language: String, donated: DonationScope? = nil) throws(ResolverError)
        -> Answer
    {
        var searched: [(app: String, set: VocabularySet, prioritized: Bool)] = []
        for app in apps {
            let (user, appSet) = store.sets(app: app, type: type, language: language)
            if let user, !user.items.isEmpty { searched.append((app, user, true)) }
            if let appSet, !appSet.items.isEmpty { searched.append((app, appSet, false)) }
        }
        guard !searched.isEmpty else {
            let reason =
                switch apps.count {
                case 0: "no app handles it, so there is no \(type) vocabulary"
                case 1: "\(apps[0]) has no \(type) vocabulary"
                default: "none of \(apps.joined(separator: ", ")) has a \(type) vocabulary"
                }
            return Answer(resolution: Resolution(kind: .unsupported, reason: reason), candidates: [])
        }
        return try resolve(said, in: searched, type: type, language: language, donated: donated)
    }

    /// Scores a said name against vocabulary sets and decides.
    /// `display` names an item by its id (default: the phrase matched).
    func resolve(
        _ said: String, in sets: [(app: String, set: VocabularySet, prioritized: Bool)], type: String, language: String,
        donated: DonationScope?,
        display: ((String) -> String)? = nil
    ) throws(ResolverError) -> Answer {
        let rules: SoundAlike
        do { rules = try SoundAlike.forLanguage(language) } catch { throw .data("\(error)") }
        let knowledge: NameKnowledge
        do { knowledge = try NameKnowledge.shared.get() } catch { throw .data("\(error)") }
        var sounds = SoundKeys(rules: rules)
        let query = NameForm(said, sounds: &sounds)
        guard !query.isEmpty else {
            return Answer(resolution: Resolution(kind: .unsupported, reason: "nothing to match in '\(said)'"), candidates: [])
        }
        let useDonations = donated != nil && !donations.isEmpty
        func candidate(app: String, item: VocabularyItem, itemIndex: Int, count: Int, prioritized: Bool, match: NameMatch)
            -> ResolutionPolicy.Candidate
        {
            let last = max(1, count - 1)
            let prior = prioritized ? policy.priorWeight * (1 - Double(itemIndex) / Double(last)) : 0
            var candidate = ResolutionPolicy.Candidate(
                id: item.id, display: display?(item.id) ?? item.phrase, match: match, rank: itemIndex,
                prior: (prior * 10000).rounded() / 10000)
            if useDonations, let donated {
                let weight = donations.weight(
                    app: app, intent: donated.intent, parameter: donated.parameter, value: item.id, at: donated.time)
                candidate.donation = (weight * 1000).rounded() / 1000
            }
            return candidate
        }

        // Each set's index, built once.
        var indexed: [(app: String, set: VocabularySet, prioritized: Bool, index: VocabularyIndex)] = []
        for (app, set, prioritized) in sets {
            do { indexed.append((app, set, prioritized, try set.index(language: language))) } catch { throw .data("\(error)") }
        }

        // A relation word ("my mom", "mamá", "Mutti") names the contacts with that relationship,
        // and those whose name is a word for it (a contact called "Tía"): index lookups.
        let relations = knowledge.relations(of: query.words)
        if !relations.isEmpty {
            var related: [String: ResolutionPolicy.Candidate] = [:]
            for (app, set, prioritized, index) in indexed {
                for relation in relations {
                    let carrying = index.items(withRelationship: relation).map { ($0, "relationship") }
                    let named = knowledge.words(forRelationship: relation).flatMap { index.forms(named: $0) }
                        .map { (Int(index.formItem[$0]), index.formKinds[$0].name) }
                    for (i, form) in carrying + named where related[index.items[i].id] == nil {
                        let match = NameMatch(
                            form: form, basis: .relationship, words: [], coverage: 1, characterSimilarity: 1, score: 1, certain: true,
                            whole: true, variant: "\(said) → \(relation)")
                        related[index.items[i].id] = candidate(
                            app: app, item: index.items[i], itemIndex: i, count: set.items.count, prioritized: prioritized, match: match)
                    }
                }
            }
            if !related.isEmpty {
                let candidates = related.values.sorted { $0.total != $1.total ? $0.total > $1.total : $0.rank < $1.rank }
                return Answer(resolution: policy.decide(candidates, said: said, type: type), candidates: candidates)
            }
        }

        // The name as said, then, unless every word said already matched an item exactly (the
        // whole name, or a given name said whole: that person, whoever else sounds alike), as it
        // may also be said: another spelling convention, a short form, the same given name in another
        // language, another particle (`NameKnowledge.variants`). Only a spelling variant can be
        // certain; the others are put to the user as a confirmation. A reading is tried only in the
        // sets that have every word it brings in ("robert" where nobody is called Robert cannot
        // match): one lookup per word instead of a search.
        var best: [String: ResolutionPolicy.Candidate] = [:]
        // Each index's word lookups, shared by the readings of the query.
        var lookups: [ObjectIdentifier: VocabularyIndex.WordLookups] = [:]
        func match(
            _ form: NameForm, variant: NameKnowledge.Variant?,
            in sets: [(app: String, set: VocabularySet, prioritized: Bool, index: VocabularyIndex)]
        ) {
            let scorer = NameScorer(query: form, givenNames: knowledge.givenNames)
            for (app, set, prioritized, index) in sets {
                var memo = lookups.removeValue(forKey: ObjectIdentifier(index)) ?? .init()
                defer { lookups[ObjectIdentifier(index)] = memo }
                for f in index.candidates(for: form, limit: policy.maximumCandidates, memo: &memo) {
                    let itemIndex = Int(index.formItem[f])
                    let item = index.items[itemIndex]
                    var match = scorer.score(
                        formText: index.formText[f],
                        sounds: index.sounds(ofForm: f), joinedSound: index.joinedSounds[f], scriptKey: index.scriptKeys[f],
                        kind: index.formKinds[f])
                    if let variant { match = match.read(as: variant) }
                    let candidate = candidate(
                        app: app, item: item, itemIndex: itemIndex, count: set.items.count, prioritized: prioritized, match: match)
                    if let existing = best[item.id], existing.total >= candidate.total { continue }
                    best[item.id] = candidate
                }
            }
        }
        match(query, variant: nil, in: indexed)
        if !best.values.contains(where: { $0.match.certain }) {
            var readings = 0
            for variant in knowledge.variants(of: query.words) where readings < policy.maximumReadings {
                let having = indexed.filter { entry in variant.introduced.allSatisfy { entry.index.contains(word: $0) } }
                guard !having.isEmpty else { continue }
                readings += 1
                match(NameForm(variant.words.joined(separator: " "), sounds: &sounds), variant: variant, in: having)
            }
        }
        let candidates = best.values.sorted { $0.total != $1.total ? $0.total > $1.total : $0.rank < $1.rank }
        var resolution = policy.decide(candidates, said: said, type: type)
        if !relations.isEmpty, resolution.kind == .unsupported {
            resolution = Resolution(
                kind: .unsupported, reason: "no \(type) is your \(relations.joined(separator: " or ")), and none is close to '\(said)'")
        }
        return Answer(resolution: resolution, candidates: candidates)
    }

    /// The frame with a resolution on every parameter that has a vocabulary type or that the
    /// app does not use, and `missing` listing required parameters not said (`needsValue`).
    /// `time` (seconds since 1970, default now) is when donations are weighed from.
    public func resolve(_ frame: IntentFrame, locale: ParlanceLocale, time: Double? = nil) throws(ResolverError) -> IntentFrame {
        let time = time ?? Date().timeIntervalSince1970
        if frame.domain == "custom" { return try resolveCustom(frame, language: locale.language, time: time) }
        guard let spec = catalogue.intent(frame.name) else { return frame }
        let appDefinition = frame.app.flatMap { name in context.apps.first { $0.name == name } }
        let apps = appDefinition.map { [$0.name] } ?? context.apps(handling: frame.name).map(\.name)
        var resolved = frame
        for i in resolved.parameters.indices {
            let parameter = resolved.parameters[i]
            guard let parameterSpec = spec.parameter(parameter.name) else { continue }
            if let appDefinition, !appDefinition.uses(parameter.name, of: frame.name) {
                resolved.parameters[i].resolution = Resolution(
                    kind: .notRequired, reason: "\(appDefinition.name) does not use \(frame.name).\(parameter.name)")
                continue
            }
            guard let type = parameterSpec.vocabulary, case .text(let said) = parameter.value else { continue }
            resolved.parameters[i].resolution = try resolve(
                said, apps: apps, type: type, language: locale.language,
                donated: DonationScope(intent: frame.name, parameter: parameter.name, time: time)
            ).resolution
        }
        resolved.missing = spec.parameters.filter { p in
            p.required && !frame.parameters.contains { $0.name == p.name } && (appDefinition?.uses(p.name, of: frame.name) ?? true)
        }.map { MissingParameter(name: $0.name, resolution: Resolution(kind: .needsValue, reason: "\(frame.name) needs \($0.name)")) }
        return resolved
    }
}

extension Resolver {
    /// A custom intent's frame: enum values against the cases' names in the language (a
    /// name two cases share is a disambiguation, which donations may decide), objects against
    /// their vocabulary type, required parameters not said → `needsValue`.
    func resolveCustom(_ frame: IntentFrame, language: String, time: Double) throws(ResolverError) -> IntentFrame {
        guard let app = context.apps.first(where: { $0.name == frame.app }),
            let intent = app.customIntents.first(where: { $0.name == frame.name })
        else {
            return frame
        }
        var resolved = frame
        for i in resolved.parameters.indices {
            let parameter = resolved.parameters[i]
            guard let p = intent.parameter(parameter.name) else { continue }
            let scope = DonationScope(intent: intent.name, parameter: p.name, time: time)
            switch p.type {
            case .enum:
                let set = caseSet(app: app, intent: intent, parameter: p, language: language)
                resolved.parameters[i].resolution = try resolve(
                    parameter.raw, in: [(app.name, set, false)], type: "\(intent.name).\(p.name)", language: language,
                    donated: scope, display: { p.caseName($0, language: language) }
                ).resolution
            case .object:
                guard let type = p.vocabulary, case .text(let said) = parameter.value else { continue }
                resolved.parameters[i].resolution = try resolve(said, apps: [app.name], type: type, language: language, donated: scope)
                    .resolution
            default:
                continue
            }
        }
        resolved.missing = intent.parameters.filter { p in p.required && !frame.parameters.contains { $0.name == p.name } }
            .map { MissingParameter(name: $0.name, resolution: Resolution(kind: .needsValue, reason: "\(intent.name) needs \($0.name)")) }
        return resolved
    }

    /// An enum parameter's cases as one vocabulary set: an item per way of saying a case in
    /// the language (`saidForms`: names, short forms, plurals; its id the case id), built once.
    func caseSet(app: AppDefinition, intent: CustomIntent, parameter: CustomIntent.Parameter, language: String) -> VocabularySet {
        caseSets.withLock { sets in
            let key = "\(app.name)\u{1}\(intent.name)\u{1}\(parameter.name)\u{1}\(language)"
            if let set = sets[key] { return set }
            let items = parameter.cases.flatMap { c in
                let forms = parameter.saidForms(of: c, language: language)
                return (forms.isEmpty ? [c.id] : forms).map { VocabularyItem(id: c.id, phrase: $0) }
            }
            let set = VocabularySet(items)
            sets[key] = set
            return set
        }
    }
}

/// Why a name could not be resolved at all, as opposed to a resolution of `unsupported`.
public enum ResolverError: Error, Sendable, CustomStringConvertible {
    /// The app named is not in the context: the name given, and the context's apps.
    case unknownApp(String, known: [String])
    /// The vocabulary type is not one the context or the catalogue knows: the type given, and the known types.
    case unknownType(String, known: [String])
    /// The language's sound-alike rules could not be loaded or a vocabulary index could not be built; the message says
    /// why.
    case data(String)

    /// The message for the user.
    public var description: String {
        switch self {
        case .unknownApp(let app, let known): "unknown app '\(app)': the context has \(known.joined(separator: ", "))"
        case .unknownType(let type, let known): "unknown vocabulary type '\(type)': expected one of \(known.joined(separator: ", "))"
        case .data(let message): message
        }
    }
}
