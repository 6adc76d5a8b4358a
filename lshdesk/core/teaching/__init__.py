"""The Learn view's models: the lessons after the two source documents, and the experiments."""
