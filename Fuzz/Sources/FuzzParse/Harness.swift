import Foundation
import FuzzSupport
import Parlance

/// What every input shares (static: made on first use, whichever `main` runs).
enum State {
    static let parser = try! IntentParser(context: .demo)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    withLocaleAndText(bytes, size) { locale, text in _ = try? State.parser.parse(text, locale: locale, referenceTime: fuzzTime) }
}
