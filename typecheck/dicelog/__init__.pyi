# For mypy only (pyproject.toml, [tool.mypy]): dicelog is a namespace package at run time, with no
# folder of its own; this stub makes it a regular package for mypy, so that a module
# (domain/mice_and_mystics/content.py) wins over the data folder of the same name beside it
# (content/), as it does at run time. mypy otherwise takes the folder for a namespace package.
