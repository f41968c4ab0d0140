import CParlanceICU

/// A failure reported by ICU, with the ICU status name and the operation that failed.
public struct ICUError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ICU's status code (a `UErrorCode` value; > 0 means failure).
    public let code: Int32
    /// What Parlance was doing, e.g. "open word break iterator for 'xx'".
    public let operation: String

    /// Creates an error from an ICU status code and a description of the operation that failed.
    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// ICU's name for the code, e.g. "U_ILLEGAL_ARGUMENT_ERROR".
    public var name: String { String(validatingCString: pl_error_name(code)) ?? "ICU error \(code)" }

    /// "ICU failed to <operation>: <name>".
    public var description: String { "ICU failed to \(operation): \(name)" }
}

/// The version of the system ICU that Parlance is linked against, e.g. "72.1".
public let icuVersion: String = {
    var buffer = [CChar](repeating: 0, count: 32)
    pl_icu_version(&buffer)
    return buffer.withUnsafeBufferPointer { String(validatingCString: $0.baseAddress!) ?? "" }
}()

@inline(__always)
func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(ICUError) {
    if status > 0 { throw ICUError(code: status, operation: operation()) }
}

/// Calls an ICU function that writes UTF-16 into a caller buffer, growing the buffer once
/// when ICU reports that it needs more room.
func utf16Output(
    capacity: Int,
    _ operation: @autoclosure () -> String,
    _ body: (UnsafeMutablePointer<UInt16>, Int32, UnsafeMutablePointer<Int32>) -> Int32
) throws(ICUError) -> [UInt16] {
    var size = max(capacity, 8)
    for _ in 0..<2 {
        var status: Int32 = 0
        var buffer = [UInt16](repeating: 0, count: size)
        let needed = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32(size), &status) }
        if status == PL_BUFFER_OVERFLOW || Int(needed) > size {
            size = Int(needed) + 1
            continue
        }
        try check(status, operation())
        buffer.removeSubrange(Int(needed)...)
        return buffer
    }
    throw ICUError(code: PL_BUFFER_OVERFLOW, operation: operation())
}

/// Same as `utf16Output` for functions that write ASCII/UTF-8 bytes.
func byteOutput(
    capacity: Int,
    _ operation: @autoclosure () -> String,
    _ body: (UnsafeMutablePointer<CChar>, Int32, UnsafeMutablePointer<Int32>) -> Int32
) throws(ICUError) -> String {
    var size = max(capacity, 8)
    for _ in 0..<2 {
        var status: Int32 = 0
        var buffer = [CChar](repeating: 0, count: size + 1)
        let needed = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32(size), &status) }
        if status == PL_BUFFER_OVERFLOW || Int(needed) > size {
            size = Int(needed) + 1
            continue
        }
        try check(status, operation())
        return String(decoding: buffer[0..<Int(needed)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    throw ICUError(code: PL_BUFFER_OVERFLOW, operation: operation())
}

extension String {
    init(utf16 units: [UInt16]) { self = String(decoding: units, as: UTF16.self) }
}
