// An AppIntentVocabulary.plist (XML or binary property list).
import FuzzSupport

runFuzzer { LLVMFuzzerTestOneInput($0, $1) }
