// The text layer: tokens, keys, numbers, dates, amounts of any text in any locale.
import FuzzSupport

runFuzzer { LLVMFuzzerTestOneInput($0, $1) }
