import ArgumentParser

/// How a command words --config in its help.
protocol ConfigWording {
    static var configHelp: String { get }
}

extension ConfigWording {
    static var configHelp: String {
        "OpenClaw config to read, with its $include files (default: as OpenClaw finds it, OPENCLAW_CONFIG_PATH, else openclaw.json "
            + "in OPENCLAW_STATE_DIR, in ~/.openclaw-PROFILE for OPENCLAW_PROFILE, or in ~/.openclaw; - reads standard input)."
    }
}

/// `--config FILE`: the OpenClaw config to read instead of the default one (it must be there),
/// or `-` or a pipe, read once (`RegularFile.readInput` keeps what it held for the next read).
struct ConfigOption<Wording: ConfigWording>: ParsableArguments {
    @Option(
        name: .customLong("config"), help: ArgumentHelp(Wording.configHelp, valueName: "FILE"), completion: .file(),
        transform: Arguments.inputPath)
    var path: String?
}
