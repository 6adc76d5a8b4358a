"""The Signatures tab: the signature grid, its model and painting, the per-pair figures."""
