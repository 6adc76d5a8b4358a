"""Build hook: the packages under lshdesk/, and resources/ installed as lshdesk.resources (the rest is in pyproject)."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["lshdesk", "lshdesk.*"]), "lshdesk.resources"],
    package_dir={"lshdesk.resources": "resources"},
)
