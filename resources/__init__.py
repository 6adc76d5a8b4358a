"""The app's bundled files (help pages, icons, the sample corpus): installed as the package ``lshdesk.resources``."""
