import Foundation
import FuzzSupport
import Parlance

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    withLocaleAndText(bytes, size) { locale, text in _ = try? TextAnalyzer.shared.analyze(text, locale: locale, referenceTime: fuzzTime) }
}
