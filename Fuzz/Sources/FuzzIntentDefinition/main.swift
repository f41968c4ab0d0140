// An .intentdefinition file with its .strings table: the bytes before the first zero byte are
// the table, the rest the definition.
import FuzzSupport

runFuzzer { LLVMFuzzerTestOneInput($0, $1) }
