"""Qt models over the scan result's arrays: pairs, groups, documents."""
