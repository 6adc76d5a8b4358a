"""The S-curve tab: the curve with the corpus's real pairs, the scheme controls, live figures, its workers."""
