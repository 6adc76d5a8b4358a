"""Queries by example and containment: rank a corpus against query documents, find documents copied into others."""
