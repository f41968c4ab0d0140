#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pool of ICU objects that are not thread-safe (break iterators, transliterators,
/// number formats). Each caller borrows its own clone for the duration of one call, so
/// the public API is safe to use from many tasks at once.
///
/// Each thread keeps one clone of its own (thread-local, no lock at all on the hot path);
/// a nested call on the same thread, or a thread-local key that cannot be had, falls back to
/// a shared list of idle clones behind a mutex.
final class HandlePool: Sendable {
    /// An ICU object pointer. Only one thread uses a handle at a time: it is either idle in
    /// the pool (guarded by the mutex), owned by one thread's slot, or borrowed by one call.
    struct Handle: @unchecked Sendable { let pointer: OpaquePointer }

    /// A thread's own clone; only ever touched by that thread.
    private final class Slot {
        let pointer: OpaquePointer
        let close: @Sendable (OpaquePointer) -> Void
        var busy = false
        init(pointer: OpaquePointer, close: @escaping @Sendable (OpaquePointer) -> Void) {
            self.pointer = pointer
            self.close = close
        }
        deinit { close(pointer) }
    }

    // The prototype is only ever cloned, and only under `idle`'s lock.
    private let prototype: Handle
    private let idle = Locked<[Handle]>([])
    private let clone: @Sendable (OpaquePointer) throws(ICUError) -> OpaquePointer
    private let close: @Sendable (OpaquePointer) -> Void
    private let maxIdle: Int
    private let key: pthread_key_t?

    init(
        prototype: OpaquePointer,
        maxIdle: Int = 16,
        clone: @escaping @Sendable (OpaquePointer) throws(ICUError) -> OpaquePointer,
        close: @escaping @Sendable (OpaquePointer) -> Void
    ) {
        self.prototype = Handle(pointer: prototype)
        self.clone = clone
        self.close = close
        self.maxIdle = maxIdle
        var key = pthread_key_t()
        // Thread exit releases the thread's slot, which closes its clone.
        let created = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<AnyObject>.fromOpaque(raw).release()
        }
        self.key = created == 0 ? key : nil
    }

    deinit {
        // Slots still held by other threads are released when those threads end... or, for
        // a key deleted here, never (pools live as long as the language data they serve).
        if let key {
            if let raw = pthread_getspecific(key) {
                pthread_setspecific(key, nil)
                Unmanaged<AnyObject>.fromOpaque(raw).release()
            }
            pthread_key_delete(key)
        }
        idle.withLock { handles in
            for handle in handles { close(handle.pointer) }
        }
        close(prototype.pointer)
    }

    func withHandle<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        if let key {
            var slot: Slot?
            if let raw = pthread_getspecific(key) {
                slot = Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? Slot
            } else {
                let made = Slot(
                    pointer: try idle.withLock { (_: inout [Handle]) throws(ICUError) -> OpaquePointer in try clone(prototype.pointer) },
                    close: close)
                pthread_setspecific(key, Unmanaged<AnyObject>.passRetained(made).toOpaque())
                slot = made
            }
            if let slot, !slot.busy {
                slot.busy = true
                defer { slot.busy = false }
                return try body(slot.pointer)
            }
        }
        return try withSharedHandle(body)
    }

    private func withSharedHandle<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        let handle = try idle.withLock { (handles: inout [Handle]) throws(ICUError) -> Handle in
            if let handle = handles.popLast() { return handle }
            return Handle(pointer: try clone(prototype.pointer))
        }
        defer {
            let surplus = idle.withLock { (handles: inout [Handle]) -> Handle? in
                guard handles.count < maxIdle else { return handle }
                handles.append(handle)
                return nil
            }
            if let surplus { close(surplus.pointer) }
        }
        return try body(handle.pointer)
    }
}
