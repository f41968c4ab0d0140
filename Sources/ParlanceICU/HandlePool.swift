import Synchronization

/// A pool of ICU objects that are not thread-safe (break iterators, transliterators,
/// number formats). Each caller borrows its own clone for the duration of one call, so
/// the public API is safe to use from many tasks at once; idle clones are kept for reuse.
final class HandlePool: Sendable {
    /// An ICU object pointer. Only one thread uses a handle at a time: it is either idle in
    /// the pool (guarded by the mutex) or borrowed by exactly one call.
    struct Handle: @unchecked Sendable { let pointer: OpaquePointer }

    // The prototype is only ever cloned, and only under `idle`'s lock.
    private let prototype: Handle
    private let idle = Mutex<[Handle]>([])
    private let clone: @Sendable (OpaquePointer) throws(ICUError) -> OpaquePointer
    private let close: @Sendable (OpaquePointer) -> Void
    private let maxIdle: Int

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
    }

    deinit {
        idle.withLock { handles in handles.forEach { close($0.pointer) } }
        close(prototype.pointer)
    }

    func withHandle<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
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
