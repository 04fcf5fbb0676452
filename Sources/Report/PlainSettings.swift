import Host
/// Environment variables that OpenClaw documents as settings, not secrets: wherever an env map of
/// the config or the env file sets one, the report shows its value as it is, since a helper needs
/// it (a log level, Bonjour turned off). Every other value there is a secret, whatever its name.
package enum PlainSettings {
    package static let names: Set<String> = [
        // openclaw/openclaw docs/help/environment.md: "Logging", "Path-related env vars", "Shell env
        // import", "UI env vars", "Runtime-injected env vars".
        "OPENCLAW_LOG_LEVEL", "OPENCLAW_HOME", "OPENCLAW_STATE_DIR", "OPENCLAW_CONFIG_PATH", "OPENCLAW_LOAD_SHELL_ENV",
        "OPENCLAW_SHELL_ENV_TIMEOUT_MS", "OPENCLAW_THEME", "OPENCLAW_SHELL",
        // extensions/bonjour/src/advertiser.ts: whether and under which host name the Gateway advertises.
        "OPENCLAW_DISABLE_BONJOUR", "OPENCLAW_MDNS_HOSTNAME",
        // src/config/paths.ts resolveStateDir: the profile names the state folder.
        "OPENCLAW_PROFILE",
        // docs/cli/gateway.md: the Gateway's port (`--port` overrides it).
        "OPENCLAW_GATEWAY_PORT",
    ]

    package static func isPlain(_ name: String) -> Bool { names.contains(name) }
}
