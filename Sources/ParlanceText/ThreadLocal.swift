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
/// can fill memory. One thread's: keep it in a `ThreadLocal`.
package final class WordMemo {
    /// (One thread's, so no dynamic exclusivity check.)
    @exclusivity(unchecked) private var values: [String: String] = [:]
    let limit: Int
    let longest: Int

    package init(limit: Int, longest: Int) {
        self.limit = limit
        self.longest = longest
    }

    /// The value of `word`, made by `make` the first time.
    package func value(of word: String, _ make: () -> String) -> String {
        guard word.utf8.count <= longest else { return make() }
        if let known = values[word] { return known }
        let made = make()
        if values.count >= limit { values.removeAll(keepingCapacity: true) }
        values[word] = made
        return made
    }
}
