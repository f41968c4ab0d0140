// One line of `parlance batch` input: JSON decoding (depth, size, fields), then the parse.
import FuzzSupport

// Warm-up: one line in each locale the harnesses use.
let warmUp = fuzzLocales.map { Array(#"{"locale": "\#($0.identifier)", "text": "hello"}"#.utf8) }
runFuzzer(warmUp: warmUp) { LLVMFuzzerTestOneInput($0, $1) }
