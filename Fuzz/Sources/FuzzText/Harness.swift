import Foundation
import FuzzSupport
import Parlance

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = input(bytes, size)
    let (locale, text) = localeAndText(data)
    _ = try? TextAnalyzer.shared.analyze(text, locale: locale, referenceTime: fuzzTime)
    return 0
}
