import Foundation
import FuzzSupport
import Parlance

/// What every input shares (static: made on first use, whichever `main` runs).
enum State {
    static let processor = BatchLineProcessor(parser: try! ResolvingParser(context: .demo), defaultLocale: "en-US", explain: true)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = input(bytes, size)
    _ = State.processor.process([UInt8](data), number: 1)
    return 0
}
