// One line of `parlance batch` input: JSON decoding (depth, size, fields), then the parse.
import FuzzSupport

runFuzzer { LLVMFuzzerTestOneInput($0, $1) }
