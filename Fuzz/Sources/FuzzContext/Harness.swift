import Foundation
import FuzzSupport
import Parlance

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = input(bytes, size)
    // Decoding validates the context (apps, intents, vocabularies, custom intents, shortcuts,
    // donations); a parser made from it would compile grammars per input, too slow to fuzz.
    _ = try? ParserContext.decode(data, file: "fuzz.json")
    return 0
}
