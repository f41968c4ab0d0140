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

    public struct Word: Sendable, Hashable, Codable {
        public let said: String
        /// The item's word it matched, nil when it matched none.
        public let matched: String?
        public let how: How?
        public let quality: Double
    }

    /// What decided the score.
    public enum Basis: String, Sendable, Hashable, Codable {
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
    }

    /// "phrase" or "pronunciation" (the item's pronunciation hint).
    public let form: String
    public let basis: Basis
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
}

/// Compares a said name with vocabulary forms. The weights are in `ResolutionPolicy`'s
/// documentation; they are fixed here because they define what a score means.
struct NameScorer {
    static let qualities: [NameMatch.How: Double] = [.exact: 1.0, .soundAlike: 0.9, .misspelling: 0.85, .prefix: 0.75, .initial: 0.7]
    /// A second edit costs this much more than one.
    static let secondEditPenalty = 0.1
    /// A sound-alike word with no letter in common in place scores this; one letter off, close
    /// to the full sound-alike quality.
    static let soundAlikeFloor = 0.82
    static let spacingScore = 0.98
    static let soundAlikeScore = 0.9

    let query: NameForm
    private let queryScalars: [[Unicode.Scalar]]
    private let joinedScalars: [Unicode.Scalar]

    init(query: NameForm) {
        self.query = query
        queryScalars = query.words.map { Array($0.unicodeScalars) }
        joinedScalars = Array(query.joined.unicodeScalars)
    }

    /// Edits allowed in a word of this many letters.
    static func maxEdits(_ length: Int) -> Int { length >= 8 ? 2 : length >= 4 ? 1 : 0 }

    func score(words formWords: [String], sounds: ArraySlice<UInt32>, joinedSound: UInt32, isPronunciation: Bool) -> NameMatch {
        let formScalars = formWords.map { Array($0.unicodeScalars) }
        let formSounds = Array(sounds)
        // Every pair's best way to match.
        var pairs: [(q: Int, f: Int, how: NameMatch.How, quality: Double)] = []
        for (q, said) in queryScalars.enumerated() {
            for (f, word) in formScalars.enumerated() {
                if said == word {
                    pairs.append((q, f, .exact, 1.0))
                    continue
                }
                var best: (NameMatch.How, Double)? = nil
                if said.count >= 2, word.count >= 2, query.wordSounds[q] == formSounds[f] {
                    // Spellings far apart that still share a key ("moreau" / "mary" in English,
                    // whose vowels are one class) count for less.
                    let longer = max(said.count, word.count)
                    let similarity = 1 - Double(min(longer, editDistance(said, word, limit: longer))) / Double(longer)
                    best = (.soundAlike, Self.soundAlikeFloor + (Self.qualities[.soundAlike]! - Self.soundAlikeFloor) * similarity)
                }
                let limit = Self.maxEdits(min(said.count, word.count))
                if limit > 0 {
                    let d = editDistance(said, word, limit: limit)
                    if d <= limit {
                        let quality = Self.qualities[.misspelling]! - Double(d - 1) * Self.secondEditPenalty
                        if quality > best?.1 ?? 0 { best = (.misspelling, quality) }
                    }
                }
                if best == nil, said.count == 1, word.first == said.first {
                    best = (.initial, Self.qualities[.initial]!)
                }
                if best == nil, said.count >= 3, word.count > said.count, word.starts(with: said) {
                    best = (.prefix, Self.qualities[.prefix]!)
                }
                if let best { pairs.append((q, f, best.0, best.1)) }
            }
        }
        // Greedy alignment, best pairs first; ties keep word order.
        pairs.sort { $0.quality != $1.quality ? $0.quality > $1.quality : abs($0.q - $0.f) < abs($1.q - $1.f) }
        var queryMatch = [(f: Int, how: NameMatch.How, quality: Double)?](repeating: nil, count: queryScalars.count)
        var formUsed = [Bool](repeating: false, count: formScalars.count)
        for pair in pairs where queryMatch[pair.q] == nil && !formUsed[pair.f] {
            queryMatch[pair.q] = (pair.f, pair.how, pair.quality)
            formUsed[pair.f] = true
        }
        var said = 0.0, saidMatched = 0.0
        var wordsOut: [NameMatch.Word] = []
        for (q, scalars) in queryScalars.enumerated() {
            let weight = Double(max(2, scalars.count))
            said += weight
            if let m = queryMatch[q] {
                saidMatched += weight * m.quality
                wordsOut.append(.init(said: query.words[q], matched: formWords[m.f], how: m.how, quality: m.quality))
            } else {
                wordsOut.append(.init(said: query.words[q], matched: nil, how: nil, quality: 0))
            }
        }
        let formLetters = formScalars.reduce(0) { $0 + max(2, $1.count) }
        var covered = 0
        for (f, used) in formUsed.enumerated() where used { covered += max(2, formScalars[f].count) }
        let coverage = formLetters == 0 ? 0 : Double(covered) / Double(formLetters)
        let wordScore = said == 0 ? 0 : saidMatched / said * (0.85 + 0.15 * coverage)
        let allExact = !queryMatch.isEmpty && queryMatch.allSatisfy { $0?.how == .exact }
        let allFormUsed = formUsed.allSatisfy { $0 }

        let formJoined = Array(formWords.joined().unicodeScalars)
        let longer = max(formJoined.count, joinedScalars.count)
        let limit = max(1, longer / 4)
        let distance = editDistance(joinedScalars, formJoined, limit: limit)
        let similarity = longer == 0 ? 0 : max(0, 1 - Double(distance) / Double(longer))
        let form = isPronunciation ? "pronunciation" : "phrase"

        if allExact && allFormUsed && queryScalars.count == formScalars.count {
            return NameMatch(form: form, basis: .exact, words: wordsOut, coverage: 1, characterSimilarity: 1, score: 1, certain: true, whole: true)
        }
        if formJoined == joinedScalars {
            return NameMatch(form: form, basis: .spacing, words: wordsOut, coverage: 1, characterSimilarity: 1, score: Self.spacingScore, certain: true, whole: true)
        }
        var basis = NameMatch.Basis.words
        var score = wordScore
        if joinedSound == query.joinedSound, formJoined.count >= 2, Self.soundAlikeScore > score {
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
        return NameMatch(form: form, basis: basis, words: wordsOut, coverage: coverage, characterSimilarity: similarity,
                         score: (score * 1000).rounded() / 1000, certain: certain, whole: certain && allFormUsed)
    }
}
