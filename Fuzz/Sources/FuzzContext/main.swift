// A context file, decoded and validated.
import FuzzSupport

runFuzzer { LLVMFuzzerTestOneInput($0, $1) }
