import Foundation
import FuzzSupport
import Parlance

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = input(bytes, size)
    _ = try? AppIntentVocabulary.decode(data, file: "AppIntentVocabulary.plist")
    return 0
}
