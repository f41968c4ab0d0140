import Foundation
import ParlanceContext
import ParlanceText

/// What every catalogue frame gets after the stage that decided it, whichever it was (a
/// template, the trained tier): the same rules on values, from the language's data.
///
/// - Messages and notes (`text` values) lose a closing clause of thanks or the app's mention
///   after their last comma.
/// - Words, places and names of things (`string` and `place` values) lose the function words
///   and hesitations at their edges ("the sunset" → "sunset", "l'hôpital" → "hôpital", "ähm"
///   → nothing), the date and time words at their edges (those are the text layer's), and
///   what follows a comma or a sentence end; a value with no word left is dropped. An article
///   written with a capital inside the sentence belongs to a name and stays ("La Défense").
/// - An enum parameter with cues in the language that the frame lacks takes a value its words imply anywhere in the request:
///   one of the value's own phrases (`lexicon.json` "values"), else a cue (`lexicon.json`
///   "cues": "who called me" → callTypes received, "call Rob back" → destinationType
///   callBack). A cue said inside a person's name value comes out of it when it stands at the
///   name's edge ("back chloe" → "chloe"), and replaces it when it is the whole value
///   ("emergencias").
extension IntentParser {
    func refined(_ result: ParseResult, _ u: Utterance) -> ParseResult {
        guard let intent = result.intent, intent.domain != "custom", let spec = catalogue.intent(intent.name) else { return result }
        var parameters: [Parameter] = []
        var notes: [String] = []
        for p in intent.parameters {
            guard let own = spec.parameter(p.name), own.type == .string || own.type == .place || own.type == .text, case .text = p.value,
                let span = p.span
            else {
                parameters.append(p)
                continue
            }
            let units = unitRange(of: span, in: u.units)
            let kept = own.type == .text ? trimmedText(units, u) : trimmedValue(units, u)
            if kept == units {
                parameters.append(p)
                continue
            }
            guard !kept.isEmpty else {
                notes.append("'\(p.raw)' is no \(p.name): only function words")
                continue
            }
            parameters.append(resaid(p, over: kept, u))
        }
        notes += joinedNames(&parameters, spec: spec, u)
        if let note = relocated(&parameters, spec: spec, u) { notes.append(note) }
        withHeadWords(&parameters, spec: spec, u)
        withLeadingHeadWords(&parameters, spec: spec, u)
        if let note = knownOverEnum(&parameters, spec: spec, u) { notes.append(note) }
        notes += spatialTriggers(&parameters, spec: spec, u)
        notes += counted(&parameters, spec: spec, u)
        let mentioned = u.mentions.map { u.said($0.range).span }
        let placed = placeTypedValues(&parameters, spec: spec, entities: u.entities, avoiding: mentioned, numbers: false)
        if !placed.isEmpty { notes.append("typed values no parameter held: " + placed.joined(separator: ", ")) }
        for own in spec.parameters
        where own.type == .enum && u.grammar.cues[own.name] != nil && !parameters.contains(where: { $0.name == own.name }) {
            if let note = implied(own, spec: spec, into: &parameters, u) { notes.append(note) }
        }
        guard parameters != intent.parameters else { return result }
        parameters.sort { ($0.span?.start ?? .max) < ($1.span?.start ?? .max) }
        var frame = intent
        frame.parameters = parameters
        let e = result.explanation
        return ParseResult(
            intent: frame, alternatives: result.alternatives, reason: result.reason,
            explanation: Explanation(
                decidedBy: e.decidedBy, source: e.source, score: e.score, appMention: e.appMention, notes: e.notes + notes),
            shortcut: result.shortcut, unavailableApp: result.unavailableApp)
    }

    /// Spatial triggers (`lexicon.json` "triggers"): a value a template or the tagger placed becomes
    /// `{event, place}`, the event from the trigger phrase before it (or at its start); a frame
    /// without one takes the place after a trigger phrase said anywhere ("remind me to call Ana
    /// when I get home"), and a name or task that ran over the phrase stops before it.
    func spatialTriggers(_ parameters: inout [Parameter], spec: IntentSpec, _ u: Utterance) -> [String] {
        guard let own = spec.parameters.first(where: { $0.type == .spatialTrigger }) else { return [] }
        let keys = u.keys
        /// The longest trigger phrase starting at `start`: its end and event.
        func phrase(at start: Int) -> (end: Int, event: SpatialTrigger.Event)? {
            guard let (end, value) = u.grammar.triggers.longestExact(keys, from: start) else { return nil }
            return (end, SpatialTrigger.Event(rawValue: value) ?? .arrive)
        }
        /// A place's units from `start`: up to a comma, a conjunction, a date or time, or four words.
        func place(from start: Int, limit: Int) -> Range<Int> {
            var end = start
            while end < min(limit, start + 4), end < u.units.count {
                if end > start, u.units[end].commaBefore || u.units[end].sentenceBefore { break }
                if u.grammar.conjunctions.contains(keys[end]) || u.grammar.fillers.contains(keys[end]) { break }
                if u.entities.contains(where: {
                    $0.span.start <= u.units[end].token.span.start && u.units[end].token.span.end <= $0.span.end
                }) {
                    break
                }
                end += 1
            }
            return trimmedValue(start..<end, u)
        }
        var notes: [String] = []
        if let index = parameters.firstIndex(where: { $0.name == own.name }) {
            let p = parameters[index]
            guard case .text = p.value, let span = p.span else { return [] }
            var units = unitRange(of: span, in: u.units)
            var event: SpatialTrigger.Event?
            if let inside = phrase(at: units.lowerBound), inside.end < units.upperBound {
                event = inside.event
                units = inside.end..<units.upperBound
            } else {
                for start in stride(from: units.lowerBound - 1, through: max(0, units.lowerBound - 8), by: -1) {
                    guard let found = phrase(at: start), found.end <= units.lowerBound,
                        (found.end..<units.lowerBound).allSatisfy({ u.grammar.notNames.contains(keys[$0]) })
                    else { continue }
                    event = found.event
                    break
                }
            }
            let kept = trimmedValue(units, u)
            guard !kept.isEmpty else {
                parameters.remove(at: index)
                return ["'\(p.raw)' is no place of a trigger"]
            }
            let (raw, trimmed) = u.said(kept)
            parameters[index] = Parameter(
                name: own.name, value: .spatialTrigger(SpatialTrigger(event: event ?? .arrive, place: raw)), raw: raw, span: trimmed)
            return []
        }
        for start in keys.indices {
            guard let found = phrase(at: start), found.end < keys.count else { continue }
            let kept = place(from: found.end, limit: keys.count)
            guard !kept.isEmpty else { continue }
            let (raw, span) = u.said(kept)
            let phraseStart = u.units[start].token.span.start
            // A task or name that ran over the trigger ends before it.
            for (i, q) in parameters.enumerated() {
                guard case .text = q.value, let s = q.span, s.start < phraseStart, s.end > phraseStart else { continue }
                let cut = unitRange(of: s, in: u.units).lowerBound..<start
                let trimmed = trimmedValue(cut, u)
                guard !trimmed.isEmpty else { continue }
                parameters[i] = resaid(q, over: trimmed, u)
            }
            parameters.removeAll { q in q.span.map { $0.start >= phraseStart && $0.start < span.end } ?? false }
            parameters.append(
                Parameter(name: own.name, value: .spatialTrigger(SpatialTrigger(event: found.event, place: raw)), raw: raw, span: span))
            notes.append("spatial trigger: \(found.event.rawValue) '\(raw)'")
            break
        }
        return notes
    }

    /// A name takes the head word of its kind said right after it: "my {shopping} list" →
    /// "shopping list", "the {joint} account" → "joint account" (`lexicon.json` "headWords", by
    /// vocabulary type).
    func withHeadWords(_ parameters: inout [Parameter], spec: IntentSpec, _ u: Utterance) {
        guard !u.grammar.headWords.isEmpty else { return }
        for (i, p) in parameters.enumerated() {
            guard let type = spec.parameter(p.name)?.vocabulary, let words = u.grammar.headWords[type], case .text = p.value,
                let span = p.span
            else { continue }
            let range = unitRange(of: span, in: u.units)
            var end = range.upperBound
            while end < u.units.count, end < range.upperBound + 2, words.contains(u.units[end].key),
                !u.units[end].commaBefore
            {
                end += 1
            }
            guard end > range.upperBound,
                !parameters.contains(where: { q in
                    q.span.map { $0.start >= span.end && $0.start < u.units[end - 1].token.span.end } ?? false
                })
            else { continue }
            parameters[i] = resaid(p, over: range.lowerBound..<end, u)
        }
    }

    /// A parameter that takes one name, read as two names with only a linking word of names
    /// between them (`lexicon.json` "nameLinks"), is one name that holds them: "El Rincón" + "de"
    /// + "Pepe" → "El Rincón de Pepe", "Trattoria" + "da" + "Gino" → "Trattoria da Gino". A
    /// comma, a sentence end, an app's mention, any other word between them, or a contact's name
    /// on either side keeps them apart.
    func joinedNames(_ parameters: inout [Parameter], spec: IntentSpec, _ u: Utterance) -> [String] {
        var notes: [String] = []
        let keys = u.keys
        /// The units of parameters `a` and `b` when they are one name with a linking word of names
        /// between them.
        func joined(_ a: Int, _ b: Int) -> Range<Int>? {
            guard case .text = parameters[a].value, case .text = parameters[b].value else { return nil }
            let first = unitRange(of: parameters[a].span!, in: u.units)
            let second = unitRange(of: parameters[b].span!, in: u.units)
            guard !first.isEmpty, !second.isEmpty, first.upperBound < second.lowerBound else { return nil }
            let gap = first.upperBound..<second.lowerBound
            guard u.grammar.nameLinks.contains(keys[gap]),
                (gap.lowerBound...second.lowerBound).allSatisfy({ !u.units[$0].commaBefore && !u.units[$0].sentenceBefore })
            else { return nil }
            let contacts = u.language.userItems["contactName"]
            guard !(contacts?.contains(keys[first]) ?? false), !(contacts?.contains(keys[second]) ?? false),
                !u.mentions.contains(where: { $0.range.overlaps(gap) })
            else { return nil }
            return first.lowerBound..<second.upperBound
        }
        for own in spec.parameters where !own.list && (own.type == .string || own.type == .place) {
            var said = parameters.indices.filter { parameters[$0].name == own.name && parameters[$0].span != nil }
                .sorted { parameters[$0].span!.start < parameters[$1].span!.start }
            var joinedAway: [Int] = []
            var k = 0
            while k + 1 < said.count {
                let (a, b) = (said[k], said[k + 1])
                guard let units = joined(a, b) else {
                    k += 1
                    continue
                }
                let one = resaid(parameters[a], over: units, u)
                notes.append("'\(parameters[a].raw)' and '\(parameters[b].raw)' are one \(own.name): '\(one.raw)'")
                parameters[a] = one
                joinedAway.append(b)
                said.remove(at: k + 1)
            }
            for index in joinedAway.sorted(by: >) { parameters.remove(at: index) }
        }
        return notes
    }

    /// A name takes the head word of its kind said before it with a linking word: "la {nota} del
    /// viaje" → "nota del viaje", "ma {liste} de courses" → "liste de courses" (`lexicon.json`
    /// "leadingHeadWords", by vocabulary type). A value that is one of the user's own items as it
    /// stands keeps its words ("la lista de Groceries" → "Groceries").
    func withLeadingHeadWords(_ parameters: inout [Parameter], spec: IntentSpec, _ u: Utterance) {
        guard !u.grammar.leadingHeadWords.isEmpty else { return }
        let keys = u.keys
        for (i, p) in parameters.enumerated() {
            guard let type = spec.parameter(p.name)?.vocabulary, let lead = u.grammar.leadingHeadWords[type], case .text = p.value,
                let span = p.span
            else { continue }
            let range = unitRange(of: span, in: u.units)
            guard !range.isEmpty, !(u.language.userItems[type]?.contains(keys[range]) ?? false) else { continue }
            // The linking words end right before the name; the head word stands right before them.
            var start: Int?
            for linkStart in stride(from: range.lowerBound - 1, through: max(1, range.lowerBound - lead.links.longest), by: -1) {
                guard lead.links.contains(keys[linkStart..<range.lowerBound]), lead.heads.contains(keys[linkStart - 1]),
                    !u.units[linkStart].commaBefore, !u.units[range.lowerBound].commaBefore
                else { continue }
                start = linkStart - 1
                break
            }
            guard let start else { continue }
            let headStart = u.units[start].token.span.start
            let overlapped = parameters.contains { q in q.span.map { $0.start < span.start && $0.end > headStart } ?? false }
            guard !overlapped else { continue }
            parameters[i] = resaid(p, over: start..<range.upperBound, u)
        }
    }

    /// An enum value whose words are exactly an item of the user's vocabulary for another
    /// parameter of the intent goes to that parameter: with an account the user calls "Savings",
    /// "my savings balance" asks about that account (`fromAccount`), not about a kind
    /// (`accountType` saving).
    func knownOverEnum(_ parameters: inout [Parameter], spec: IntentSpec, _ u: Utterance) -> String? {
        let keys = u.keys
        for (i, p) in parameters.enumerated() {
            guard spec.parameter(p.name)?.type == .enum, let span = p.span else { continue }
            let range = unitRange(of: span, in: u.units)
            guard !range.isEmpty else { continue }
            for other in spec.parameters where other.type == .string && !other.list && other.vocabulary != nil {
                guard !parameters.contains(where: { $0.name == other.name }), let vocabulary = u.language.userItems[other.vocabulary!],
                    vocabulary.contains(keys[range])
                else { continue }
                parameters[i] = Parameter(name: other.name, value: .text(p.raw), raw: p.raw, span: span)
                return "'\(p.raw)' is the user's \(other.vocabulary!), so \(other.name), not \(p.name)"
            }
        }
        return nil
    }

    /// Integer parameters said as phrases (`lexicon.json` "counts": "me and my wife" → partySize 2)
    /// when the frame has no number for them.
    func counted(_ parameters: inout [Parameter], spec: IntentSpec, _ u: Utterance) -> [String] {
        let keys = u.keys
        var notes: [String] = []
        for own in spec.parameters where own.type == .integer && !parameters.contains(where: { $0.name == own.name }) {
            guard let counts = u.grammar.counts[own.name] else { continue }
            for start in keys.indices {
                guard let (end, value) = counts.longestExact(keys, from: start), let n = Int(value) else { continue }
                let (raw, span) = u.said(start..<end)
                guard !parameters.contains(where: { q in q.span.map { $0.start < span.end && span.start < $0.end } ?? false }) else {
                    continue
                }
                parameters.append(Parameter(name: own.name, value: .number(Decimal(n)), raw: raw, span: span))
                notes.append("\(own.name) \(n) from '\(raw)'")
                break
            }
        }
        return notes
    }

    /// `p` said over units `range` instead: its text value, raw and span from those units, its
    /// name and resolution kept.
    func resaid(_ p: Parameter, over range: Range<Int>, _ u: Utterance) -> Parameter {
        let (raw, span) = u.said(range)
        return Parameter(name: p.name, value: .text(raw), raw: raw, span: span, resolution: p.resolution)
    }

    /// The words of units `range` as said, and their span.
    static func said(_ range: Range<Int>, units: [MatchUnit], scalars: [Unicode.Scalar]) -> (raw: String, span: Span) {
        let span = Span(units[range.lowerBound].token.span.start, units[range.upperBound - 1].token.span.end)
        return (String(scalars: scalars[span.start..<span.end]), span)
    }

    /// The units a span covers.
    func unitRange(of span: Span, in units: [MatchUnit]) -> Range<Int> {
        let inside = units.indices.filter { units[$0].token.span.start >= span.start && units[$0].token.span.end <= span.end }
        guard let first = inside.first, let last = inside.last else { return 0..<0 }
        return first..<(last + 1)
    }

    /// A value's units without what is not part of it (see `refined`).
    func trimmedValue(_ range: Range<Int>, _ u: Utterance) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        // Up to a comma or a sentence end.
        if let cut = (lower + 1..<upper).first(where: { u.units[$0].commaBefore || u.units[$0].sentenceBefore }) { upper = cut }
        let dated = u.entities.filter { e in
            switch e.type {
            case .date, .dateRange, .dateTime, .duration, .recurrence: true
            default: false
            }
        }.map(\.span)
        func outside(_ i: Int) -> Bool {
            let unit = u.units[i]
            if u.grammar.fillers.contains(unit.key) { return true }
            if dated.contains(where: { $0.start <= unit.token.span.start && unit.token.span.end <= $0.end }) { return true }
            guard u.grammar.notNames.contains(unit.key) else { return false }
            // "La Défense", "Le Train Bleu": a capital inside the sentence makes it part of a name.
            return !u.units.capitalMarksName(i, capitalizedNouns: u.grammar.capitalizedNouns)
        }
        while lower < upper, outside(lower) { lower += 1 }
        while upper > lower, outside(upper - 1) { upper -= 1 }
        return lower..<upper
    }

    /// A message or note without a closing clause after its last comma that holds only
    /// hesitations, thanks, function words or the app's mention ("j'ai bien reçu son colis,
    /// merci", "…, mit Natter bitte"). Its first words stay: "ya", "bon", "merci" begin
    /// messages too.
    func trimmedText(_ range: Range<Int>, _ u: Utterance) -> Range<Int> {
        let lower = range.lowerBound
        var upper = range.upperBound
        let mentioned = Set(u.mentions.flatMap { Array($0.range) })
        if let comma = (lower + 1..<upper).last(where: { u.units[$0].commaBefore || u.units[$0].sentenceBefore }),
            (comma..<upper).allSatisfy({
                u.grammar.fillers.contains(u.units[$0].key) || u.grammar.notNames.contains(u.units[$0].key) || mentioned.contains($0)
            })
        {
            upper = comma
        }
        return lower..<upper
    }

    /// Sets an enum parameter the request's words imply; returns a note for `--explain`.
    func implied(_ p: ParameterSpec, spec: IntentSpec, into parameters: inout [Parameter], _ u: Utterance) -> String? {
        let keys = u.keys
        let taken = parameters.compactMap { q in q.span.map { (q, unitRange(of: $0, in: u.units)) } }
        let persons = taken.filter { spec.parameter($0.0.name)?.type == .person }
        // The value's own phrases first (one slip allowed in a long word), then the cues; the
        // value first in the catalogue's order (the more specific: "did I miss any calls from
        // Bo" is missed, not received), then the longest said, then the first.
        let order = p.values ?? []
        let rank = { (value: String) in order.firstIndex(of: value) ?? order.count }
        var found: (range: Range<Int>, value: String, cue: Bool)?
        func consider(_ lexicon: PhraseLexicon, cue: Bool, beforePerson: Bool) {
            guard lexicon.longest > 0 else { return }
            for start in keys.indices {
                guard let (end, value, exact) = lexicon.matches(keys, from: start).max(by: { $0.0 < $1.0 }), exact || !cue else { continue }
                if beforePerson, !persons.contains(where: { $0.1.lowerBound == end }) { continue }
                if let found, rank(found.value) < rank(value) || (rank(found.value) == rank(value) && found.range.count >= end - start) {
                    continue
                }
                found = (start..<end, value, cue)
            }
        }
        if let own = u.grammar.enumerations[p.name] { consider(own, cue: false, beforePerson: false) }
        if found == nil, let cues = u.grammar.cues[p.name] {
            consider(cues.anywhere, cue: true, beforePerson: false)
            consider(cues.beforePerson, cue: true, beforePerson: true)
        }
        guard let found else { return nil }
        // Inside another value: only a person's name, and only at its edge or as all of it.
        for (q, range) in taken where range.overlaps(found.range) {
            guard spec.parameter(q.name)?.type == .person, let index = parameters.firstIndex(of: q) else { return nil }
            if found.range.lowerBound <= range.lowerBound, found.range.upperBound >= range.upperBound {
                parameters.remove(at: index)
            } else if found.range.lowerBound <= range.lowerBound || found.range.upperBound >= range.upperBound {
                let rest =
                    found.range.lowerBound <= range.lowerBound
                    ? found.range.upperBound..<range.upperBound : range.lowerBound..<found.range.lowerBound
                let (raw, span) = u.said(rest)
                parameters[index] = Parameter(name: q.name, value: .text(raw), raw: raw, span: span)
            } else {
                return nil
            }
        }
        let (raw, span) = u.said(found.range)
        parameters.append(Parameter(name: p.name, value: .enumCase(found.value), raw: raw, span: span))
        return "'\(raw)' implies \(p.name) \(found.value)" + (found.cue ? " (a cue)" : "")
    }

    /// A name said for a person that the user's vocabulary does not know but that is a
    /// well-known place ("fotos de Granada") goes to the intent's place parameter; a place
    /// that is a person the user knows goes to the person parameter; a place that is no known
    /// place but a common photo subject ("en la nieve") goes to the search terms. Returns a note for `--explain`.
    func relocated(_ parameters: inout [Parameter], spec: IntentSpec, _ u: Utterance) -> String? {
        // Every move is to or from a place: only intents with a place parameter (and only then
        // are the gazetteer and the places read).
        guard spec.parameters.contains(where: { $0.type == .place }), parameters.contains(where: { $0.span != nil }),
            case let sets = u.language.gazetteerSets(), let places = sets[LanguageCache.knownPlaces]
        else { return nil }
        let keys = { (p: Parameter) -> ArraySlice<String> in
            p.span.map { u.units[self.unitRange(of: $0, in: u.units)].map(\.key)[...] } ?? []
        }
        // Whether the vocabulary of a parameter knows the words.
        let known = { (p: ParameterSpec, words: ArraySlice<String>) in p.vocabulary.flatMap { u.vocabularies[$0] }?.contains(words) ?? false
        }
        // The person parameter a name can still go to.
        func person() -> ParameterSpec? {
            spec.parameters.first { s in s.type == .person && (s.list || !parameters.contains { $0.name == s.name }) }
        }
        var notes: [String] = []
        for (index, p) in parameters.enumerated() {
            guard let own = spec.parameter(p.name), case .text = p.value else { continue }
            let words = keys(p)
            guard !words.isEmpty else { continue }
            switch own.type {
            case .person:
                guard let place = spec.parameters.first(where: { $0.type == .place && !$0.list }),
                    !parameters.contains(where: { $0.name == place.name }),
                    places.contains(words), !known(own, words)
                else { continue }
                parameters[index] = Parameter(name: place.name, value: p.value, raw: p.raw, span: p.span)
                notes.append("'\(p.raw)' is a place, not a person the user knows: \(place.name)")
            case .string where p.name == "searchTerms":
                // A person the user knows, said as a subject ("a slideshow of Marta Ruiz's photos").
                let name = words.last.map(u.grammar.possessives.contains) == true ? words.dropLast() : words
                guard !name.isEmpty, let person = person(), known(person, name) else { continue }
                let range = unitRange(of: p.span!, in: u.units)
                let (raw, span) = u.said(range.lowerBound..<(range.lowerBound + name.count))
                parameters[index] = Parameter(name: person.name, value: .text(raw), raw: raw, span: span)
                notes.append("'\(p.raw)' names a person the user knows: \(person.name)")
            case .place:
                // A person the user knows, said where a place could stand ("foto di Rob al mare").
                if let person = person(), known(person, words), !places.contains(words) {
                    parameters[index] = Parameter(name: person.name, value: p.value, raw: p.raw, span: p.span)
                    notes.append("'\(p.raw)' is a person the user knows, not a place: \(person.name)")
                    continue
                }
                guard let terms = spec.parameter("searchTerms"), terms.type == .string, !places.contains(words),
                    sets["tag"]?.contains(words) == true,
                    !known(own, words)
                else { continue }
                parameters[index] = Parameter(name: terms.name, value: p.value, raw: p.raw, span: p.span)
                notes.append("'\(p.raw)' is a subject, not a place: \(terms.name)")
            default:
                continue
            }
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// Typed values of the text layer that no parameter (and no span of `avoiding`) holds go to
    /// the intent's parameter of their type when it has none: a duration, distance or energy to
    /// goalValue and its unit; an amount, a date or a time to the parameter of that type;
    /// numbers too when `numbers` ("an hour of strength training" → goalValue 1, hour;
    /// "snapshelf last wednesday selfies" → dateCreated). The trained tier places its typed
    /// values so, and the refinement what a template left. Returns the names set.
    func placeTypedValues(_ parameters: inout [Parameter], spec: IntentSpec, entities: [Entity], avoiding: [Span] = [], numbers: Bool)
        -> [String]
    {
        var placed: [String] = []
        for entity in entities {
            let taken = parameters.compactMap(\.span) + avoiding
            guard !taken.contains(where: { $0.start < entity.span.end && entity.span.start < $0.end }) else { continue }
            let used = Set(parameters.map(\.name))
            switch entity.value {
            case .duration(let m), .distance(let m), .energy(let m):
                guard spec.parameter("goalValue") != nil, !used.contains("goalValue"), spec.parameter("workoutGoalUnitType") != nil else {
                    continue
                }
                parameters.append(Parameter(name: "goalValue", value: .number(m.amount), raw: entity.text, span: entity.span))
                parameters.append(
                    Parameter(name: "workoutGoalUnitType", value: .enumCase(m.unit.rawValue), raw: entity.text, span: entity.span))
                placed.append("goalValue")
            case .number where !numbers:
                continue
            case .number, .date, .dateRange, .dateTime, .currencyAmount, .recurrence:
                let target = spec.parameters.first { p in
                    guard !used.contains(p.name) else { return false }
                    switch (entity.type, p.type) {
                    case (.recurrence, .temporalTrigger), (.date, .temporalTrigger), (.dateTime, .temporalTrigger),
                        (.dateRange, .temporalTrigger):
                        return true
                    case (.currencyAmount, .currencyAmount), (.number, .integer), (.date, .dateRange), (.dateRange, .dateRange),
                        (.date, .date), (.dateTime, .dateTime), (.date, .dateTime), (.dateRange, .dateTime):
                        return true
                    case (.number, .number): return p.name != "goalValue"
                    default: return false
                    }
                }
                guard let p = target else { continue }
                parameters.append(Parameter(name: p.name, value: value(entity, for: p), raw: entity.text, span: entity.span))
                placed.append(p.name)
            }
        }
        return placed
    }
}
