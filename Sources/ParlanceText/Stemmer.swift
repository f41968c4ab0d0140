import CStemmer
import ParlanceICU

/// Snowball stemmers (libstemmer, through `CStemmer`), one per language, for features that
/// should not care about inflection ("llamo", "llamar", "llamadas" → "llam"). A Snowball
/// stemmer object is not thread-safe: each thread has its own, with the stems it has worked
/// out (the same words come back utterance after utterance).
public final class Stemmer: Sendable {
    /// The language code of the Snowball algorithm ("es", "en").
    public let language: String
    /// Each thread's stemmer and stems (the stemmer lives as long as the process: `shared(_:)`
    /// keeps it).
    private let local: ThreadLocal<Local>

    /// One thread's Snowball stemmer and the stems it gave.
    private final class Local {
        let handle: OpaquePointer?
        let stems = WordMemo<String, String>(limit: Stemmer.remembered, longest: Stemmer.longest)
        init(language: String) { handle = sb_stemmer_new(language, "UTF_8") }
        deinit { if let handle { sb_stemmer_delete(handle) } }
    }

    /// The most stems a thread keeps; past it, it forgets them all and starts again.
    static let remembered = 20_000
    /// The longest word stemmed, in bytes (a longer one is its own stem).
    static let longest = 255

    private init?(language: String) {
        guard let probe = sb_stemmer_new(language, "UTF_8") else { return nil }
        sb_stemmer_delete(probe)
        self.language = language
        local = ThreadLocal { Local(language: language) }
    }

    private static let cache = Locked<[String: Stemmer?]>([:])

    /// The stemmer of a language (ISO 639-1 code, as Snowball names its algorithms), or nil
    /// when Snowball has none.
    public static func shared(_ language: String) -> Stemmer? {
        cache.withLock { cache in
            if let known = cache[language] { return known }
            let made = Stemmer(language: language)
            cache[language] = made
            return made
        }
    }

    /// The stem of one lower-case word (the word itself when it is not letters).
    public func stem(_ word: String) -> String {
        guard !word.isEmpty, word.utf8.count <= Self.longest else { return word }
        let local = self.local.value
        return local.stems.value(of: word) {
            guard let handle = local.handle else { return word }
            let bytes = Array(word.utf8)
            guard let out = bytes.withUnsafeBufferPointer({ sb_stemmer_stem(handle, $0.baseAddress, Int32($0.count)) }) else {
                return word
            }
            return String(decoding: UnsafeBufferPointer(start: out, count: Int(sb_stemmer_length(handle))), as: UTF8.self)
        }
    }
}
