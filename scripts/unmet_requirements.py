"""Which lines of a requirements file (`name>=version`, one a line, # comments)
the running Python does not meet: prints them on one line and exits 1, or
exits 0 when all are met. Asks no package index: scripts/install-deps runs it
to stay offline when nothing is missing, and ctest to check the tests' Python.

usage: unmet_requirements.py REQUIREMENTS_FILE
"""
import sys
from importlib.metadata import PackageNotFoundError, version

from packaging.requirements import Requirement


def met(requirement):
    try:
        return requirement.specifier.contains(version(requirement.name), prereleases=True)
    except PackageNotFoundError:
        return False


with open(sys.argv[1]) as f:
    lines = [line.split("#")[0].strip() for line in f]
unmet = [line for line in lines if line and not met(Requirement(line))]
if unmet:
    print(" ".join(unmet))
sys.exit(1 if unmet else 0)
