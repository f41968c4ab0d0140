#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a lock: `withLock` gives one caller at a time the value to read or change.
///
/// Used instead of `Synchronization.Mutex` because it locks a `pthread_mutex_t`, which
/// ThreadSanitizer understands: on Linux, `Mutex` waits on a futex that TSan cannot see, so
/// every access made under it is reported as a race and the concurrency tests cannot gate.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// (Read and written only under the mutex, which keeps accesses apart: no dynamic
    /// exclusivity check.)
    @exclusivity(unchecked) private var value: Value

    /// Creates a lock around `value`, the initial value.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; `body` must not call `withLock` on the
    /// same instance (the lock is not recursive).
    @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
