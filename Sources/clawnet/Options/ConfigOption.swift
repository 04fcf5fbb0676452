import ArgumentParser

/// How a command words --config in its help.
protocol ConfigWording {
    static var configHelp: String { get }
}

extension ConfigWording {
    static var configHelp: String { "OpenClaw config to read (default ~/.openclaw/openclaw.json)." }
}

/// `--config PATH`: the OpenClaw config to read instead of the default one.
struct ConfigOption<Wording: ConfigWording>: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp(Wording.configHelp, valueName: "PATH"))
    var path: String?
}
