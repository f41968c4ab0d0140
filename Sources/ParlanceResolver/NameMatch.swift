import ParlanceText

/// How one said name compares with one vocabulary form, component by component.
public struct NameMatch: Sendable, Hashable, Codable {
    /// How a said word matched a word of the item.
    public enum How: String, Sendable, Hashable, Codable {
        /// Equal after case, diacritic and script folding ("jose" / "José", "li" / "李").
        case exact
        /// Different letters, same sound-alike key in the language ("Bicente" / "Vicente").
        case soundAlike
        /// One or two letters off ("Giovani" / "Giovanni").
        case misspelling
        /// A single letter for a word ("J. Smith").
        case initial
        /// The beginning of a longer word ("Alex" / "Alexander").
        case prefix
    }

    /// One said word and the item's word it matched.
    public struct Word: Sendable, Hashable, Codable {
        /// The said word, folded to Latin ("bicente").
        public let said: String
        /// The item's word it matched, nil when it matched none.
        public let matched: String?
        /// How it matched; nil when it matched none.
        public let how: How?
        /// How well it matched, 0 to 1 (0 when unmatched): 1 exact, 0.82–0.9 sound-alike, 0.85 or 0.75 misspelled (one or
        /// two edits), 0.75 prefix, 0.7 initial.
        public let quality: Double
    }

    /// What decided the score.
    public enum Basis: String, Sendable, Hashable, Codable {
        /// The contact's relationship to the user was said ("my mom", "mamá").
        case relationship
        /// The whole name is equal, words and all.
        case exact
        /// Equal once spaces and punctuation are dropped ("banana rific" / "Bananarific").
        case spacing
        /// Word by word (see `words`).
        case words
        /// The whole name's sound-alike key is equal.
        case soundAlike
        /// Letter by letter on the joined forms.
        case characters
        /// The same in Latin letters but written differently in its own script ("叶丽" said,
        /// "叶李" listed): they sound alike, but the user wrote the other one.
        case transliteration
    }

    /// Which of the item's names matched: "phrase", "pronunciation" (its pronunciation hint),
    /// "nickname" (the contact's nickname) or "relationship".
    public let form: String
    /// What decided `score`.
    public let basis: Basis
    /// Each said word, in the order said, with what it matched.
    public let words: [Word]
    /// The share of the item's letters that said words matched.
    public let coverage: Double
    /// Letter similarity of the joined forms (1 − edits / length).
    public let characterSimilarity: Double
    /// The match before the priority prior, 0–1.
    public let score: Double
    /// Every said word matched a word exactly (or the joined forms are equal).
    public let certain: Bool
    /// Certain, and every word of the item was matched: the whole name was said.
    public let whole: Bool
    /// How the said name was read to reach this item, when not as said: "short form: bob →
    /// robert", "spelling: joerg → jorg" (`NameKnowledge`). Nil when as said.
    public var variant: String? = nil
}

/// Compares a said name with vocabulary forms. The weights are in `ResolutionPolicy`'s
/// documentation; they are fixed here because they define what a score means. Works on the
/// UTF-8 bytes of the folded Latin forms (ASCII for nearly every name), without allocating
/// per candidate beyond the result.
extension NameMatch {
    /// What a variant's match says of the name as said: a spelling variant is the same name
    /// (unchanged); any other (a short form, another language's given name, a particle) is at
    /// best a guess to confirm: never certain or whole, its score lowered by
    /// `NameScorer.variantFactor`, or by `NameScorer.approximateVariantFactor` when the reading
    /// itself matched only approximately (a guess on a guess).
    func read(as variant: NameKnowledge.Variant) -> NameMatch {
        let note = "\(variant.kind.rawValue): \(variant.note)"
        if variant.kind == .spelling {
            var match = self
            match.variant = note
            return match
        }
        return NameMatch(
            form: form, basis: basis, words: words, coverage: coverage, characterSimilarity: characterSimilarity,
            score: score * (whole ? NameScorer.variantFactor : NameScorer.approximateVariantFactor), certain: false, whole: false,
            variant: note)
    }
}

struct NameScorer {
    /// A name reached through a short form, a given name in another language or a particle
    /// scores this share of the match it makes.
    static let variantFactor = 0.95
    /// … and this share when the reading matches that item only approximately.
    static let approximateVariantFactor = 0.85

    static let exactQuality = 1.0
    static let soundAlikeQuality = 0.9
    static let misspellingQuality = 0.85
    static let prefixQuality = 0.75
    static let initialQuality = 0.7
    /// A second edit costs this much more than one.
    static let secondEditPenalty = 0.1
    /// A sound-alike word with no letter in common in place scores this; one letter off, close
    /// to the full sound-alike quality.
    static let soundAlikeFloor = 0.82
    static let spacingScore = 0.98
    static let soundAlikeScore = 0.9

    let query: NameForm
    private let queryBytes: [[UInt8]]
    private let joinedBytes: [UInt8]
    /// Given names (`NameKnowledge.givenNames`): two different ones are two names, not a slip
    /// or a sound-alike of each other ("Mario" is not "Marino", "Márcia" not "María").
    private let givenNames: Set<String>
    /// The said words that are given names.
    private let saidGivenNames: [Bool]

    init(query: NameForm, givenNames: Set<String> = []) {
        self.query = query
        queryBytes = query.words.map { Array($0.utf8) }
        joinedBytes = Array(query.joined.utf8)
        self.givenNames = givenNames
        saidGivenNames = query.words.map { givenNames.contains($0) }
    }

    /// Edits allowed in a word of this many letters.
    static func maxEdits(_ length: Int) -> Int { length >= 8 ? 2 : length >= 4 ? 1 : 0 }

    /// Scores a form given as its words joined by single spaces.
    static let transliterationScore = 0.95

    func score(formText: String, sounds: ArraySlice<UInt32>, joinedSound: UInt32, scriptKey: UInt32, kind: NameForm.Kind) -> NameMatch {
        var text = formText
        let match = text.withUTF8 { bytes in
            score(formBytes: bytes, sounds: sounds, joinedSound: joinedSound, kind: kind)
        }
        // Said in a non-Latin script: equal in Latin is not equal unless equal in that script.
        if match.whole, query.scriptKey != 0, scriptKey != query.scriptKey {
            return NameMatch(
                form: match.form, basis: .transliteration, words: match.words, coverage: match.coverage,
                characterSimilarity: match.characterSimilarity, score: Self.transliterationScore, certain: false, whole: false)
        }
        return match
    }

    private func score(formBytes: UnsafeBufferPointer<UInt8>, sounds: ArraySlice<UInt32>, joinedSound: UInt32, kind: NameForm.Kind)
        -> NameMatch
    {
        // The form's words as byte ranges.
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(sounds.count)
        var start = 0
        for (i, byte) in formBytes.enumerated() where byte == 0x20 {
            if i > start { ranges.append(start..<i) }
            start = i + 1
        }
        if formBytes.count > start { ranges.append(start..<formBytes.count) }
        let formSounds = sounds.startIndex
        func word(_ f: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: formBytes[ranges[f]]) }

        // Every pair's best way to match: (quality, query word, form word, how).
        var pairs: [(quality: Double, q: Int, f: Int, how: NameMatch.How)] = []
        for (q, said) in queryBytes.enumerated() {
            said.withUnsafeBufferPointer { said in
                for f in ranges.indices {
                    let other = word(f)
                    if said.elementsEqual(other) {
                        pairs.append((Self.exactQuality, q, f, .exact))
                        continue
                    }
                    var how: NameMatch.How? = nil
                    var quality = 0.0
                    let sameLength = min(said.count, other.count)
                    // Two different given names are different people, however alike they sound
                    // ("Mario" is not "Marino"): no sound-alike, slip or prefix between them.
                    let differentGivenNames = saidGivenNames[q] && givenNames.contains(String(decoding: other, as: UTF8.self))
                    if !differentGivenNames, said.count >= 2, other.count >= 2, f < sounds.count,
                        query.wordSounds[q] == sounds[formSounds + f]
                    {
                        // Spellings far apart that still share a key ("moreau" / "mary" in
                        // English, whose vowels are one class) count for less.
                        let longer = max(said.count, other.count)
                        let similarity = 1 - Double(min(longer, boundedDistance(said, other, limit: longer))) / Double(longer)
                        how = .soundAlike
                        quality = Self.soundAlikeFloor + (Self.soundAlikeQuality - Self.soundAlikeFloor) * similarity
                    }
                    let limit = differentGivenNames ? 0 : Self.maxEdits(sameLength)
                    if limit > 0 {
                        let d = boundedDistance(said, other, limit: limit)
                        if d <= limit {
                            let q = Self.misspellingQuality - Double(d - 1) * Self.secondEditPenalty
                            if q > quality {
                                how = .misspelling
                                quality = q
                            }
                        }
                    }
                    if how == nil, said.count == 1, other.first == said.first {
                        how = .initial
                        quality = Self.initialQuality
                    }
                    if how == nil, !differentGivenNames, said.count >= 3, other.count > said.count, other.starts(with: said) {
                        how = .prefix
                        quality = Self.prefixQuality
                    }
                    if let how { pairs.append((quality, q, f, how)) }
                }
            }
        }
        // Greedy alignment, best pairs first; ties keep word order.
        pairs.sort { $0.quality != $1.quality ? $0.quality > $1.quality : abs($0.q - $0.f) < abs($1.q - $1.f) }
        var queryMatch = [(f: Int, how: NameMatch.How, quality: Double)?](repeating: nil, count: queryBytes.count)
        var formUsed = [Bool](repeating: false, count: ranges.count)
        for pair in pairs where queryMatch[pair.q] == nil && !formUsed[pair.f] {
            queryMatch[pair.q] = (pair.f, pair.how, pair.quality)
            formUsed[pair.f] = true
        }
        var said = 0.0
        var saidMatched = 0.0
        var words: [NameMatch.Word] = []
        words.reserveCapacity(queryBytes.count)
        for (q, bytes) in queryBytes.enumerated() {
            let weight = Double(max(2, bytes.count))
            said += weight
            if let m = queryMatch[q] {
                saidMatched += weight * m.quality
                words.append(
                    .init(said: query.words[q], matched: String(decoding: word(m.f), as: UTF8.self), how: m.how, quality: m.quality))
            } else {
                words.append(.init(said: query.words[q], matched: nil, how: nil, quality: 0))
            }
        }
        var formLetters = 0
        var covered = 0
        for f in ranges.indices {
            let letters = max(2, ranges[f].count)
            formLetters += letters
            if formUsed[f] { covered += letters }
        }
        let coverage = formLetters == 0 ? 0 : Double(covered) / Double(formLetters)
        let wordScore = said == 0 ? 0 : saidMatched / said * (0.85 + 0.15 * coverage)
        let allExact = !queryMatch.isEmpty && queryMatch.allSatisfy { $0?.how == .exact }
        let allFormUsed = formUsed.allSatisfy { $0 }
        let form = kind.name

        if allExact && allFormUsed && queryBytes.count == ranges.count {
            return NameMatch(
                form: form, basis: .exact, words: words, coverage: 1, characterSimilarity: 1, score: 1, certain: true, whole: true)
        }
        // The joined forms, letter by letter.
        var joinedForm: [UInt8] = []
        joinedForm.reserveCapacity(formBytes.count)
        for byte in formBytes where byte != 0x20 { joinedForm.append(byte) }
        if joinedForm == joinedBytes {
            return NameMatch(
                form: form, basis: .spacing, words: words, coverage: 1, characterSimilarity: 1, score: Self.spacingScore, certain: true,
                whole: true)
        }
        let longer = max(joinedForm.count, joinedBytes.count)
        let limit = max(1, longer / 4)
        let distance = joinedForm.withUnsafeBufferPointer { a in
            joinedBytes.withUnsafeBufferPointer { b in boundedDistance(a, b, limit: limit) }
        }
        let similarity = longer == 0 ? 0 : max(0, 1 - Double(min(distance, longer)) / Double(longer))
        var basis = NameMatch.Basis.words
        var score = wordScore
        if joinedSound == query.joinedSound, joinedForm.count >= 2, Self.soundAlikeScore > score {
            basis = .soundAlike
            score = Self.soundAlikeScore
        }
        // Letter by letter, for names split differently ("bobothegreat"); never better than
        // a misspelled word.
        let characterScore = distance <= limit ? similarity - 0.1 : 0
        if characterScore > score {
            basis = .characters
            score = characterScore
        }
        let certain = basis == .words && allExact
        return NameMatch(
            form: form, basis: basis, words: words, coverage: coverage, characterSimilarity: similarity,
            score: (score * 1000).rounded() / 1000, certain: certain, whole: certain && allFormUsed)
    }
}
