import Foundation
import FuzzSupport
import Parlance

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = input(bytes, size)
    let cut = data.firstIndex(of: 0) ?? data.endIndex
    let strings = (try? IntentDefinitionFile.decodeStrings(data[..<cut], file: "Intents.strings")) ?? [:]
    _ = try? IntentDefinitionFile.decode(
        Data(data[cut...].dropFirst()), file: "Intents.intentdefinition", strings: ["es": strings], baseLanguage: "en")
    return 0
}
