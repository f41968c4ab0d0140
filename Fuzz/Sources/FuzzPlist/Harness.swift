import Foundation
import FuzzSupport
import Parlance

// The name libFuzzer calls.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = input(bytes, size)
    _ = try? AppIntentVocabulary.decode(data, file: "AppIntentVocabulary.plist")
    return 0
}
