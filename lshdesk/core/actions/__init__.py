"""Acting on what a scan found: marks, rules that keep one copy per group, moving or copying the marked files, a log."""
