import Foundation
import FuzzSupport
import Parlance

// The name libFuzzer calls.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    withLocaleAndText(bytes, size) { locale, text in _ = try? TextAnalyzer.shared.analyze(text, locale: locale, referenceTime: fuzzTime) }
}
