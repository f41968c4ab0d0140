import Foundation
import FuzzSupport
import Parlance

/// What every input shares (static: made on first use, whichever `main` runs).
enum State {
    static let parser = try! IntentParser(context: .demo)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = input(bytes, size)
    let (locale, text) = localeAndText(data)
    _ = try? State.parser.parse(text, locale: locale, referenceTime: fuzzTime)
    return 0
}
