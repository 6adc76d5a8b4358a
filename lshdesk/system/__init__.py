"""How lshdesk meets the machine it is installed on: bundled files, logs, licences, desktop entry, shell completion."""
