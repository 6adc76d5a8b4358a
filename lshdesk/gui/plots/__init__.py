"""pyqtgraph plots: items created once and fed with ``setData`` (the S-curve, bucket sizes)."""
