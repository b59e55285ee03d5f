"""Build hook for the optional C core of the fast move generator.

Everything else is configured in pyproject.toml. The extension is optional: if it
cannot be built, kingscrib installs anyway and uses the pure-Python generator.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "kingscrib.kings._fastgen_core",
            sources=["kingscrib/kings/_native/fastgen_core.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
