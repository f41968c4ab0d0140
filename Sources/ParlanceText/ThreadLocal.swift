import ParlanceICU

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One object per thread, made on the thread's first use (`value`) and released when the
/// thread ends: what a hot path keeps to itself without a lock (a matcher's scratch, a
/// Snowball stemmer). Keep one for the life of the process (a `static let`, or a member of an
/// object that lives as long): its thread-specific key is never deleted.
package final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Value

    /// `make` makes a thread's object.
    package init(_ make: @escaping @Sendable () -> Value) {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            let pointer: UnsafeMutableRawPointer? = raw
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        self.key = key
        self.make = make
    }

    /// The calling thread's object.
    package var value: Value {
        if let raw = pthread_getspecific(key) { return Unmanaged<Value>.fromOpaque(raw).takeUnretainedValue() }
        let made = make()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}

/// Values a thread has worked out for words, kept for the next time a word comes back (the
/// same words recur line after line): at most `limit` words of at most `longest` bytes (a longer
/// word is worked out every time); a full table is emptied and starts again, so that no text
/// can fill memory. One thread's: keep it in a `ThreadLocal`. The key is the word, or the word
/// with what else the value depends on (the tokenizer, the model).
package final class WordMemo<Key: Hashable, Value> {
    /// (One thread's, so no dynamic exclusivity check.)
    @exclusivity(unchecked) private var values: [Key: Value] = [:]
    let limit: Int
    let longest: Int

    package init(limit: Int, longest: Int) {
        self.limit = limit
        self.longest = longest
    }

    /// The value of `key`, whose word is `bytes` long, made by `make` the first time.
    package func value(of key: Key, bytes: Int, _ make: () -> Value) -> Value {
        guard bytes <= longest else { return make() }
        if let known = values[key] { return known }
        let made = make()
        if values.count >= limit { values.removeAll(keepingCapacity: true) }
        values[key] = made
        return made
    }
}

extension WordMemo where Key == String {
    /// The value of `word`, made by `make` the first time.
    package func value(of word: String, _ make: () -> Value) -> Value { value(of: word, bytes: word.utf8.count, make) }
}

/// Numbers for the objects whose results a `WordMemo`'s keys tell apart (a tokenizer, a
/// model): one per object made, never given twice in a process.
package enum MemoOwner {
    private static let count = Locked(0)

    package static func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
