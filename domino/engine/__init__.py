"""The rules engine: tiles, rules and presets, each board shape, matches and records (plain Python, no browser)."""
