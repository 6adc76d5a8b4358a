"""Entry point for ``python -m lshdesk``."""

from lshdesk.cli import main

raise SystemExit(main())
