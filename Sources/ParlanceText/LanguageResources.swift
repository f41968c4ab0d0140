import Foundation

/// Reads the language data files in `Languages/<code>/`. Every language folder holds the
/// same files (a test checks it); a new language is added by adding a folder.
public enum LanguageResources {
    /// The data files each language folder must have.
    public static let fileNames = [
        "tokenizer.json", "numbers.json", "currencies.json", "dates.json", "measures.json", "soundalike.json", "names.json", "plurals.json"
    ]

    /// The folder holding one subfolder per language: the bundled one, or `PARLANCE_LANGUAGE_DIR`
    /// when set (for language authors: edit the data files and try them without rebuilding, as
    /// `PARLANCE_GRAMMAR_DIR` does for grammars).
    public static var directory: URL? {
        if let override = ProcessInfo.processInfo.environment["PARLANCE_LANGUAGE_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return Bundle.module.url(forResource: "Languages", withExtension: nil)
    }

    /// The language codes that have a folder, sorted.
    public static let availableLanguages: [String] = {
        guard let directory,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return entries.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// Decodes one data file of a language.
    static func load<T: Decodable>(_ type: T.Type, file: String, language: String) throws(LanguageDataError) -> T {
        guard let url = directory?.appendingPathComponent(language).appendingPathComponent(file) else {
            throw LanguageDataError(file: "\(language)/\(file)", message: "the Languages resource folder is missing")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw LanguageDataError(file: "\(language)/\(file)", message: "cannot read: \(error.localizedDescription)")
        }
        do {
            return try JSONGuard.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw LanguageDataError(file: "\(language)/\(file)", message: describe(error))
        } catch {
            throw LanguageDataError(file: "\(language)/\(file)", message: "\(error)")
        }
    }

    /// A decoding error as "at .apps[0].name: expected String …".
    public static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "(top level)" : keys
        }
        switch error {
        case .typeMismatch(let type, let context): return "at \(path(context)): expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "at \(path(context)): missing \(type)"
        case .keyNotFound(let key, let context): return "at \(path(context)): missing key '\(key.stringValue)'"
        case .dataCorrupted(let context): return "at \(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// A language data file that could not be read, naming the file and where in it.
public struct LanguageDataError: Error, Sendable, CustomStringConvertible {
    /// The file, relative to `Languages/`: "es/dates.json".
    public let file: String
    /// What is wrong, and where in the file: "at .dayParts.morning: expected [start hour, end hour]".
    public let message: String
    /// "language data <file>: <message>".
    public var description: String { "language data \(file): \(message)" }
}

// MARK: - The data files

/// `tokenizer.json`: how words are split beyond ICU's word rules.
struct TokenizerData: Decodable, Sendable {
    /// Elided forms and what they stand for: "d'" → "de". A token that starts with one
    /// of them followed by a word is split in two ("d'hier" → "d'" + "hier").
    var elisions: [String: String]
    /// Endings split off a word as their own token: English possessive "'s" ("Ana's" →
    /// "Ana" + "'s").
    var suffixes: [String]
    /// Pronouns attached to the end of verbs (Spanish and Italian enclitics).
    var clitics: CliticData?

    struct CliticData: Decodable, Sendable {
        /// The pronouns that can be attached, each with its normalized form: "le" → "le",
        /// Italian "lle" (as in "dille") → "le".
        var pronouns: [String: String]
        /// Verb forms (imperatives) that take clitics: "envía", "manda", "di".
        var verbs: [String]
        /// Endings of verb forms that take clitics without being listed (infinitives, gerunds).
        var verbEndings: [String]
        /// Letters whose written accent is only there because of the clitic: "á" → "a".
        var accentFolding: [String: String]
        /// At most this many pronouns are split off one word ("dámelo": 2).
        var maxPronouns: Int
    }
}

/// `numbers.json`: what CLDR's spell-out rules do not give.
struct NumberData: Decodable, Sendable {
    /// Words that count as a number but are not CLDR spell-out: "a" → 1, "dozen" → 12.
    /// Whole numbers only: spelled-out numbers are composed in integers.
    var extraWords: [String: Int64]
    /// Words that are numbers only inside a larger expression (with a unit or a currency),
    /// because alone they are articles: "un", "une", "a".
    var weakWords: [String]
    /// Words that join parts of a spelled-out number: "and", "y", "et".
    var connectors: [String]
}

/// `currencies.json`: currency words that CLDR lacks and how to settle ambiguous ones.
struct CurrencyData: Decodable, Sendable {
    /// Colloquial names: "bucks" → "USD".
    var aliases: [String: String]
    /// For a name shared by several currencies ("dollars", "$") when the locale's region
    /// does not use any of them: the one meant.
    var defaults: [String: String]
    /// Words allowed between an amount and a currency name: "un millón de dólares".
    var amountConnectors: [String]
    /// Cents after the currency name: the minor unit's names ("cents", "céntimos"); the
    /// words that join them ("and", "con"); those of them that join a bare number too ("22
    /// euros con cincuenta"). A bare number in digits right after the name is always cents
    /// ("12 euros 50"). Optional.
    var minorUnits: [String]?
    var minorConnectors: [String]?
    var bareMinorConnectors: [String]?
    /// Which word of a multi-word CLDR name is the bare noun people say alone: "first"
    /// ("dólares estadounidenses" → "dólares") or "last" ("US dollars" → "dollars").
    var headWord: HeadWord

    enum HeadWord: String, Decodable, Sendable { case first, last }
}

/// `dates.json`: date expressions beyond CLDR's relative-date phrases and calendar names.
struct DateData: Decodable, Sendable {
    var phrases: [Phrase]
    /// Hours [start, end) of the parts of a day.
    var dayParts: [String: [Int]]
    /// Leading words of CLDR phrases that people may drop ("el lunes pasado" → "lunes pasado").
    var optionalArticles: [String]
    /// Words between a day and a month or a month and a year: "de", "of".
    var connectors: [String]
    /// What may follow a day number: "th", "er", "º", ".".
    var ordinalSuffixes: [String]
    /// Month names that are also common words; recognized only next to a day or year, or capitalized.
    var ambiguousMonthNames: [String]
    /// Extra weekday names (1 = Sunday … 7 = Saturday): Portuguese "segunda" for "segunda-feira".
    var weekdayAliases: [String: Int]
    /// Extra month names (1 = January): "sept".
    var monthAliases: [String: Int]
    /// Times of day ("at 8 am", "a las 8", "um 8 Uhr").
    var time: TimeData
    /// Repetitions ("every Monday", "todos los días", "chaque soir"); none when absent.
    var recurrence: RecurrenceData?

    struct RecurrenceData: Decodable, Sendable {
        /// Words before a unit, a weekday or a part of the day: "every", "todos los", "chaque", "jeden".
        var every: [String]
        /// Unit words by frequency: {"daily": ["day", "days"], "weekly": ["week"]}.
        var units: [String: [String]]
        /// Whole phrases by frequency: {"daily": ["daily", "everyday"]}.
        var adverbs: [String: [String]]
        /// Part-of-day words after `every`, by the part of `dayParts`: {"evening": ["evening", "night"]}.
        var dayParts: [String: [String]]
        /// Endings of a plural weekday name ("Mondays", "lundis"): ["s"].
        var weekdayPlurals: [String]
        /// Words that alone say a weekday repeats, by weekday (1 = Sunday): German "montags".
        var weekdayAdverbs: [String: Int]
        /// Words between two weekdays: "and", "y", "et".
        var conjunctions: [String]
    }

    struct TimeData: Decodable, Sendable {
        /// Words before a time: "at", "a las", "à", "um".
        var connectors: [String]
        /// Hours with a name: "noon" → 12, "mediodía" → 12.
        var namedHours: [String: Int]
        /// "am" and "pm" words: {"am": ["am", "in the morning"], "pm": ["pm", "in the evening"]}.
        var meridiem: [String: [String]]
        /// Words after the hour: "o'clock", "h", "Uhr", "horas"; also between hours and minutes ("20 h 30").
        var hourSuffixes: [String]
        /// Words after the hour that add half an hour: "y media", "et demie", "e mezza".
        var halfPast: [String]
    }

    struct Phrase: Decodable, Sendable {
        var text: String
        var dayOffset: Int?
        var dayPart: String?
        var weekendOffset: Int?
        /// A whole week or month away: Portuguese "desta semana" (0), "do mês passado" (−1).
        var weekOffset: Int?
        var monthOffset: Int?
    }
}

/// `measures.json`: durations and distances beyond CLDR's unit names.
struct MeasureData: Decodable, Sendable {
    /// Whole expressions: "half an hour" → 30 minute.
    var phrases: [Phrase]
    /// What adds a half after a unit: "and a half", "y media".
    var halfSuffixes: [String]
    /// Unit names CLDR lacks: "mins" → "minute", "k" → "kilometer".
    var unitAliases: [String: String]
    /// CLDR unit abbreviations that are common words in the language ("mi" in Spanish).
    var unitExclusions: [String]

    struct Phrase: Decodable, Sendable {
        var text: String
        var amount: Double
        var unit: String
    }
}
