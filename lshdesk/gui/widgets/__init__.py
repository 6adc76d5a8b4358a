"""The widgets of the main window: corpus and parameter panels, progress, results, side by side, tour."""
