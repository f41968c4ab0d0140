// The Parlance library: import this one module to get every stage of the pipeline.
@_exported import ParlanceContext
@_exported import ParlanceEvaluation
@_exported import ParlanceParser
@_exported import ParlanceResolver
@_exported import ParlanceText

/// ICU's version, as the text layer sees it.
public let icuVersion: String = ParlanceText.icuVersion
