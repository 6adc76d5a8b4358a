"""Build hook: the packages under lshdesk/, resources/ installed as lshdesk.resources, and the compiled kernels.

Every ``lshdesk/core/kernels/*.pyx`` is a C extension built by Cython (ahead of time: nothing compiles at run time).
A machine with no C compiler fails here, at install, with one line saying what to install. The Unicode tables of
``utext.pyx`` are generated first, from the building interpreter's own ``unicodedata`` (``gen_unicode_tables.py``).
"""

import runpy
import shutil
import sys
from glob import glob

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext

try:
    from Cython.Build import cythonize
except ImportError:  # pragma: no cover - pip installs Cython from [build-system] first
    sys.exit("lshdesk: building needs Cython (pip installs it from pyproject.toml's [build-system])")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
    "nonecheck": False,
    "embedsignature": True,
}


class BuildExt(build_ext):
    """build_ext that says in one line what is missing when there is no C compiler (before trying, not after)."""

    def build_extensions(self):
        if self.compiler.compiler_type != "msvc":
            cc = self.compiler.compiler_so[0]
            if shutil.which(cc) is None:
                sys.exit(
                    f"lshdesk: building its compiled core needs a C compiler, and '{cc}' was not found "
                    "(on Debian/Ubuntu: apt-get install gcc python3-dev; then install lshdesk again)"
                )
            for ext in self.extensions:
                # -ffp-contract=off: no fused multiply-add (numpy's rounding); -g0: no debug info (13 MB of modules -> ~4)
                ext.extra_compile_args += ["-O3", "-ffp-contract=off", "-g0"]
        super().build_extensions()


runpy.run_path("lshdesk/core/kernels/gen_unicode_tables.py")["write"]()  # by path: lshdesk is not importable yet

setup(
    packages=[*find_packages(include=["lshdesk", "lshdesk.*"]), "lshdesk.resources"],
    package_dir={"lshdesk.resources": "resources"},
    ext_modules=cythonize(
        sorted(glob("lshdesk/core/kernels/*.pyx")),
        compiler_directives=DIRECTIVES,
        quiet=True,
    ),
    cmdclass={"build_ext": BuildExt},
)
