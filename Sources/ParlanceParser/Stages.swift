import Foundation
import ParlanceContext
import ParlanceText

/// An utterance analyzed once, as every stage of the parser reads it: its tokens as match
/// units (one definition of a unit), its scalars (spans count them), the text layer's
/// entities, the app mentions, and the language's compiled resources.
struct Utterance {
    let text: String
    let locale: ParlanceLocale
    let referenceTime: ReferenceTime
    let language: IntentParser.LanguageCache
    let units: [MatchUnit]
    let scalars: [Unicode.Scalar]
    let entities: [Entity]
    /// Apps of the context said in the utterance (and, with a context of no apps, a service).
    var mentions: [IntentParser.Mention]
    /// Look-alikes of app names refused (mixed scripts).
    var lookalikes: [String]
    /// What the stages noticed on the way, for `--explain`.
    var notes: [String]
    /// An app's name said inside a known name of its vocabulary ("a Zippy XL"): the request is
    /// for that app, though the name is not a mention.
    var appInNames = false
    /// `unavailableApp(_:)` once worked out (nil: not yet; read it through that method).
    var unavailable: UnavailableMention?? = nil
    /// Each unit's key, once for every stage that reads them.
    let keys: [String]

    init(
        text: String, locale: ParlanceLocale, referenceTime: ReferenceTime, language: IntentParser.LanguageCache, units: [MatchUnit],
        scalars: [Unicode.Scalar], entities: [Entity], mentions: [IntentParser.Mention], lookalikes: [String], notes: [String],
        appInNames: Bool = false
    ) {
        self.text = text
        self.locale = locale
        self.referenceTime = referenceTime
        self.language = language
        self.units = units
        self.scalars = scalars
        self.entities = entities
        self.mentions = mentions
        self.lookalikes = lookalikes
        self.notes = notes
        self.appInNames = appInNames
        keys = units.map(\.key)
    }

    var grammar: LanguageGrammar { language.grammar }

    /// The first app said that the user does not have, among all the units
    /// (`IntentParser.unavailableApp`), worked out once: the apps stage and the classifier's
    /// features both ask.
    mutating func unavailableApp(_ parser: IntentParser) -> UnavailableMention? {
        if let known = unavailable { return known }
        let found = parser.unavailableApp(in: units, grammar: grammar, vocabularies: vocabularies)
        unavailable = .some(found)
        return found
    }

    /// What the classifier reads as "@app" in the whole utterance (`IntentParser.featureMentions`).
    mutating func featureMentions(_ parser: IntentParser) -> [Range<Int>] {
        IntentParser.featureMentions(mentions) { unavailableApp(parser) }
    }

    /// The words of units `range` as said, and their span.
    func said(_ range: Range<Int>) -> (raw: String, span: Span) { IntentParser.said(range, units: units, scalars: scalars) }
    var vocabularies: [String: PhraseSet] { language.vocabularies }
    var custom: CustomGrammar { language.custom }

    /// The clauses (split at commas and sentence ends), each from the first word after what may
    /// come before a request (up to three hesitations or words of the wake phrase) to its end. A
    /// clause of such words alone ("Hey Siri, …") is no clause.
    var clauses: [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        while start < units.count {
            let end = (start + 1..<units.count).first { units[$0].commaBefore || units[$0].sentenceBefore } ?? units.count
            var opening = start
            while opening < end, opening - start < 3,
                grammar.fillers.contains(units[opening].key) || grammar.wakeWords.contains(units[opening].key)
            {
                opening += 1
            }
            if opening < end { result.append(opening..<end) }
            start = end
        }
        return result
    }
}

/// What the stages hand on to those after them.
struct ParseState {
    /// Template readings proposed so far.
    var candidates: [IntentParser.Candidate] = []
    /// Shortcut phrases said nearly (a slip or two).
    var nearShortcuts: [ShortcutMatcher.Match] = []
    /// The template readings come from templates that bend (none read it as written).
    var bent = false
}

/// One stage of the parser, as Snips NLU's engine tries its parsers in order: it reads the
/// analyzed utterance and what earlier stages proposed, and either decides (returns a
/// result), or proposes readings for later stages (in `state`) and passes (returns nil).
protocol ParseStage: Sendable {
    /// The stage's name, as `--explain` gives it in `decidedBy` (`apps`, `shortcut`,
    /// `template`, `trained`).
    var name: String { get }
    func run(_ utterance: inout Utterance, _ state: inout ParseState, parser: IntentParser) throws -> ParseResult?
}

extension IntentParser {
    /// The stages, in order: apps that are not there, shortcuts said exactly, requests for
    /// something else (reminders, alarms, timers, notes: `lexicon.json` "elsewhere"), the templates
    /// (proposing readings), shortcuts said nearly, the trained tiers (custom intents and the
    /// language's), and the decision between the template readings.
    static let stages: [any ParseStage] = [
        AppsStage(), ShortcutStage(), ElsewhereStage(), NegationStage(), TemplateStage(), NearShortcutStage(), TrainedStage(),
        DecisionStage()
    ]

    /// One way of reading the units: as said, from a clause boundary, without an app mention,
    /// with the app as a noun, as the doer, or as the verb. Every stage that matches templates
    /// consumes these; none re-derives them.
    struct Reading {
        enum Kind { case plain, removed, asNoun, asDoer, verbified }
        var kind: Kind
        var units: [MatchUnit]
        var mention: Mention?
        var bonus: Double
        /// App mentions left among the units (or the gaps removed ones left) that no value covers.
        var kept: [Range<Int>]
        /// Tried only when no earlier reading was read by a template (a preamble before a comma).
        var onlyIfUnread = false
        /// Tried only when no other reading at all was read (a request that ends early).
        var lastResort = false
    }

    /// The readings of an utterance, in the order they are tried.
    func readings(_ u: Utterance) -> [Reading] {
        let units = u.units
        var result = [Reading(kind: .plain, units: units, mention: nil, bonus: 0, kept: u.mentions.map(\.range))]
        // A preamble before a comma or a sentence ("Hang on, I have to tie my shoe, pause the
        // run", "Thanks. Can you get me a cab?"): the request may start at a clause boundary, at
        // a small cost per word left out.
        for start in units.indices.dropFirst() where units[start].commaBefore || units[start].sentenceBefore {
            let rest = Array(units[start...])
            let cost = MatchScores.preambleToken * Double(start)
            let kept = u.mentions.filter { $0.range.lowerBound >= start }.map {
                ($0.range.lowerBound - start)..<($0.range.upperBound - start)
            }
            result.append(Reading(kind: .plain, units: rest, mention: nil, bonus: cost, kept: kept, onlyIfUnread: true))
            for mention in u.mentions where mention.range.lowerBound >= start {
                var shifted = mention
                shifted.range = (mention.range.lowerBound - start)..<(mention.range.upperBound - start)
                let removed = removing(shifted, from: rest, grammar: u.grammar, vocabularies: u.vocabularies)
                let gap = removed.removal.lowerBound
                result.append(
                    Reading(
                        kind: .removed, units: removed.rest, mention: shifted, bonus: cost + removed.bonus, kept: [gap..<gap],
                        onlyIfUnread: true))
            }
        }
        for mention in u.mentions {
            let (rest, removal, bonus) = removing(mention, from: units, grammar: u.grammar, vocabularies: u.vocabularies)
            // No value spans the place the mention was taken from ("call Dana on RingRing
            // and put it on speaker" has no contact "Dana … and put it").
            let gap = removal.lowerBound..<removal.lowerBound
            result.append(Reading(kind: .removed, units: rest, mention: mention, bonus: bonus, kept: [gap]))
            // The app name as a noun, kept in place as "@app": "where is my MonkeyRide".
            var asNoun = units
            asNoun.replaceSubrange(
                mention.range,
                with: [
                    MatchUnit(
                        key: "@app", token: units[mention.range.lowerBound].token, commaBefore: units[mention.range.lowerBound].commaBefore)
                ])
            let noun = mention.range.lowerBound..<(mention.range.lowerBound + 1)
            result.append(Reading(kind: .asNoun, units: asNoun, mention: mention, bonus: 0, kept: [noun]))
            // The app addressed as the doer ("ask Soup Chef for two tomato soups"): its custom
            // intents without their verb.
            if !u.custom.isEmpty, !mention.isLeading(removal), removal.lowerBound <= 3, let verb = u.grammar.mentionVerb {
                let oracle = SlotOracle(
                    units: units, entities: [:], vocabularies: u.vocabularies, binding: SlotBinding(), app: mention.range)
                if AutomatonMatcher(automaton: verb.shared, oracle: oracle).accepts(
                    start: verb.start, from: removal.lowerBound, to: removal.upperBound)
                {
                    result.append(Reading(kind: .asDoer, units: rest, mention: mention, bonus: bonus, kept: []))
                }
            }
            // The app name as the verb: "MonkeyChat Bobo send more bananas".
            if mention.isLeading(removal) {
                result.append(Reading(kind: .verbified, units: rest, mention: mention, bonus: bonus, kept: [gap]))
            }
        }
        // A sentence or a clause after the request ("Get me a cab. I'm headed downtown.", "a car
        // to Cibeles, quick"): the request may end at a clause boundary, at the same cost per
        // word left out.
        for end in units.indices.dropFirst() where units[end].sentenceBefore || units[end].commaBefore {
            let head = Array(units[..<end])
            let cost = MatchScores.preambleToken * Double(units.count - end)
            let inHead = u.mentions.filter { $0.range.upperBound <= end }
            result.append(Reading(kind: .plain, units: head, mention: nil, bonus: cost, kept: inHead.map(\.range), lastResort: true))
            for mention in inHead {
                let removed = removing(mention, from: head, grammar: u.grammar, vocabularies: u.vocabularies)
                let gap = removed.removal.lowerBound
                result.append(
                    Reading(
                        kind: .removed, units: removed.rest, mention: mention, bonus: cost + removed.bonus, kept: [gap..<gap],
                        lastResort: true))
            }
        }
        return result
    }

    /// The template readings of one reading: the language's grammar and the context's custom
    /// intents, verbified or not as the reading says.
    func templateCandidates(_ reading: Reading, _ u: Utterance, bend: Bool) -> [Candidate] {
        let grammar = u.grammar
        let custom = u.custom
        func run(_ compiled: LanguageGrammar.Compiled, custom: CustomGrammar?) -> [Candidate] {
            match(
                compiled, grammar, custom: custom, units: reading.units, entities: u.entities, scalars: u.scalars,
                vocabularies: u.vocabularies, bound: u.language.vocabularies(of: compiled.binding),
                mention: reading.mention, bonus: reading.bonus, bend: bend, kept: reading.kept)
        }
        switch reading.kind {
        case .plain, .removed, .verbified:
            let verbified = reading.kind == .verbified
            var result = run(verbified ? grammar.verbified : grammar.main, custom: nil)
            if !custom.isEmpty { result += run(verbified ? custom.verbified : custom.main, custom: custom) }
            if verbified, let mention = reading.mention { result = result.filter { $0.handled(by: mention.app) } }
            return result
        case .asNoun:
            return run(grammar.main, custom: nil)
        case .asDoer:
            guard let mention = reading.mention else { return [] }
            return run(custom.verbified, custom: custom).filter { $0.handled(by: mention.app) }
        }
    }
}

/// Apps that are not there (a well-known service or an installed app without intents) and
/// look-alikes of app names: no intent, never another app.
struct AppsStage: ParseStage {
    let name = "apps"

    func run(_ u: inout Utterance, _ state: inout ParseState, parser: IntentParser) throws -> ParseResult? {
        // "on WhatsApp", "get me an Uber", "Venmo Paul …": with a context that lists apps, no
        // intent; never another app, never a parameter.
        if u.mentions.isEmpty, let unavailable = u.unavailableApp(parser) {
            let said = u.units[unavailable.range].map(\.token.text).joined(separator: " ")
            if parser.context.listsApps {
                return ParseResult(
                    intent: nil, alternatives: [], reason: "\(unavailable.name) is not among this user's apps",
                    explanation: Explanation(
                        decidedBy: name, source: nil, score: nil, appMention: "\(said) → \(unavailable.name) (not in the context)",
                        notes: u.notes), unavailableApp: unavailable.name)
            }
            // A context of no apps (labelling a corpus): the service is read as an app that
            // handles its domains' intents, and the frame's app stays null.
            if let app = parser.serviceApp(unavailable.name) {
                u.notes.append("'\(said)' names \(unavailable.name); the context lists no apps, so the frame's app is null")
                u.mentions = [IntentParser.Mention(app: app, range: unavailable.range, said: said)]
            }
        }
        // A look-alike of an app name ("MоnkeyChat" with a Cyrillic о) names an app that is
        // not in the context: no intent, and never routed to the real app.
        if u.mentions.isEmpty, let lookalike = u.lookalikes.first {
            return ParseResult(
                intent: nil, alternatives: [], reason: lookalike,
                explanation: Explanation(
                    decidedBy: "none", source: nil, score: nil, appMention: nil, notes: u.notes))
        }
        return nil
    }
}

/// A request that opens with a phrase of another assistant domain ("remind me to call Rob",
/// "set an alarm to pay Ana", "recuérdame llamar a Marta", "rappelle-moi de payer Paul"):
/// no intent, whatever words follow (`lexicon.json` "elsewhere", said at the start of the
/// request or of a clause, after hesitations or a wake word). Not when the app named declares
/// custom intents (its own phrases may start so).
struct ElsewhereStage: ParseStage {
    let name = "elsewhere"

    func run(_ u: inout Utterance, _ state: inout ParseState, parser: IntentParser) throws -> ParseResult? {
        let phrases = u.grammar.elsewhere
        guard phrases.longest > 0, !u.mentions.contains(where: { !$0.app.customIntents.isEmpty }) else { return nil }
        let keys = u.keys
        for clause in u.clauses {
            guard let length = phrases.longestMatch(keys, at: clause.lowerBound) else { continue }
            let said = u.units[clause.lowerBound..<(clause.lowerBound + length)].map(\.token.text).joined(separator: " ")
            return ParseResult(
                intent: nil, alternatives: [], reason: "a request for something else: '\(said)'",
                explanation: Explanation(
                    decidedBy: name, source: nil, score: nil, appMention: nil,
                    notes: u.notes + ["'\(said)' opens a request of another kind (lexicon.json elsewhere)"]))
        }
        return nil
    }
}

/// A request that says not to do something ("don't call Mom", "no reserves mesa en Nopa", "ne
/// paie pas la facture"): no intent. The utterance is one clause that opens with a negation
/// (`lexicon.json` "negations", after hesitations or a wake word) and says none of the words
/// that make it a request all the same ("don't forget to …", "non … più", "ne … plus").
/// German, whose negation stands inside the clause ("ruf Anna nicht an"), has none. Not when
/// the app named declares custom intents (its own phrases may start so).
struct NegationStage: ParseStage {
    let name = "negation"

    func run(_ u: inout Utterance, _ state: inout ParseState, parser: IntentParser) throws -> ParseResult? {
        let negations = u.grammar.negations
        guard negations.phrases.longest > 0, !u.mentions.contains(where: { !$0.app.customIntents.isEmpty }) else { return nil }
        let clauses = u.clauses
        let keys = u.keys
        guard clauses.count == 1, let clause = clauses.first, let length = negations.phrases.longestMatch(keys, at: clause.lowerBound),
            length < clause.count, !keys.indices.contains(where: { negations.unless.longestMatch(keys, at: $0) != nil })
        else { return nil }
        let said = u.said(clause.lowerBound..<(clause.lowerBound + length)).raw
        return ParseResult(
            intent: nil, alternatives: [], reason: "out of domain: '\(said)' says not to do it",
            explanation: Explanation(
                decidedBy: name, source: nil, score: nil, appMention: nil,
                notes: u.notes + ["'\(said)' opens a request not to do something (lexicon.json negations)"]))
    }
}

/// A shortcut phrase of the user's said exactly decides; said nearly, it is kept for later.
struct ShortcutStage: ParseStage {
    let name = "shortcut"

    func run(_ u: inout Utterance, _ state: inout ParseState, parser: IntentParser) throws -> ParseResult? {
        let said = u.language.shortcuts.matches(u.units)
        if let only = said.first, only.exact, said.count == 1 {
            return parser.shortcutResult(said, language: u.locale.language, notes: u.notes)
        }
        state.nearShortcuts = said
        return nil
    }
}

/// The templates over every reading: as written first, and only when none reads the request,
/// templates that bend (words skipped at a cost, `MatchScores.skippedWord`). Proposes; the
/// decision comes last.
struct TemplateStage: ParseStage {
    let name = "template"

    func run(_ u: inout Utterance, _ state: inout ParseState, parser: IntentParser) throws -> ParseResult? {
        let readings = parser.readings(u)
        for bend in [false, true] where state.candidates.isEmpty {
            // Whether anything was read before the readings that start at a comma.
            var readBeforeComma: Bool?
            for reading in readings {
                if reading.lastResort, !state.candidates.isEmpty { continue }
                if reading.onlyIfUnread {
                    if readBeforeComma == nil { readBeforeComma = !state.candidates.isEmpty }
                    if readBeforeComma == true { continue }
                }
                var read = parser.templateCandidates(reading, u, bend: bend)
                if reading.onlyIfUnread { for n in read.indices { read[n].afterPreamble = true } }
                state.candidates += read
            }
            if bend, !state.candidates.isEmpty { state.bent = true }
        }
        return nil
    }
}

/// Near a shortcut phrase (a slip or two): the shortcut, unless a template reads every word;
/// near several: a choice between them, not a guess.
struct NearShortcutStage: ParseStage {
    let name = "shortcut"

    func run(_ u: inout Utterance, _ state: inout ParseState, parser: IntentParser) throws -> ParseResult? {
        guard !state.nearShortcuts.isEmpty, !state.candidates.contains(where: { $0.coverage >= 1 }) else { return nil }
        return parser.shortcutResult(state.nearShortcuts, language: u.locale.language, notes: u.notes)
    }
}

/// The trained tiers, for what no template reads, and for a named app none of whose readings
/// a template found: the custom-intent tier (with an app named that declares custom intents,
/// its intents only; with none named, an intent whose own words are said) and the language's
/// trained tier (its distribution restricted to the named app's intents).
struct TrainedStage: ParseStage {
    let name = "trained"

    func run(_ u: inout Utterance, _ state: inout ParseState, parser: IntentParser) throws -> ParseResult? {
        let model = try u.language.model()
        if state.candidates.isEmpty {
            if !u.mentions.isEmpty, let read = try custom(&u, u.mentions, parser) { return read }
            guard let model else { return try custom(&u, u.mentions, parser) }
            let trained = parser.trainedResult(
                model, units: u.units, entities: u.entities, mentions: u.mentions, scalars: u.scalars, grammar: u.grammar,
                vocabularies: u.vocabularies, notes: u.notes)
            if trained.intent == nil, u.mentions.isEmpty, let read = try custom(&u, u.mentions, parser) { return read }
            return trained
        }
        // An app was named and no template reading is one it handles: the trained tiers, before
        // "X does not handle …".
        guard let mention = u.mentions.first, !state.candidates.contains(where: { c in c.mention.map { c.handled(by: $0.app) } ?? false })
        else { return nil }
        if let read = try custom(&u, [mention], parser) { return read }
        if let model {
            let trained = parser.trainedResult(
                model, units: u.units, entities: u.entities, mentions: [mention], scalars: u.scalars, grammar: u.grammar,
                vocabularies: u.vocabularies, notes: u.notes + ["no template reading is one \(mention.app.name) handles"],
                templatesReadIt: true)
            if trained.intent != nil { return trained }
        }
        return nil
    }

    /// The custom-intent tier's reading, if any; why it read none goes into the notes.
    private func custom(_ u: inout Utterance, _ mentions: [IntentParser.Mention], _ parser: IntentParser) throws -> ParseResult? {
        guard !u.custom.isEmpty, mentions.first.map({ !$0.app.customIntents.isEmpty }) ?? true else { return nil }
        let tier = try u.language.customTier {
            try parser.makeCustomTier(custom: u.custom, grammar: u.grammar, vocabularies: u.vocabularies, items: u.language.items)
        }
        var why: String?
        let read = parser.customTierResult(
            tier, custom: u.custom, units: u.units, entities: u.entities, mentions: mentions, scalars: u.scalars,
            grammar: u.grammar, vocabularies: u.vocabularies, notes: u.notes, why: &why)
        if let why { u.notes.append(why) }
        return read
    }
}

/// The decision between the template readings (best per intent, the named app's readings
/// only, donations in near-ties), then the trained tier's word on it: a near miss vetoed, or
/// another intent of the same domain it is sure of.
struct DecisionStage: ParseStage {
    let name = "template"

    func run(_ u: inout Utterance, _ state: inout ParseState, parser: IntentParser) throws -> ParseResult? {
        let decided = parser.decide(state.candidates, notes: u.notes, mentions: u.mentions, time: u.referenceTime.secondsSince1970)
        guard let frame = decided.intent, decided.explanation.decidedBy == "template", frame.domain != "custom",
            let model = try u.language.model()
        else { return decided }
        let features = parser.classifierRows(
            model, units: u.units, entities: u.entities, mentionRanges: u.featureMentions(parser), grammar: u.grammar)
        // The unrestricted distribution of the whole utterance, worked out once for whichever
        // of the checks below asks for it.
        // (Only its first entry and single classes' probabilities are read: `Ranking`.)
        var whole: IntentParser.Ranking?
        func wholeDistribution() -> IntentParser.Ranking {
            if let whole { return whole }
            let made = IntentParser.ranking(model, rows: features, allowed: nil)
            whole = made
            return made
        }
        // A template reading of a request that names no app, which the trained tier is sure is
        // none of the intents ("remind me to call Dad at five"): a near miss, not a request.
        if u.mentions.isEmpty, !u.appInNames {
            // A well-known place the template read is no evidence of what the request is ("a
            // taxi to the train station": other requests say much of stations): the trained tier
            // judges the other words. A known contact's name in a person it read is no evidence
            // either way ("ask Olga Ivanova for 20 euros": the trained tier has never seen the
            // name's letters, but "text Paul Becker and Giulia Conti …" is a message because a
            // person is named): the veto holds only if the trained tier reads none both with the
            // name's words and without them.
            let places = Self.knownPlaceUnits(frame, u, parser)
            func noneReading(leavingOut left: Set<Int>) -> (none: Double, first: String?) {
                let ranked =
                    left.isEmpty
                    ? wholeDistribution()
                    : IntentParser.ranking(
                        model,
                        rows: parser.classifierRows(
                            model, units: u.units.indices.filter { !left.contains($0) }.map { u.units[$0] }, entities: u.entities,
                            mentions: [], grammar: u.grammar, vocabularies: u.vocabularies),
                        allowed: nil)
                return (ranked.p(of: FallbackModel.none) ?? 0, ranked.top?.label)
            }
            // A template that had to bend is weaker evidence: the trained tier need only find
            // "none" likelier than anything else ("J'ai pris plein de photos à Lyon").
            func vetoes(_ reading: (none: Double, first: String?)) -> Bool {
                reading.none >= IntentParser.nearMissVeto
                    || (state.bent && reading.first == FallbackModel.none && reading.none >= IntentParser.bentVeto)
            }
            // A template that read only what follows a clause boundary is judged on those words:
            // an acknowledgement before it ("Perfect, make a reservation there", "OK, great.
            // Would you …") says nothing of whether the rest is a request.
            let preamble = Self.preambleUnits(frame, u, state)
            let reading = noneReading(leavingOut: places.union(preamble))
            // (The names are looked for only when the first reading vetoes.)
            if vetoes(reading), case let names = Self.knownNameUnits(frame, u, parser),
                names.isEmpty || vetoes(noneReading(leavingOut: places.union(names).union(preamble)))
            {
                let none = reading.none
                let p = (none * 1000).rounded() / 1000
                return ParseResult(
                    intent: nil, alternatives: [frame],
                    reason: "out of domain: a template reads \(frame.name), but the trained tier reads none of the intents (p = \(p))",
                    explanation: Explanation(
                        decidedBy: "trained", source: decided.explanation.source, score: p, appMention: nil,
                        notes: decided.explanation.notes + ["template reading \(frame.name) vetoed as a near miss"]))
            }
            // A list or note said only by a name no vocabulary knows, with no word for a list or a
            // note anywhere ("add Morten Harket to This Is Puccini" is a playlist's): the template
            // guessed; it stands only if the trained tier reads the same intent.
            if let name = Self.unknownBareItemName(frame, u, parser), wholeDistribution().top?.label != frame.name {
                return ParseResult(
                    intent: nil, alternatives: [frame],
                    reason:
                        "out of domain: a template reads \(frame.name), but '\(name)' is no list or note the user has, and the trained tier reads another intent",
                    explanation: Explanation(
                        decidedBy: "trained", source: decided.explanation.source, score: decided.explanation.score, appMention: nil,
                        notes: decided.explanation.notes + ["'\(name)' names no known item and no word says it is a list or a note"]))
            }
        }
        // A template reading the trained tier is sure is another intent of the same domain (the
        // words that say which one, "slideshow", "request", "voicemail", went into a slot or a
        // verbified template's gap): that intent, from its own template reading if it has one,
        // else from the trained tier. When the template read only what follows a clause
        // boundary, the words it left out may say what the request is about ("I don't need the
        // ride anymore, cancel it" is no workout's "cancel it"): the trained tier, which read
        // them, need only be clearly surer of another intent, of any domain.
        let afterPreamble = !state.candidates.contains { $0.name == frame.name && !$0.afterPreamble }
        // The classes of the named app's intents, for both restricted rankings.
        let handled = u.mentions.first.map { m in u.language.classesHandled(by: m.app, in: model) }
        let ranked = handled.map { IntentParser.ranking(model, rows: features, allowedClasses: $0) } ?? wholeDistribution()
        guard let top = ranked.top, top.label != FallbackModel.none, top.label != frame.name else { return decided }
        let framed = ranked.p(of: frame.name) ?? 0
        let overrules =
            afterPreamble
            ? top.p >= IntentParser.preambleOverruleShare && framed * IntentParser.preambleOverruleRatio <= top.p
            : top.p >= IntentParser.overruleShare && framed < IntentParser.overruledShare
                && parser.catalogue.intent(top.label)?.domain == frame.domain
        guard overrules else { return decided }
        // The words of what the template read as free text that no template says (an item, a
        // note's words) tell what the request is about, not which request it is: the trained
        // tier must read the other intent without them too ("check off apples from my shopping
        // list" is no search because of "apples"), else the template stands. A template word
        // inside the free text stays ("10 Euro fürs Frühstück anfordern": "anfordern").
        // When the free text is all the request says besides the app ("Jotter, welche Listen hab
        // ich?" read by a verbified template as a note's words), nothing is left to judge by.
        let free = afterPreamble ? [] : Self.freeTextUnits(frame, u, parser)
        if !free.isEmpty {
            let kept = u.units.indices.filter { !free.contains($0) }
            let named = Set(
                u.mentions.flatMap { parser.mentionExtent($0, units: u.units, grammar: u.grammar, vocabularies: u.vocabularies) })
            if kept.filter({ !named.contains($0) }).count >= 2 {
                let without = IntentParser.ranking(
                    model,
                    rows: parser.classifierRows(
                        model, units: kept.map { u.units[$0] }, entities: u.entities, mentions: u.mentions, grammar: u.grammar,
                        vocabularies: u.vocabularies),
                    allowedClasses: handled)
                guard without.top?.label == top.label else { return decided }
            }
        }
        let note = "the trained tier reads \(top.label) (p = \((top.p * 1000).rounded() / 1000)), not the template's \(frame.name)"
        let readings = state.candidates.filter { c in
            c.intent == .catalogue(top.label) && (u.mentions.first.map { c.handled(by: $0.app) } ?? true)
        }
        if let best = readings.max(by: { $0.score < $1.score }) {
            let sorted = state.candidates.sorted { $0.score > $1.score }
            return parser.result(
                best, ranked: sorted, notes: decided.explanation.notes + [note], mentionText: decided.explanation.appMention)
        }
        let trained = parser.trainedResult(
            model, units: u.units, entities: u.entities, mentions: Array(u.mentions.prefix(1)), scalars: u.scalars, grammar: u.grammar,
            vocabularies: u.vocabularies, notes: decided.explanation.notes + [note])
        return trained.intent?.name == top.label ? trained : decided
    }

    /// The raw value of a notebook item parameter (notebookItemTitle) that the user's vocabulary
    /// does not know, in a request where no head word of that type is said ("list", "note",
    /// "lista": `lexicon.json` "headWords" and "leadingHeadWords"); nil otherwise, and for
    /// languages without those head words.
    static func unknownBareItemName(_ frame: IntentFrame, _ u: Utterance, _ parser: IntentParser) -> String? {
        let type = "notebookItemTitle"
        let heads = (u.grammar.headWords[type] ?? []).union(u.grammar.leadingHeadWords[type]?.heads ?? [])
        guard !heads.isEmpty, let spec = parser.catalogue.intent(frame.name),
            !u.units.contains(where: { heads.contains($0.key) })
        else { return nil }
        for p in frame.parameters where spec.parameter(p.name)?.vocabulary == type {
            let keys = LanguageGrammar.unitKeys(u.grammar.tokenizer.tokenize(p.raw))
            if keys.isEmpty || u.vocabularies[type]?.contains(keys[...]) == true { continue }
            return p.raw
        }
        return nil
    }

    /// The units before the clause boundary where every template reading of the frame's intent
    /// starts (`Candidate.afterPreamble`); none when one reads the whole utterance.
    static func preambleUnits(_ frame: IntentFrame, _ u: Utterance, _ state: ParseState) -> Set<Int> {
        let readings = state.candidates.filter { $0.name == frame.name }
        guard !readings.isEmpty, readings.allSatisfy(\.afterPreamble),
            let start = readings.compactMap({ $0.units.first?.token.span.start }).min()
        else { return [] }
        return Set(u.units.indices.filter { u.units[$0].token.span.start < start })
    }

    /// The units of the frame's free-text parameters (text, or strings no vocabulary knows)
    /// whose words no template says.
    static func freeTextUnits(_ frame: IntentFrame, _ u: Utterance, _ parser: IntentParser) -> Set<Int> {
        guard let spec = parser.catalogue.intent(frame.name) else { return [] }
        return Set(parser.freeTextRanges(frame, spec, u.units).joined().filter { !u.grammar.templateWords.contains(u.units[$0].key) })
    }

    /// The words of the person parameters (contactName vocabulary) that are words of a known
    /// contact's name (three letters or more); the other words of the parameter stay evidence.
    static func knownNameUnits(_ frame: IntentFrame, _ u: Utterance, _ parser: IntentParser) -> Set<Int> {
        guard let spec = parser.catalogue.intent(frame.name), let names = u.vocabularies["contactName"] else { return [] }
        var known: Set<Int> = []
        for p in frame.parameters {
            guard let span = p.span, spec.parameter(p.name)?.vocabulary == "contactName" else { continue }
            let range = parser.unitRange(of: span, in: u.units)
            known.formUnion(range.filter { u.units[$0].key.count >= 3 && names.hasWord(u.units[$0].key) })
        }
        return known
    }

    /// The units of the frame's places that are places the language's gazetteers know (the
    /// value as said, or with the word before it: "the train station").
    static func knownPlaceUnits(_ frame: IntentFrame, _ u: Utterance, _ parser: IntentParser) -> Set<Int> {
        guard let spec = parser.catalogue.intent(frame.name) else { return [] }
        let sets = u.language.gazetteerSets()
        let places = [sets["place"], sets[IntentParser.LanguageCache.knownPlaces]].compactMap { $0 }
        var known: Set<Int> = []
        for p in frame.parameters {
            guard let span = p.span, spec.parameter(p.name)?.type == .place else { continue }
            let range = parser.unitRange(of: span, in: u.units)
            guard !range.isEmpty else { continue }
            let keys = u.units[range].map(\.key)
            let withBefore = range.lowerBound > 0 ? [u.units[range.lowerBound - 1].key] + keys : nil
            if places.contains(where: { set in set.contains(keys[...]) || withBefore.map { set.contains($0[...]) } == true }) {
                known.formUnion(range)
            }
        }
        return known
    }
}
