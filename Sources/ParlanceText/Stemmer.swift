import CStemmer
import ParlanceICU

/// Snowball stemmers (libstemmer, through `CStemmer`), one per language, for features that
/// should not care about inflection ("llamo", "llamar", "llamadas" → "llam"). A Snowball
/// stemmer object is not thread-safe: each call borrows an idle one from a small pool.
public final class Stemmer: Sendable {
    /// The language code of the Snowball algorithm ("es", "en").
    public let language: String
    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }
    private let idle = Locked<[Handle]>([])

    private init?(language: String) {
        guard let probe = sb_stemmer_new(language, "UTF_8") else { return nil }
        self.language = language
        idle.withLock { $0.append(Handle(pointer: probe)) }
    }

    deinit {
        idle.withLock { handles in for h in handles { sb_stemmer_delete(h.pointer) } }
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
        guard !word.isEmpty, word.utf8.count < 256 else { return word }
        let handle = idle.withLock { $0.popLast() } ?? sb_stemmer_new(language, "UTF_8").map { Handle(pointer: $0) }
        guard let handle else { return word }
        defer { idle.withLock { if $0.count < 16 { $0.append(handle) } else { sb_stemmer_delete(handle.pointer) } } }
        let bytes = Array(word.utf8)
        guard let out = bytes.withUnsafeBufferPointer({ sb_stemmer_stem(handle.pointer, $0.baseAddress, Int32($0.count)) }) else {
            return word
        }
        let length = Int(sb_stemmer_length(handle.pointer))
        return String(decoding: UnsafeBufferPointer(start: out, count: length), as: UTF8.self)
    }
}
