"""Teaching mode: the lessons (sets, signatures, banding, the S-curve, a signature step by step) and experiments."""

from lshdesk.gui.learn.view import LearnView

__all__ = ["LearnView"]
